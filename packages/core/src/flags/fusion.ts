import { classifyMessage, type FlagEffect } from './classify.js';
import { readMessageDate } from './tracker.js';
import type { FlagMessage, LightChange, TrackState } from './types.js';

/** The feeds a light change can come from. */
export const FLAG_SOURCES = ['race_control', 'track_status'] as const;
/** Which feed caused a light change. */
export type FlagSource = (typeof FLAG_SOURCES)[number];

/** What caused a change: the race-control message, or the TrackStatus line (`status` is its code). */
export interface FlagCause {
  date: string;
  message: string;
  source: FlagSource;
  status?: string;
}

/** A light change of the fused flag state (DESIGN §5.8). */
export interface FusedLightChange extends LightChange {
  /** True while the track-wide state is a safety car (the light state stays `yellow`). */
  safetyCar: boolean;
  cause: FlagCause;
  /** Arrival time (ms) of the input that caused it. */
  at: number;
  /** The feed line's `stream_offset`, when the input carried one. */
  offset?: string;
}

/** One feed line, in arrival order. `at` is its arrival time in ms (any clock, only differences count). */
export type FusionInput =
  | { kind: 'race_control'; at: number; offset?: string; message: unknown }
  | {
      kind: 'track_status';
      at: number;
      offset?: string;
      /** ISO date for the change's `date` (the feed frame's timestamp); defaults to `at`. */
      date?: string;
      status: unknown;
    }
  | { kind: 'session_status'; at: number; offset?: string; status: unknown }
  /**
   * The TrackStatus feed went silent or failed (a live source's failover): until its next line,
   * race control alone decides, by DESIGN §6, as if TrackStatus had never been seen.
   */
  | { kind: 'track_status_lost'; at: number; offset?: string }
  /**
   * Time passes with no feed line: a race-control lead that TrackStatus has not confirmed by its
   * deadline (`nextDeadline()`) is withdrawn. Live consumers push one at the deadline; a file's
   * runner (`fuseInputs`) inserts them in order.
   */
  | { kind: 'clock'; at: number; offset?: string; date?: string };

/** F1 TrackStatus codes → the track-wide state (4, a safety car, shows yellow). */
export const TRACK_STATUS_STATES: Readonly<Record<string, TrackState>> = {
  '1': 'green',
  '2': 'yellow',
  '4': 'yellow',
  '5': 'red',
  '6': 'vsc',
  '7': 'vsc_ending',
};

/** TrackStatus code of a safety car. */
export const TRACK_STATUS_SAFETY_CAR = '4';

/**
 * How long a race-control announcement (red, safety car, VSC, VSC ending) may lead TrackStatus: if
 * TrackStatus has not shown it by then, the lead is withdrawn and TrackStatus decides again. The
 * two arrive 0–0.36 s apart on every real session (reference §8); 5 s leaves room for a slow feed
 * without leaving the lights wrong for long.
 */
export const TRACK_STATUS_GRACE_MS = 5_000;

/**
 * A sector yellow announced this recently survives a TrackStatus AllClear: the AllClear closes the
 * incident TrackStatus knew about, not a new one whose race-control message came a moment earlier.
 */
export const SECTOR_SKEW_MS = 1_000;

/** The cause of the change a lost TrackStatus feed makes (the lights fall back to race control). */
export const TRACK_STATUS_LOST = 'Track status feed lost: following race control';

/** SessionStatus values after which F1 stops keeping TrackStatus up to date. */
const SESSION_OVER = new Set(['Finished', 'Finalised', 'Ends']);

/**
 * Race-control announcements that may lead TrackStatus → the TrackStatus codes that confirm them.
 * A green or a track clear is not among them: race control never ends a state TrackStatus holds.
 */
const CONFIRMING_CODES: Readonly<Partial<Record<TrackState, readonly string[]>>> = {
  yellow: ['4'],
  red: ['5'],
  vsc: ['6'],
  vsc_ending: ['7'],
};

/** The cause of the change a withdrawn lead makes. */
export const LEAD_WITHDRAWN = 'not confirmed by TrackStatus';

/** The fused flag tracker: TrackStatus for the track-wide state, race control for the rest. */
export interface FlagFusion {
  /** Applies one feed line; returns the light change it causes, or null. */
  push(input: FusionInput): FusedLightChange | null;
  /** The current lasting state (never fastest_lap). */
  state(): TrackState;
  /** Active yellow sectors, ascending. */
  activeSectors(): number[];
  /** True while the track-wide state is a safety car. */
  safetyCar(): boolean;
  /** Which feed decides the track-wide state now. */
  trackSource(): FlagSource;
  /**
   * When a race-control lead that TrackStatus has not confirmed will be withdrawn (ms, on the
   * inputs' clock), or null: push a `clock` input then.
   */
  nextDeadline(): number | null;
}

export interface FlagFusionOptions {
  /** The state the lights already show; DESIGN §4: green on connect. */
  initialState?: TrackState;
}

