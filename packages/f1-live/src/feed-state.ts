import { describe, type F1LiveLogger } from './failure.js';
import {
  applyDelta,
  type FeedObject,
  type FeedValue,
  inflateTopicData,
  isDeflatedTopic,
  isFeedObject,
  stripKeyframes,
} from './merge.js';
import { type SessionKeys, toRaceControlMessage } from './race-control.js';
import { type F1LiveEvents, type Timed } from './types.js';

export interface FeedStateOptions {
  /** The subscribed topics, as sent (`CarData.z`…). */
  topics: readonly string[];
  logger: F1LiveLogger;
  emit: <K extends keyof F1LiveEvents>(event: K, payload: F1LiveEvents[K]) => void;
  /** Data arrived at this client time. */
  touch: (at: number) => void;
}

/** The merged topic state across connections, and the events its changes emit. */
export interface FeedState {
  /** A Subscribe result: replaces the state; only what was not emitted yet fires. */
  applySnapshot(result: unknown, receivedAt: number): void;
  /** A `feed` invocation's arguments: merged into the state, each change emitted in order. */
  applyFeed(topic: unknown, data: unknown, feedTime: unknown, receivedAt: number): void;
  topic(name: string): FeedValue | undefined;
  sessionKeys(): SessionKeys;
}

function text(value: FeedValue | undefined): string | null {
  return typeof value === 'string' ? value : null;
}

function keyOf(value: FeedValue | undefined): number | null {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && /^\d+$/.test(value)) return Number(value);
  return null;
}

function fingerprint(record: FeedObject): string {
  return `${text(record.Utc) ?? ''}|${text(record.Message) ?? ''}`;
}

function topicName(topic: string): string {
  return isDeflatedTopic(topic) ? topic.slice(0, -2) : topic;
}

function decode(topic: string, data: unknown): FeedValue {
  return isDeflatedTopic(topic) ? inflateTopicData(data) : stripKeyframes(data);
}

/** A Subscribe result's topics, decoded (one that will not decode is logged and left out). */
function decodeSnapshot(
  topics: readonly string[],
  result: FeedObject,
  logger: F1LiveLogger,
): Map<string, FeedValue> {
  const next = new Map<string, FeedValue>();
  for (const topic of topics) {
    if (!(topic in result)) continue;
    try {
      next.set(topicName(topic), decode(topic, result[topic]));
    } catch (error) {
      logger.warn({ topic, err: describe(error) }, 'f1-live: undecodable snapshot topic skipped');
    }
  }
  return next;
}

/** Tolerates an index-keyed object of race-control messages in a snapshot: normalised to the list form. */
function normaliseSnapshotMessages(topicState: Map<string, FeedValue>): void {
  const rcm = topicState.get('RaceControlMessages');
  const messages = isFeedObject(rcm) ? rcm.Messages : undefined;
  if (!isFeedObject(messages)) return;
  topicState.set(
    'RaceControlMessages',
    applyDelta({ ...(rcm as FeedObject), Messages: [] }, { Messages: messages }),
  );
}

/** The numeric keys of an index-keyed delta, ascending. */
function indicesInOrder(messages: FeedObject): number[] {
  return Object.keys(messages)
    .filter((k) => /^\d+$/.test(k))
    .map(Number)
    .sort((a, b) => a - b);
}

