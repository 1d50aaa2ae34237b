import {
  createFlagFusion,
  isoDate,
  type FlagFusion,
  type FusedLightChange,
  type FusionInput,
} from './fusion.js';
import type { FlagMessage } from './types.js';

/** Parses a live-timing stream offset `HH:MM:SS.mmm` into milliseconds, or null. */
export function readStreamOffset(offset: unknown): number | null {
  if (typeof offset !== 'string') return null;
  const match = /^(\d+):(\d{2}):(\d{2})(?:\.(\d{1,3}))?$/.exec(offset);
  if (match === null) return null;
  const [, h, m, s, ms = '0'] = match;
  return ((Number(h) * 60 + Number(m)) * 60 + Number(s)) * 1000 + Number(ms.padEnd(3, '0'));
}

/** Formats milliseconds as a live-timing stream offset `HH:MM:SS.mmm` (the inverse of `readStreamOffset`). */
export function formatStreamOffset(ms: number): string {
  const whole = Math.max(0, Math.round(ms));
  const two = (n: number) => String(n).padStart(2, '0');
  const s = Math.floor(whole / 1000);
  return `${two(Math.floor(s / 3600))}:${two(Math.floor(s / 60) % 60)}:${two(s % 60)}.${String(whole % 1000).padStart(3, '0')}`;
}

function text(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

function integer(value: unknown): number | null {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof n === 'number' && Number.isInteger(n) ? n : null;
}

/**
 * Maps one F1 live-timing RaceControlMessages record (`Utc`, `Category`, `Flag`, `Scope`,
 * `Sector`, `Message`, `Lap`, `RacingNumber`) to the OpenF1 shape the flag rules read, as the
 * fixtures' README does: `date` = `Utc` in UTC (`+00:00` added when it has no zone).
 */
export function readLiveTimingMessage(record: unknown): FlagMessage {
  if (typeof record !== 'object' || record === null) return {};
  const r = record as Record<string, unknown>;
  const utc = text(r.Utc);
  return {
    date: utc === null ? null : /(Z|[+-]\d{2}:?\d{2})$/.test(utc) ? utc : `${utc}+00:00`,
    category: text(r.Category),
    flag: text(r.Flag),
    scope: text(r.Scope),
    sector: integer(r.Sector),
    message: text(r.Message),
    lap_number: integer(r.Lap),
    driver_number: integer(r.RacingNumber),
  };
}

export type LiveTimingInputs = { ok: true; inputs: FusionInput[] } | { ok: false; error: string };

type Line = { input: FusionInput; rank: number; index: number };

const RANKS = { session_status: 0, race_control: 1, track_status: 2 } as const;

function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

/**
 * Turns a fixture's `live_timing` streams (`race_control_stream` records, `track_status_stream`,
 * `session_status_stream`) into fusion inputs merged in `stream_offset` order; `at` is the offset
 * in ms. On a tie the session status comes first, then race control, then TrackStatus. A
 * TrackStatus line's date is placed on the race-control clock (the median of `Utc − offset`).
 */
export function readLiveTimingStreams(liveTiming: unknown): LiveTimingInputs {
  if (typeof liveTiming !== 'object' || liveTiming === null) {
    return { ok: false, error: 'no live_timing streams' };
  }
  const streams = liveTiming as Record<string, unknown>;
  const names = ['race_control_stream', 'track_status_stream', 'session_status_stream'] as const;
  if (!names.some((name) => Array.isArray(streams[name]))) {
    return { ok: false, error: 'no live_timing streams' };
  }
  const lines: Line[] = [];
  const clock: number[] = [];
  for (const name of names) {
    const stream = streams[name];
    if (stream === undefined) continue;
    if (!Array.isArray(stream)) return { ok: false, error: `live_timing.${name} is not an array` };
    for (const [index, line] of stream.entries()) {
      const entry = (typeof line === 'object' && line !== null ? line : {}) as Record<string, unknown>;
      const at = readStreamOffset(entry.stream_offset);
      if (at === null) return { ok: false, error: `live_timing.${name}[${index}] has no stream_offset` };
      const offset = entry.stream_offset as string;
      if (name === 'race_control_stream') {
        const message = readLiveTimingMessage(entry.record);
        const utc = typeof message.date === 'string' ? Date.parse(message.date) : Number.NaN;
        if (!Number.isNaN(utc)) clock.push(utc - at);
        lines.push({ input: { kind: 'race_control', at, offset, message }, rank: RANKS.race_control, index });
      } else if (name === 'track_status_stream') {
        const status = { Status: entry.Status, Message: entry.Message };
        lines.push({ input: { kind: 'track_status', at, offset, status }, rank: RANKS.track_status, index });
      } else {
        const status = { Status: entry.Status };
        lines.push({
          input: { kind: 'session_status', at, offset, status },
          rank: RANKS.session_status,
          index,
        });
      }
    }
  }
  const base = median(clock);
  if (base !== null) {
    for (const { input } of lines) {
      if (input.kind === 'track_status')
        input.date = new Date(base + input.at).toISOString().replace('Z', '+00:00');
    }
  }
  lines.sort((a, b) => a.input.at - b.input.at || a.rank - b.rank || a.index - b.index);
  return { ok: true, inputs: lines.map((line) => line.input) };
}

/** The real time (ms) a TrackStatus line was placed at (race control's dates have whole seconds only). */
function inputDate(input: FusionInput): number | null {
  if (input.kind === 'track_status' && input.date !== undefined) {
    const ms = Date.parse(input.date);
    return Number.isNaN(ms) ? null : ms;
  }
  return null;
}

/**
 * Runs a whole stream of inputs (a file's, in arrival order) through a fusion, with a `clock`
 * input at every lead deadline that falls before the next line, so a withdrawn lead takes effect
 * at its deadline as it would live. Calls `onInput` after each input, clocks included.
 */
export function fuseInputs(
  inputs: readonly FusionInput[],
  onInput: (input: FusionInput, change: FusedLightChange | null, fusion: FlagFusion) => void = () => {},
  fusion: FlagFusion = createFlagFusion(),
): FusedLightChange[] {
  const changes: FusedLightChange[] = [];
  const apply = (input: FusionInput) => {
    const change = fusion.push(input);
    if (change !== null) changes.push(change);
    onInput(input, change, fusion);
  };
  // A file's lines carry a stream offset and (TrackStatus) a date placed on race control's clock:
  // the clock input gets both, from the last line that had a date.
  let dateMinusAt: number | null = null;
  for (const input of inputs) {
    const deadline = fusion.nextDeadline();
    if (deadline !== null && deadline <= input.at) {
      apply({
        kind: 'clock',
        at: deadline,
        ...(input.offset === undefined ? {} : { offset: formatStreamOffset(deadline) }),
        ...(dateMinusAt === null ? {} : { date: isoDate(deadline + dateMinusAt) }),
      });
    }
    apply(input);
    const dated = inputDate(input);
    if (dated !== null) dateMinusAt = dated - input.at;
  }
  return changes;
}
