import { deflateTopic } from './protocol.js';
import { type FeedEvent, type FeedRecord, type Recording } from './recording.js';
import { F1LIVE_GATED_TOPICS } from './types.js';

const REPLAYED_DEFAULTS: Record<string, FeedRecord> = {
  TrackStatus: { Status: '1', Message: 'AllClear' },
  SessionStatus: { Status: 'Inactive' },
};

/** Where the recording stands at one position, and how far its feed times are moved. */
export interface PlaybackPoint {
  recording: Recording;
  pos: number;
  feedTime: string;
  shiftMs: number;
}

/** A race-control record as sent: its `Utc` moved by the mirror's shift, in the feed's own format. */
export function outwardRecord(event: FeedEvent, shiftMs: number): FeedRecord {
  if (shiftMs === 0 || event.topic !== 'RaceControlMessages' || typeof event.value.Utc !== 'string') {
    return event.value;
  }
  const utc = event.value.Utc;
  const ms = Date.parse(/(Z|[+-]\d{2}:\d{2})$/.test(utc) ? utc : `${utc}Z`);
  if (Number.isNaN(ms)) return event.value;
  return { ...event.value, Utc: new Date(ms + shiftMs).toISOString().replace(/(\.000)?Z$/, '') };
}

/** A feed frame's data for an event (race control as an index-keyed `Messages` delta). */
export function updateOfEvent(event: FeedEvent, shiftMs: number): unknown {
  return event.topic === 'RaceControlMessages'
    ? { Messages: { [String(event.index ?? 0)]: outwardRecord(event, shiftMs) } }
    : event.value;
}

/** How many of the recording's events are at or before `pos`. */
export function countEventsUpTo(recording: Recording, pos: number): number {
  let n = 0;
  while (n < recording.events.length && recording.events[n]!.offsetMs <= pos) n += 1;
  return n;
}

/** Topic states after the first `n` events, in the snapshot's shape (Messages as a list). */
function topicStatesAfter(recording: Recording, n: number, shiftMs: number): Record<string, FeedRecord> {
  const state: Record<string, FeedRecord> = { SessionStatus: { ...REPLAYED_DEFAULTS.SessionStatus } };
  // A recording without TrackStatus lines has no TrackStatus topic: an invented AllClear would
  // tell clients the track is green when only race control knows.
  if (recording.events.some((event) => event.topic === 'TrackStatus')) {
    state.TrackStatus = { ...REPLAYED_DEFAULTS.TrackStatus };
  }
  const messages: FeedRecord[] = [];
  for (const event of recording.events.slice(0, n)) {
    if (event.topic === 'RaceControlMessages')
      messages[event.index ?? messages.length] = outwardRecord(event, shiftMs);
    else state[event.topic] = { ...state[event.topic], ...event.value };
  }
  state.RaceControlMessages = { Messages: Array.from(messages, (m) => m ?? {}) };
  return state;
}

/** Topic states at a point, for `topics` (gated ones only when `authorized`). */
export function snapshotAt(
  point: PlaybackPoint,
  topics: string[],
  authorized: boolean,
): Record<string, unknown> {
  const { recording, pos, feedTime, shiftMs } = point;
  const all: Record<string, unknown> = {
    ...topicStatesAfter(recording, countEventsUpTo(recording, pos), shiftMs),
    SessionInfo: recording.sessionInfo,
    Heartbeat: { Utc: feedTime },
    ExtrapolatedClock: { Utc: feedTime, Remaining: '00:00:00', Extrapolating: false },
  };
  const result: Record<string, unknown> = {};
  for (const topic of topics) {
    if (topic in all) result[topic] = { ...(all[topic] as FeedRecord), _kf: true };
    else if ((F1LIVE_GATED_TOPICS as readonly string[]).includes(topic) && authorized) {
      result[topic] = deflateTopic({ Entries: [], _kf: true });
    }
  }
  return result;
}
