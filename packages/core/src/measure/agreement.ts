import { fuseInputs, readLiveTimingStreams, readStreamOffset } from '../flags/live-timing.js';
import { createFlagTracker } from '../flags/tracker.js';
import type { TrackState } from '../flags/types.js';

/** The parts of a fixture file (fixtures/race-control/README.md) that the agreement needs. */
export interface RaceControlFixture {
  session?: { year?: number; meeting?: string; session_name?: string };
  complete?: boolean;
  messages: unknown[];
  live_timing?: {
    race_control_stream?: { stream_offset?: string; index: number; record?: unknown }[];
    track_status_stream?: { stream_offset: string; Status: string; Message?: string }[];
    session_status_stream?: { stream_offset: string; Status: string }[];
  };
}

/** F1 TrackStatus codes → the light state that should show (a safety car plays yellow). */
export const TRACK_STATUS_TO_STATE: Readonly<Record<string, TrackState>> = {
  '1': 'green',
  '2': 'yellow',
  '4': 'yellow',
  '5': 'red',
  '6': 'vsc',
  '7': 'vsc_ending',
};

/** Where the derived state comes from: race control alone, or F1 live timing fused (`--source f1`). */
export type AgreementSource = 'race_control' | 'f1';

export interface AgreementOptions {
  source?: AgreementSource;
  /**
   * `first-message` (default): from the first race-control message to the last line of any stream.
   * `whole`: the whole recording, from offset 0 (the reading DESIGN §7's targets quote).
   */
  window?: 'first-message' | 'whole';
  /** Time in `checkered`: left out of both sides (default), or counted as agreeing. */
  checkered?: 'exclude' | 'agree';
  /**
   * Before TrackStatus's first line: read as that first line (default, as this measure always has),
   * or left out (F1 sends changes, so nothing is known of the status before the first one).
   */
  beforeTrackStatus?: 'first-line' | 'exclude';
}

export interface Agreement {
  agreeMs: number;
  totalMs: number;
  ratio: number;
}

/** Where the derived light differs from TrackStatus, by reason (ms, inside the window). */
export interface AgreementDetail extends Agreement {
  /** Derived yellow only because a race-control sector is active while TrackStatus says AllClear. */
  sectorsMs: number;
  /** Derived checkered (TrackStatus has no code for it), whether counted as agreeing or left out. */
  checkeredMs: number;
  /** Any other difference (the track-wide state itself). */
  otherMs: number;
}

/** Parses a live-timing stream offset `HH:MM:SS.mmm` into milliseconds. */
export function parseStreamOffset(offset: string): number {
  const ms = readStreamOffset(offset);
  if (ms === null) throw new Error(`bad stream offset: ${offset}`);
  return ms;
}

type Point = { at: number; state: TrackState; sectors: number };
type Timeline = Point[];

/** The derived lasting state over the stream clock, message by message in arrival order. */
export function deriveTimeline(fixture: RaceControlFixture): Timeline {
  const stream = fixture.live_timing?.race_control_stream ?? [];
  const tracker = createFlagTracker();
  const timeline: Timeline = [{ at: 0, state: tracker.state(), sectors: 0 }];
  fixture.messages.forEach((message, index) => {
    const offset = stream[index]?.stream_offset;
    if (offset === undefined) throw new Error(`message ${index} has no stream_offset`);
    tracker.push(message);
    timeline.push({
      at: parseStreamOffset(offset),
      state: tracker.state(),
      sectors: tracker.activeSectors().length,
    });
  });
  return timeline;
}

/** The fused state (`--source f1`) over the stream clock, line by line of the merged streams. */
export function deriveFusedTimeline(fixture: RaceControlFixture): Timeline {
  const merged = readLiveTimingStreams(fixture.live_timing);
  if (!merged.ok) throw new Error(merged.error);
  const timeline: Timeline = [{ at: 0, state: 'green', sectors: 0 }];
  fuseInputs(merged.inputs, (input, _change, fusion) => {
    timeline.push({ at: input.at, state: fusion.state(), sectors: fusion.activeSectors().length });
  });
  return timeline;
}

