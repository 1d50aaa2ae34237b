import { z } from 'zod';
import type { LightChange, LightState } from '../flags/types.js';

/** What a stretch of the session is coloured by: the track-wide flag, with a safety car told apart. */
export const TIMELINE_STATES = ['green', 'yellow', 'safety_car', 'vsc', 'red', 'checkered'] as const;
export type TimelineState = (typeof TIMELINE_STATES)[number];

/** A stretch of one track-wide state; times are ms after the timeline's start. */
export const FlagPeriodSchema = z.object({
  from: z.number(),
  to: z.number(),
  state: z.enum(TIMELINE_STATES),
});
export type FlagPeriod = z.infer<typeof FlagPeriodSchema>;

/** Local yellows under a green track: drawn as thin marks, not periods. */
export const SectorMarkSchema = z.object({
  from: z.number(),
  to: z.number(),
  sectors: z.array(z.number()),
});
export type SectorMark = z.infer<typeof SectorMarkSchema>;

/** A session in one picture: its periods cover 0…lengthMs without gaps or overlaps. */
export const FlagTimelineSchema = z
  .object({
    lengthMs: z.number(),
    periods: z.array(FlagPeriodSchema),
    sectorMarks: z.array(SectorMarkSchema),
  })
  .meta({ id: 'FlagTimeline' });
export type FlagTimeline = z.infer<typeof FlagTimelineSchema>;

/** A change the timeline reads: when it took effect (epoch ms) and what it showed. */
export interface TimelineChange {
  at: number;
  state: LightState;
  activeSectors: readonly number[];
  /** True while the track-wide state is a safety car; absent on changes from before fusion said so. */
  safetyCar?: boolean;
  cause?: { message: string };
}

/**
 * Whether a yellow change is a safety car. Without the fused `safetyCar` flag the cause's text
 * decides, as the panel does for older events.
 */
function isSafetyCar(change: TimelineChange): boolean {
  if (typeof change.safetyCar === 'boolean') return change.safetyCar;
  const text = (change.cause?.message ?? '').toUpperCase();
  return /\bSAFETY CAR\b/.test(text) && !/\bVIRTUAL SAFETY CAR\b|\bVSC\b/.test(text);
}

type Reading = { kind: 'track'; state: TimelineState } | { kind: 'sectors'; sectors: number[] } | null;

function read(change: TimelineChange): Reading {
  switch (change.state) {
    case 'fastest_lap':
      // Momentary: it never colours a stretch of the session.
      return null;
    case 'vsc_ending':
      // Still under the virtual safety car until the green.
      return { kind: 'track', state: 'vsc' };
    case 'yellow':
      if (isSafetyCar(change)) return { kind: 'track', state: 'safety_car' };
      // The tracker's yellow with sectors is a local one under a green track (DESIGN §6).
      if (change.activeSectors.length > 0) return { kind: 'sectors', sectors: [...change.activeSectors] };
      return { kind: 'track', state: 'yellow' };
    default:
      return { kind: 'track', state: change.state };
  }
}

/** Reads a core light change (its date is ISO text) as a timeline change. */
export function toTimelineChange(change: LightChange & { safetyCar?: boolean }): TimelineChange {
  return {
    at: Date.parse(change.date),
    state: change.state,
    activeSectors: change.activeSectors,
    ...(change.safetyCar === undefined ? {} : { safetyCar: change.safetyCar }),
    cause: change.cause,
  };
}

/**
 * Derives the flag periods of a session from its light changes (from `deriveLightChanges`,
 * `fuseInputs` or a stream's flag events). The session starts green at `window.start`; changes
 * before it set the state it starts in, changes after `window.end` are ignored. Times in the result
 * are ms after `window.start`; consecutive periods of one state are merged, empty ones dropped.
 */
export function deriveFlagTimeline(
  changes: readonly TimelineChange[],
  window: { start: number; end: number },
): FlagTimeline {
  const lengthMs = Math.max(0, window.end - window.start);
  const sorted = changes
    .map((change, index) => ({ change, index }))
    .filter(({ change }) => Number.isFinite(change.at))
    .sort((a, b) => a.change.at - b.change.at || a.index - b.index);
  const periods: FlagPeriod[] = [];
  const sectorMarks: SectorMark[] = [];
  let state: TimelineState = 'green';
  let since = 0;
  let mark: { from: number; sectors: number[] } | null = null;

  const closePeriod = (to: number) => {
    if (to <= since) return;
    const last = periods[periods.length - 1];
    if (last && last.state === state) last.to = to;
    else periods.push({ from: since, to, state });
  };
  const closeMark = (to: number) => {
    if (mark && to > mark.from) sectorMarks.push({ from: mark.from, to, sectors: mark.sectors });
    mark = null;
  };

  for (const { change } of sorted) {
    const reading = read(change);
    if (reading === null) continue;
    const at = Math.min(Math.max(0, change.at - window.start), lengthMs);
    if (change.at - window.start > lengthMs) break;
    const next: TimelineState = reading.kind === 'track' ? reading.state : 'green';
    if (next !== state) {
      closePeriod(at);
      state = next;
      since = at;
    }
    closeMark(at);
    if (reading.kind === 'sectors') mark = { from: at, sectors: reading.sectors };
  }
  closePeriod(lengthMs);
  closeMark(lengthMs);
  return { lengthMs, periods, sectorMarks };
}

/**
 * The period at `positionMs` (ms after the start), or null outside the timeline. The very end
 * belongs to the last period: a live timeline's position is always its end.
 */
export function findFlagPeriod(timeline: FlagTimeline, positionMs: number): FlagPeriod | null {
  const last = timeline.periods[timeline.periods.length - 1];
  if (last && positionMs === last.to) return last;
  return timeline.periods.find((p) => p.from <= positionMs && positionMs < p.to) ?? null;
}

/**
 * The first flag change after `positionMs`: a new period or a sector yellow, in ms after the start,
 * or null when nothing changes after it.
 */
export function findNextFlagChange(timeline: FlagTimeline, positionMs: number): number | null {
  const starts = [
    ...timeline.periods.filter((_, i) => i > 0).map((p) => p.from),
    ...timeline.sectorMarks.map((m) => m.from),
  ].filter((at) => at > positionMs);
  return starts.length === 0 ? null : Math.min(...starts);
}
