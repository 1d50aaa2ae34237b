import { type RaceControlMessage } from '@flaglight/core';
import { type HubConnection } from '@microsoft/signalr';
import { buildHubConnection, DEFAULT_HEADERS } from './connection.js';
import {
  clipForLog,
  describe,
  describeF1LiveFailure,
  type F1LivePhase,
  signalrLogger,
  type F1LiveLogger,
} from './failure.js';
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

/** The production hub (reference §1): anonymous, and it serves every topic Flaglight needs. */
export const F1_LIVE_TIMING_URL = 'https://livetiming.formula1.com/signalrcore';
export const DEFAULT_TOPICS = [
  'Heartbeat',
  'SessionInfo',
  'SessionStatus',
  'TrackStatus',
  'RaceControlMessages',
  'ExtrapolatedClock',
] as const;
/** ASP.NET Core's default: 30 s without any frame (pings every 15 s) means the connection is dead. */
export const DEFAULT_SILENCE_TIMEOUT_MS = 30_000;
/** Reference §7 (as f1_sensor): 5 s, doubling, up to 60 s, with jitter. */
export const DEFAULT_BACKOFF = { initialMs: 5_000, factor: 2, maxMs: 60_000, jitter: 0.2 } as const;

export type F1LiveConnection = 'connecting' | 'connected' | 'reconnecting' | 'down';

export interface F1LiveState {
  connection: F1LiveConnection;
  /** When (client clock, ms) the last snapshot or feed data arrived; null before any. */
  lastMessageAt: number | null;
  /** Why the last connection or attempt failed, while not connected. */
  error?: string;
}

/** `snapshot`: from a Subscribe result (first connect or after a reconnect); `feed`: a live update. */
export type F1LiveSource = 'snapshot' | 'feed';

interface Timed {
  /** The feed frame's timestamp (ISO, UTC); null for snapshot-derived events. */
  feedTime: string | null;
  /** When the client received it (client clock, ms). */
  receivedAt: number;
  source: F1LiveSource;
}

export interface TrackStatusEvent extends Timed {
  /** `1` AllClear, `2` Yellow, `4` SCDeployed, `5` Red, `6` VSCDeployed, `7` VSCEnding (a string, as sent). */
  status: string;
  message: string | null;
}

export interface RaceControlEvent extends Timed {
  /** Position in the session's message list. */
  index: number;
  /** OpenF1 /v1/race_control shape, what the core tracker takes. */
  message: RaceControlMessage;
  /** The live-timing record as merged (`Utc`, `Category`, `Flag`, `Mode`, `Status`…). */
  record: FeedObject;
}

export interface SessionStatusEvent extends Timed {
  /** `Inactive`, `Started`, `Aborted`, `Finished`, `Finalised`, `Ends`. */
  status: string;
}

export interface SessionInfoEvent extends Timed {
  info: FeedObject;
  sessionKey: number | null;
  meetingKey: number | null;
}

export interface HeartbeatEvent extends Timed {
  utc: string | null;
}

export interface F1LiveEvents {
  trackStatus: TrackStatusEvent;
  raceControl: RaceControlEvent;
  sessionStatus: SessionStatusEvent;
  sessionInfo: SessionInfoEvent;
  heartbeat: HeartbeatEvent;
  state: F1LiveState;
}

export type { F1LiveLogger };

export interface F1LiveClientOptions {
  /** The hub URL: {@link F1_LIVE_TIMING_URL} in production, a simulator's `…/signalrcore` in tests and demo. */
  baseUrl: string;
  topics?: readonly string[];
  logger?: F1LiveLogger;
  /** Client clock for `receivedAt`/`lastMessageAt`. Default `Date.now`. */
  now?: () => number;
  /** Reconnect after this long without any frame, and give up an attempt that takes longer. Default 30 s. */
  silenceTimeoutMs?: number;
  backoff?: { initialMs?: number; factor?: number; maxMs?: number; jitter?: number };
  /** Source of jitter in [0, 1). Default `Math.random`. */
  random?: () => number;
  /** Extra headers on negotiate and the upgrade (e.g. `Authorization` for gated topics). */
  headers?: Record<string, string>;
}