function pointAt(timeline: Timeline, at: number): Point {
  let point = timeline[0] as Point;
  for (const next of timeline) {
    if (next.at > at) break;
    point = next;
  }
  return point;
}

/**
 * Time-weighted agreement of the derived state with F1's TrackStatus feed, with the reasons for
 * the differences.
 *
 * How it is compared (decided here, see the package README and decision 018):
 * - by default the window runs from the first race-control message (before it there is nothing to
 *   derive from; the stream opens an hour early on leftover support-race statuses) to the last
 *   line of any of the session's streams; `window: 'whole'` starts at offset 0;
 * - TrackStatus has no code for the chequered flag, and after it F1 keeps reporting marshal
 *   yellows that the lights deliberately do not show (the finish outranks sector flags), so time
 *   spent in checkered is left out of both sides by default, or counted as agreeing.
 */
export function measureAgreement(
  fixture: RaceControlFixture,
  options: AgreementOptions = {},
): AgreementDetail {
  const derived = options.source === 'f1' ? deriveFusedTimeline(fixture) : deriveTimeline(fixture);
  const status: Timeline = (fixture.live_timing?.track_status_stream ?? []).map((line) => ({
    at: parseStreamOffset(line.stream_offset),
    state: TRACK_STATUS_TO_STATE[line.Status] ?? 'green',
    sectors: 0,
  }));
  const offsets = [
    ...derived.map((point) => point.at),
    ...status.map((point) => point.at),
    ...(fixture.live_timing?.race_control_stream ?? []).map(
      (line) => readStreamOffset(line.stream_offset) ?? 0,
    ),
    ...(fixture.live_timing?.session_status_stream ?? []).map((line) =>
      parseStreamOffset(line.stream_offset),
    ),
  ];
  const firstMessage = readStreamOffset(fixture.live_timing?.race_control_stream?.[0]?.stream_offset) ?? 0;
  const firstStatus = status[0]?.at ?? 0;
  const windowStart = options.window === 'whole' ? 0 : firstMessage;
  const start = options.beforeTrackStatus === 'exclude' ? Math.max(windowStart, firstStatus) : windowStart;
  const cuts = [...new Set([start, ...offsets.filter((at) => at > start)])].sort((a, b) => a - b);
  const detail = { agreeMs: 0, totalMs: 0, sectorsMs: 0, checkeredMs: 0, otherMs: 0 };
  for (let i = 0; i < cuts.length - 1; i += 1) {
    const from = cuts[i] as number;
    const span = (cuts[i + 1] as number) - from;
    const point = pointAt(derived, from);
    // Before its first line, TrackStatus reads as that first line (as it always has here).
    const truth = status.length > 0 ? pointAt(status, from).state : 'green';
    if (point.state === 'checkered') {
      detail.checkeredMs += span;
      if (options.checkered !== 'agree') continue;
      detail.agreeMs += span;
    } else if (point.state === truth) {
      detail.agreeMs += span;
    } else if (point.state === 'yellow' && truth === 'green' && point.sectors > 0) {
      detail.sectorsMs += span;
    } else {
      detail.otherMs += span;
    }
    detail.totalMs += span;
  }
  return { ...detail, ratio: detail.totalMs === 0 ? 1 : detail.agreeMs / detail.totalMs };
}

/** Agreement over several sessions, weighted by time. */
export function combineAgreements<T extends Agreement>(agreements: readonly T[]): Agreement {
  const agreeMs = agreements.reduce((sum, a) => sum + a.agreeMs, 0);
  const totalMs = agreements.reduce((sum, a) => sum + a.totalMs, 0);
  return { agreeMs, totalMs, ratio: totalMs === 0 ? 1 : agreeMs / totalMs };
}
