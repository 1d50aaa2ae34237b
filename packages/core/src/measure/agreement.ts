import { createFlagTracker } from '../flags/tracker.js';
import type { TrackState } from '../flags/types.js';

/** The parts of a fixture file (fixtures/race-control/README.md) that the agreement needs. */
export interface RaceControlFixture {
  session?: { year?: number; meeting?: string; session_name?: string };
  complete?: boolean;
  messages: unknown[];
  live_timing?: {
    race_control_stream?: { stream_offset?: string; index: number }[];
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

export interface Agreement {
  agreeMs: number;
  totalMs: number;
  ratio: number;
}

/** Parses a live-timing stream offset `HH:MM:SS.mmm` into milliseconds. */
export function parseStreamOffset(offset: string): number {
  const match = /^(\d+):(\d{2}):(\d{2})(?:\.(\d{1,3}))?$/.exec(offset);
  if (match === null) throw new Error(`bad stream offset: ${offset}`);
  const [, h, m, s, ms = '0'] = match;
  return ((Number(h) * 60 + Number(m)) * 60 + Number(s)) * 1000 + Number(ms.padEnd(3, '0'));
}

type Timeline = { at: number; state: TrackState }[];

/** The derived lasting state over the stream clock, message by message in arrival order. */
export function deriveTimeline(fixture: RaceControlFixture): Timeline {
  const stream = fixture.live_timing?.race_control_stream ?? [];
  const tracker = createFlagTracker();
  const timeline: Timeline = [{ at: 0, state: tracker.state() }];
  fixture.messages.forEach((message, index) => {
    const offset = stream[index]?.stream_offset;
    if (offset === undefined) throw new Error(`message ${index} has no stream_offset`);
    tracker.push(message);
    timeline.push({ at: parseStreamOffset(offset), state: tracker.state() });
  });
  return timeline;
}

function stateAt(timeline: Timeline, at: number): TrackState {
  let state = timeline[0]?.state ?? 'green';
  for (const point of timeline) {
    if (point.at > at) break;
    state = point.state;
  }
  return state;
}

/**
 * Time-weighted agreement of the derived state with F1's TrackStatus feed.
 *
 * How it is compared (decided here, see the package README):
 * - the window runs from the first race-control message (before it there is nothing to derive
 *   from; the stream opens an hour early on leftover support-race statuses) to the last line of
 *   any of the session's streams;
 * - TrackStatus has no code for the chequered flag, and after it F1 keeps reporting marshal
 *   yellows that the lights deliberately do not show (the finish outranks sector flags), so time
 *   spent in checkered is left out of both sides instead of being counted either way.
 */
export function measureAgreement(fixture: RaceControlFixture): Agreement {
  const derived = deriveTimeline(fixture);
  const status: Timeline = (fixture.live_timing?.track_status_stream ?? []).map((line) => ({
    at: parseStreamOffset(line.stream_offset),
    state: TRACK_STATUS_TO_STATE[line.Status] ?? 'green',
  }));
  const offsets = [
    ...derived.map((point) => point.at),
    ...status.map((point) => point.at),
    ...(fixture.live_timing?.session_status_stream ?? []).map((line) =>
      parseStreamOffset(line.stream_offset),
    ),
  ];
  const start = derived[1]?.at ?? 0;
  const cuts = [...new Set([start, ...offsets.filter((at) => at > start)])].sort((a, b) => a - b);
  let agreeMs = 0;
  let totalMs = 0;
  for (let i = 0; i < cuts.length - 1; i += 1) {
    const from = cuts[i] as number;
    const span = (cuts[i + 1] as number) - from;
    const derivedState = stateAt(derived, from);
    if (derivedState === 'checkered') continue;
    totalMs += span;
    if (derivedState === stateAt(status, from)) agreeMs += span;
  }
  return { agreeMs, totalMs, ratio: totalMs === 0 ? 1 : agreeMs / totalMs };
}

/** Agreement over several sessions, weighted by time. */
export function combineAgreements(agreements: readonly Agreement[]): Agreement {
  const agreeMs = agreements.reduce((sum, a) => sum + a.agreeMs, 0);
  const totalMs = agreements.reduce((sum, a) => sum + a.totalMs, 0);
  return { agreeMs, totalMs, ratio: totalMs === 0 ? 1 : agreeMs / totalMs };
}