export interface F1LiveClient {
  /** Connects, and keeps reconnecting until `stop()`. Resolves at once (watch `state`). */
  start(): void;
  stop(): Promise<void>;
  state(): F1LiveState;
  on<K extends keyof F1LiveEvents>(event: K, handler: (payload: F1LiveEvents[K]) => void): () => void;
  /** A topic's merged state (`TrackStatus`, `CarData` for `CarData.z`…), or undefined. */
  topic(name: string): FeedValue | undefined;
  /** The session's keys from SessionInfo (`Key`, `Meeting.Key`). */
  sessionKeys(): SessionKeys;
  /** Load-balancer cookies held by the current connection (names → values). */
  cookies(): Record<string, string>;
}

const SILENT_LOGGER: F1LiveLogger = { debug() {}, info() {}, warn() {}, error() {} };

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

/**
 * Wait before reconnect attempt `n` of an outage. `n = 0`: the first retry after a connection that
 * got its snapshot (a restart, a blip): within 1 s (the client allows one per `initialMs`, so a
 * server that accepts and drops at once is not hammered). Then `initialMs × factor^(n−1)` up to
 * `maxMs` (5 s, 10 s, 20 s, 40 s, 60 s…), each ± `jitter`.
 */
export function backoffDelay(
  n: number,
  backoff: { initialMs: number; factor: number; maxMs: number; jitter: number },
  random: () => number,
): number {
  if (n <= 0) return random() * Math.min(1_000, backoff.initialMs);
  const base = Math.min(backoff.maxMs, backoff.initialMs * backoff.factor ** (n - 1));
  return Math.max(0, base * (1 + backoff.jitter * (2 * random() - 1)));
}

/**
 * A client for F1 live timing (reference/f1-live-timing.md) on `@microsoft/signalr`: negotiate
 * (load-balancer cookies kept), WebSocket, `Subscribe`, the snapshot, then `feed` updates merged
 * into it. TrackStatus, race-control and session-status changes are emitted one by one in
 * arrival order. Any loss (close, error, 30 s silence, failed attempt) negotiates again and
 * re-subscribes after a back-off; the new snapshot is reconciled so nothing old fires again.
 */