export function createFeedState(options: FeedStateOptions): FeedState {
  const { topics, logger, emit, touch } = options;
  // Merged topic state, and what has been emitted (for reconciling a new snapshot).
  let topicState = new Map<string, FeedValue>();
  let keys: SessionKeys = { sessionKey: null, meetingKey: null };
  let seenMessages = new Map<number, string>();
  let lastTrack: string | null = null;
  let lastSessionStatus: string | null = null;

  function resetSession(): void {
    seenMessages = new Map();
    lastTrack = null;
    lastSessionStatus = null;
  }

  function noteSessionInfo(info: FeedValue | undefined, timed: Timed): void {
    if (!isFeedObject(info)) return;
    const meeting = info.Meeting;
    const next: SessionKeys = {
      sessionKey: keyOf(info.Key),
      meetingKey: isFeedObject(meeting) ? keyOf(meeting.Key) : null,
    };
    if (keys.sessionKey !== null && next.sessionKey !== null && next.sessionKey !== keys.sessionKey) {
      logger.info({ from: keys.sessionKey, to: next.sessionKey }, 'f1-live: a new session');
      resetSession();
    }
    keys = next;
    emit('sessionInfo', { ...timed, info, ...next });
  }

  function emitMessage(index: number, timed: Timed): void {
    const list = topicState.get('RaceControlMessages');
    const messages = isFeedObject(list) ? list.Messages : undefined;
    const record = Array.isArray(messages) ? messages[index] : undefined;
    if (!isFeedObject(record)) return;
    const print = fingerprint(record);
    if (seenMessages.get(index) === print) return;
    seenMessages.set(index, print);
    emit('raceControl', { ...timed, index, record, message: toRaceControlMessage(record, keys) });
  }

  function emitTrackStatus(timed: Timed, always: boolean): void {
    const value = topicState.get('TrackStatus');
    if (!isFeedObject(value)) return;
    const code = text(value.Status) ?? (typeof value.Status === 'number' ? String(value.Status) : null);
    if (code === null) return;
    const message = text(value.Message);
    const print = `${code}|${message ?? ''}`;
    if (!always && print === lastTrack) return;
    lastTrack = print;
    emit('trackStatus', { ...timed, status: code, message });
  }

  function emitSessionStatus(timed: Timed, always: boolean): void {
    const value = topicState.get('SessionStatus');
    const code = isFeedObject(value) ? text(value.Status) : null;
    if (code === null) return;
    if (!always && code === lastSessionStatus) return;
    lastSessionStatus = code;
    emit('sessionStatus', { ...timed, status: code });
  }

  function emitHeartbeat(timed: Timed): void {
    const value = topicState.get('Heartbeat');
    emit('heartbeat', { ...timed, utc: isFeedObject(value) ? text(value.Utc) : null });
  }

  function applySnapshot(result: unknown, receivedAt: number): void {
    if (!isFeedObject(result)) throw new Error('Subscribe answered without a snapshot object');
    const next = decodeSnapshot(topics, result, logger);
    topicState = next;
    touch(receivedAt);
    const timed: Timed = { feedTime: null, receivedAt, source: 'snapshot' };
    noteSessionInfo(next.get('SessionInfo'), timed);
    emitSessionStatus(timed, false);
    normaliseSnapshotMessages(topicState);
    const list = (topicState.get('RaceControlMessages') as FeedObject | undefined)?.Messages;
    if (Array.isArray(list)) for (let i = 0; i < list.length; i += 1) emitMessage(i, timed);
    emitTrackStatus(timed, false);
    if (next.has('Heartbeat')) emitHeartbeat(timed);
  }

  function applyRaceControl(delta: FeedObject, timed: Timed): void {
    const name = 'RaceControlMessages';
    const messages = delta.Messages;
    const base = topicState.get(name);
    const state: FeedObject = isFeedObject(base) ? base : {};
    if (!Array.isArray(state.Messages)) state.Messages = [];
    const rest: FeedObject = { ...delta };
    delete rest.Messages;
    let merged = applyDelta({ ...state }, rest);
    if (Array.isArray(messages)) {
      merged = { ...(merged as FeedObject), Messages: messages };
      topicState.set(name, merged);
      for (let i = 0; i < messages.length; i += 1) emitMessage(i, timed);
      return;
    }
    topicState.set(name, merged);
    if (!isFeedObject(messages)) return;
    // One by one, in index order: never collapse a batch of messages.
    for (const i of indicesInOrder(messages)) {
      const value = topicState.get(name) as FeedObject;
      topicState.set(name, applyDelta(value, { Messages: { [String(i)]: messages[String(i)] ?? null } }));
      emitMessage(i, timed);
    }
  }

  function applyFeed(topic: unknown, data: unknown, feedTime: unknown, receivedAt: number): void {
    if (typeof topic !== 'string') {
      logger.warn({ topic: String(topic) }, 'f1-live: feed frame without a topic name ignored');
      return;
    }
    let delta: FeedValue;
    try {
      delta = decode(topic, data);
    } catch (error) {
      logger.warn({ topic, err: describe(error) }, 'f1-live: undecodable feed frame ignored');
      return;
    }
    touch(receivedAt);
    const name = topicName(topic);
    const timed: Timed = {
      feedTime: typeof feedTime === 'string' ? feedTime : null,
      receivedAt,
      source: 'feed',
    };
    if (name === 'RaceControlMessages' && isFeedObject(delta)) {
      applyRaceControl(delta, timed);
      return;
    }
    topicState.set(name, applyDelta(topicState.get(name), delta));
    if (name === 'TrackStatus') emitTrackStatus(timed, true);
    else if (name === 'SessionStatus') emitSessionStatus(timed, true);
    else if (name === 'SessionInfo') noteSessionInfo(topicState.get(name), timed);
    else if (name === 'Heartbeat') emitHeartbeat(timed);
  }

  return {
    applySnapshot,
    applyFeed,
    topic: (name) => topicState.get(name),
    sessionKeys: () => ({ ...keys }),
  };
}