interface Pending {
  codes: readonly string[];
  deadline: number;
}

interface HeldStatus {
  code: string;
  message: string;
}

function readText(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function readStatus(value: unknown): { code: string; message: string } | null {
  if (typeof value !== 'object' || value === null) return null;
  const record = value as { Status?: unknown; Message?: unknown };
  const code = typeof record.Status === 'number' ? String(record.Status) : readText(record.Status).trim();
  if (TRACK_STATUS_STATES[code] === undefined) return null;
  return { code, message: readText(record.Message) };
}

/** An ISO date with `+00:00`, as OpenF1 writes them. */
export function isoDate(ms: number): string {
  return new Date(ms).toISOString().replace('Z', '+00:00');
}

/** What the fused tracker holds between inputs. */
interface FusionState {
  /** The track-wide state by race control's rules (DESIGN §6), and whether it is a safety car. */
  rcState: TrackState;
  rcSafetyCar: boolean;
  /** Active yellow sectors → when each was announced (ms). */
  sectors: Map<number, number>;
  /** TrackStatus's last line; null until one is seen, or after the feed was lost. */
  ts: HeldStatus | null;
  /** A race-control lead TrackStatus has not confirmed yet. */
  pending: Pending | null;
  sessionOver: boolean;
}

/** Which feed decides the track-wide state now. */
function trackSourceOf(held: FusionState): FlagSource {
  return held.ts === null || held.pending !== null || held.rcState === 'checkered'
    ? 'race_control'
    : 'track_status';
}

/** The track-wide state from the feed that decides it. */
function trackWide(held: FusionState): { state: TrackState; safetyCar: boolean } {
  const code = trackSourceOf(held) === 'track_status' ? held.ts?.code : undefined;
  if (code === undefined) return { state: held.rcState, safetyCar: held.rcSafetyCar };
  return { state: TRACK_STATUS_STATES[code] as TrackState, safetyCar: code === TRACK_STATUS_SAFETY_CAR };
}

/** DESIGN §6's final state: the track-wide state if not green, else yellow while a sector is. */
function currentLight(held: FusionState): { state: TrackState; safetyCar: boolean } {
  const track = trackWide(held);
  if (track.state !== 'green') return track;
  return { state: held.sectors.size > 0 ? 'yellow' : 'green', safetyCar: false };
}

function statusCause(status: HeldStatus, message = status.message): Omit<FlagCause, 'date'> {
  return { message, source: 'track_status', status: status.code };
}

/**
 * A race-control message's effect on the held state (a fastest lap holds nothing): a track-wide
 * announcement may lead TrackStatus until `TRACK_STATUS_GRACE_MS` after `at`.
 */
function applyRaceControlEffect(held: FusionState, effect: FlagEffect, at: number): void {
  switch (effect.kind) {
    case 'track': {
      held.rcState = effect.state;
      // The only track-wide yellow of DESIGN §6 is a safety car (a VSC has its own states).
      held.rcSafetyCar = effect.state === 'yellow';
      if (effect.clearsSectors) held.sectors.clear();
      held.pending = null;
      const codes = CONFIRMING_CODES[effect.state];
      const { ts } = held;
      if (ts !== null && codes !== undefined && !codes.includes(ts.code) && !held.sessionOver) {
        held.pending = { codes, deadline: at + TRACK_STATUS_GRACE_MS };
      }
      break;
    }
    case 'pit-exit-open':
      if (held.rcState === 'checkered') {
        held.rcState = 'green';
        held.rcSafetyCar = false;
      }
      break;
    case 'sector-on':
      held.sectors.set(effect.sector, at);
      break;
    case 'sector-off':
      held.sectors.delete(effect.sector);
      break;
    default:
      break;
  }
}

/**
 * Creates the fused tracker of DESIGN §5.8 / decision 018. Inputs are taken in arrival order.
 *
 * - Until a TrackStatus line is seen, the race-control rules of DESIGN §6 apply unchanged: the
 *   changes equal `createFlagTracker()`'s, with `safetyCar` and `cause.source` added.
 * - From its first line on, TrackStatus decides the track-wide state (1 green, 2 yellow, 4 safety
 *   car, 5 red, 6 vsc, 7 vsc_ending); its AllClear and Red clear the sectors announced at least
 *   `SECTOR_SKEW_MS` before it, like race control's TRACK CLEAR and RED FLAG. Repeated lines and
 *   unknown codes change nothing.
 * - Sectors, the chequered flag (until the next race-control track message) and fastest laps come
 *   from race control. The final state is DESIGN §6's: the track-wide state if not green, else
 *   yellow if any sector is active, else green.
 * - While TrackStatus is in play it alone decides the track-wide state (decision 025). A
 *   race-control announcement it does not show yet (red, safety car, VSC, VSC ending) may lead: the
 *   lights follow it at once, and TrackStatus confirming it then changes nothing. If TrackStatus has
 *   not confirmed it within `TRACK_STATUS_GRACE_MS` the lead is withdrawn (at the next input, or a
 *   `clock` input at `nextDeadline()`) and the lights go back to what TrackStatus holds. A green or
 *   a track clear never leads: race control never ends a state TrackStatus holds. After the session
 *   is over (SessionStatus Finished, Finalised, Ends) race control no longer leads at all.
 * - Pit-lane notices ("GREEN LIGHT - PIT EXIT OPEN") are never track-wide flags; the pit exit
 *   opening ends a chequered flag.
 * - A change is emitted when the state differs from the last one emitted or, once TrackStatus is in
 *   play, when only the safety-car kind does.
 */
export function createFlagFusion(options: FlagFusionOptions = {}): FlagFusion {
  const held: FusionState = {
    rcState: options.initialState ?? 'green',
    rcSafetyCar: false,
    sectors: new Map(),
    ts: null,
    pending: null,
    sessionOver: false,
  };
  let emitted = { state: held.rcState, safetyCar: false };

  const sortedSectors = (): number[] => [...held.sectors.keys()].sort((a, b) => a - b);
  const current = () => currentLight(held);

  const makeChange = (
    state: FusedLightChange['state'],
    safetyCar: boolean,
    input: FusionInput,
    date: string,
    cause: Omit<FlagCause, 'date'>,
  ): FusedLightChange => ({
    date,
    state,
    activeSectors: sortedSectors(),
    safetyCar,
    cause: { date, ...cause },
    at: input.at,
    ...(input.offset === undefined ? {} : { offset: input.offset }),
  });

  const emitIfChanged = (
    input: FusionInput,
    date: string,
    cause: Omit<FlagCause, 'date'>,
  ): FusedLightChange | null => {
    const next = current();
    const kindCounts = held.ts !== null && next.safetyCar !== emitted.safetyCar;
    if (next.state === emitted.state && !kindCounts) return null;
    emitted = next;
    return makeChange(next.state, next.safetyCar, input, date, cause);
  };

  /** Withdraws a lead TrackStatus has not confirmed by `at`; true when one was withdrawn. */
  const expireLead = (at: number): boolean => {
    if (held.pending === null || at < held.pending.deadline) return false;
    held.pending = null;
    return true;
  };

  const pushRaceControl = (input: FusionInput & { kind: 'race_control' }): FusedLightChange | null => {
    const date = readMessageDate(input.message);
    if (date === null) return null;
    const cause = {
      message: readText((input.message as FlagMessage).message),
      source: 'race_control' as const,
    };
    const effect = classifyMessage(input.message);
    if (effect.kind === 'fastest-lap')
      return makeChange('fastest_lap', current().safetyCar, input, date.text, cause);
    applyRaceControlEffect(held, effect, input.at);
    return emitIfChanged(input, date.text, cause);
  };

  const pushTrackStatus = (input: FusionInput & { kind: 'track_status' }): FusedLightChange | null => {
    const status = readStatus(input.status);
    // An unknown code is ignored, and a repeated line (a resent snapshot, a duplicate) is no news.
    if (status === null || status.code === held.ts?.code) return null;
    held.ts = status;
    if (held.pending !== null && held.pending.codes.includes(status.code)) held.pending = null;
    if (status.code === '1' || status.code === '5') {
      for (const [sector, since] of held.sectors)
        if (input.at - since >= SECTOR_SKEW_MS) held.sectors.delete(sector);
    }
    return emitIfChanged(input, input.date ?? isoDate(input.at), statusCause(status));
  };

  const push = (input: FusionInput): FusedLightChange | null => {
    if (typeof input !== 'object' || input === null) return null;
    // A lead past its deadline is gone before anything that comes after it is applied.
    const withdrawn = expireLead(input.at);
    const { ts } = held;
    switch (input.kind) {
      case 'clock':
        if (!withdrawn || ts === null) return null;
        return emitIfChanged(
          input,
          input.date ?? isoDate(input.at),
          statusCause(ts, `${ts.message} (${LEAD_WITHDRAWN})`),
        );
      case 'race_control':
        return pushRaceControl(input);
      case 'track_status':
        return pushTrackStatus(input);
      case 'track_status_lost':
        if (ts === null) return null;
        held.ts = null;
        held.pending = null;
        return emitIfChanged(input, isoDate(input.at), {
          message: TRACK_STATUS_LOST,
          source: 'race_control',
        });
      case 'session_status': {
        const status = (input.status as { Status?: unknown } | null)?.Status;
        held.sessionOver = typeof status === 'string' && SESSION_OVER.has(status);
        return null;
      }
      default:
        return null;
    }
  };

  return {
    push,
    state: () => current().state,
    activeSectors: sortedSectors,
    safetyCar: () => current().safetyCar,
    trackSource: () => trackSourceOf(held),
    nextDeadline: () => held.pending?.deadline ?? null,
  };
}