export function createF1LiveClient(options: F1LiveClientOptions): F1LiveClient {
  if (!/^https?:\/\/[^/]/.test(options.baseUrl)) {
    throw new TypeError(`baseUrl must be an http(s) URL, got ${JSON.stringify(options.baseUrl)}`);
  }
  const now = options.now ?? Date.now;
  const random = options.random ?? Math.random;
  const logger = options.logger ?? SILENT_LOGGER;
  const topics = [...(options.topics ?? DEFAULT_TOPICS)];
  const silenceMs = options.silenceTimeoutMs ?? DEFAULT_SILENCE_TIMEOUT_MS;
  const backoff = { ...DEFAULT_BACKOFF, ...options.backoff };
  const headers = { ...DEFAULT_HEADERS, ...options.headers };
  const handlers = new Map<keyof F1LiveEvents, Set<(payload: never) => void>>();

  let running = false;
  let generation = 0;
  let current: { connection: HubConnection; cookies: () => Record<string, string> } | null = null;
  let retryTimer: NodeJS.Timeout | null = null;
  let attemptTimer: NodeJS.Timeout | null = null;
  let failures = 0;
  let quickRetryAt: number | null = null;
  let quickInEpisode = false;
  let status: F1LiveState = { connection: 'down', lastMessageAt: null };

  // Merged topic state, and what has been emitted (for reconciling a new snapshot).
  let topicState = new Map<string, FeedValue>();
  let keys: SessionKeys = { sessionKey: null, meetingKey: null };
  let seenMessages = new Map<number, string>();
  let lastTrack: string | null = null;
  let lastSessionStatus: string | null = null;

  function emit<K extends keyof F1LiveEvents>(event: K, payload: F1LiveEvents[K]): void {
    for (const handler of handlers.get(event) ?? []) {
      try {
        (handler as (value: F1LiveEvents[K]) => void)(payload);
      } catch (error) {
        logger.error({ event, err: error }, 'f1-live: an event handler threw');
      }
    }
  }

  function setState(next: Partial<F1LiveState> & Pick<F1LiveState, 'connection'>): void {
    const updated: F1LiveState = { connection: next.connection, lastMessageAt: status.lastMessageAt };
    if ('error' in next && next.error !== undefined) updated.error = next.error;
    const changed = updated.connection !== status.connection || updated.error !== status.error;
    status = updated;
    if (changed) emit('state', { ...status });
  }

  function touch(at: number): void {
    status = { ...status, lastMessageAt: at };
  }

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

  function decode(topic: string, data: unknown): FeedValue {
    return isDeflatedTopic(topic) ? inflateTopicData(data) : stripKeyframes(data);
  }

  function applySnapshot(result: unknown, receivedAt: number): void {
    if (!isFeedObject(result)) throw new Error('Subscribe answered without a snapshot object');
    const next = new Map<string, FeedValue>();
    for (const topic of topics) {
      if (!(topic in result)) continue;
      try {
        next.set(topicName(topic), decode(topic, result[topic]));
      } catch (error) {
        logger.warn({ topic, err: describe(error) }, 'f1-live: undecodable snapshot topic skipped');
      }
    }
    topicState = next;
    touch(receivedAt);
    const timed: Timed = { feedTime: null, receivedAt, source: 'snapshot' };
    noteSessionInfo(next.get('SessionInfo'), timed);
    emitSessionStatus(timed, false);
    const rcm = next.get('RaceControlMessages');
    const messages = isFeedObject(rcm) ? rcm.Messages : undefined;
    if (isFeedObject(messages)) {
      // Tolerate an index-keyed object in a snapshot: normalise it to the list form.
      const normalised = applyDelta({ ...(rcm as FeedObject), Messages: [] }, { Messages: messages });
      topicState.set('RaceControlMessages', normalised);
    }
    const list = (topicState.get('RaceControlMessages') as FeedObject | undefined)?.Messages;
    if (Array.isArray(list)) for (let i = 0; i < list.length; i += 1) emitMessage(i, timed);
    emitTrackStatus(timed, false);
    if (next.has('Heartbeat')) emitHeartbeat(timed);
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
      const indices = Object.keys(messages)
        .filter((k) => /^\d+$/.test(k))
        .map(Number)
        .sort((a, b) => a - b);
      for (const i of indices) {
        const value = topicState.get(name) as FeedObject;
        topicState.set(name, applyDelta(value, { Messages: { [String(i)]: messages[String(i)] ?? null } }));
        emitMessage(i, timed);
      }
      return;
    }
    topicState.set(name, applyDelta(topicState.get(name), delta));
    if (name === 'TrackStatus') emitTrackStatus(timed, true);
    else if (name === 'SessionStatus') emitSessionStatus(timed, true);
    else if (name === 'SessionInfo') noteSessionInfo(topicState.get(name), timed);
    else if (name === 'Heartbeat') emitHeartbeat(timed);
  }

  function clearTimers(): void {
    if (retryTimer) clearTimeout(retryTimer);
    if (attemptTimer) clearTimeout(attemptTimer);
    retryTimer = null;
    attemptTimer = null;
  }

  function retryDelay(): number {
    const t = now();
    const quick = failures === 1 && (quickRetryAt === null || t - quickRetryAt >= backoff.initialMs);
    if (quick) quickRetryAt = t;
    const delay = backoffDelay(quick ? 0 : failures - (quickInEpisode ? 1 : 0), backoff, random);
    quickInEpisode ||= quick;
    return delay;
  }

  /** `reason`: the state's error, in own words (failure.ts); the library's words go to the log. */
  function lost(gen: number, error: unknown, reason: string): void {
    if (gen !== generation || !running) return;
    generation += 1;
    const wasConnected = status.connection === 'connected';
    failures += 1;
    const detail = clipForLog(error === undefined ? 'connection closed' : describe(error));
    const dropped = current;
    current = null;
    clearTimers();
    if (dropped) void dropped.connection.stop().catch(() => undefined);
    const wait = retryDelay();
    logger.warn({ err: detail, reason, retryInMs: Math.round(wait), failures }, 'f1-live: connection lost');
    setState({ connection: wasConnected ? 'reconnecting' : 'down', error: reason });
    retryTimer = setTimeout(() => {
      retryTimer = null;
      void connect();
    }, wait);
  }

  async function connect(): Promise<void> {
    if (!running) return;
    generation += 1;
    const gen = generation;
    if (status.connection === 'down' && status.error === undefined) setState({ connection: 'connecting' });
    let built: ReturnType<typeof buildHubConnection>;
    try {
      built = buildHubConnection({
        url: options.baseUrl,
        headers,
        serverTimeoutMs: silenceMs,
        httpTimeoutMs: silenceMs,
        logger: signalrLogger(logger),
      });
    } catch (error) {
      lost(gen, error, describeF1LiveFailure('setup', error, null));
      return;
    }
    const { connection, http } = built;
    let phase: F1LivePhase = 'connect';
    const fail = (error: unknown, at: F1LivePhase = phase) =>
      lost(gen, error, describeF1LiveFailure(at, error, at === 'connect' ? http.lastFailedStatus() : null));
    current = { connection, cookies: () => http.cookies() };
    // Frames that come before the Subscribe result wait for the snapshot, then apply on top of it.
    let pending: { topic: unknown; data: unknown; feedTime: unknown; at: number }[] | null = [];
    connection.on('feed', (topic: unknown, data: unknown, feedTime: unknown) => {
      if (gen !== generation) return;
      const at = now();
      if (pending) pending.push({ topic, data, feedTime, at });
      else applyFeed(topic, data, feedTime, at);
    });
    connection.onclose((error) => fail(error ?? new Error('connection closed'), 'closed'));
    attemptTimer = setTimeout(
      () => fail(new Error(`no snapshot within ${silenceMs} ms`), 'snapshot'),
      silenceMs,
    );
    try {
      await connection.start();
      if (gen !== generation) return;
      phase = 'subscribe';
      const result: unknown = await connection.invoke('Subscribe', topics);
      if (gen !== generation) return;
      if (attemptTimer) clearTimeout(attemptTimer);
      attemptTimer = null;
      applySnapshot(result, now());
      for (const frame of pending) applyFeed(frame.topic, frame.data, frame.feedTime, frame.at);
      pending = null;
      failures = 0;
      quickInEpisode = false;
      logger.info({ url: options.baseUrl, topics }, 'f1-live: subscribed');
      setState({ connection: 'connected' });
    } catch (error) {
      fail(error);
    }
  }

  return {
    start() {
      if (running) return;
      running = true;
      failures = 0;
      setState({ connection: 'connecting' });
      void connect();
    },
    async stop() {
      running = false;
      generation += 1;
      clearTimers();
      const dropped = current;
      current = null;
      setState({ connection: 'down' });
      if (dropped) await dropped.connection.stop().catch(() => undefined);
    },
    state: () => ({ ...status }),
    on(event, handler) {
      const set = handlers.get(event) ?? new Set();
      handlers.set(event, set);
      set.add(handler);
      return () => {
        set.delete(handler);
      };
    },
    topic: (name) => topicState.get(name),
    sessionKeys: () => ({ ...keys }),
    cookies: () => current?.cookies() ?? {},
  };
}
