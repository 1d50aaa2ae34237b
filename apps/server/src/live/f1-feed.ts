import { type LiveSession, type RaceControlMessage } from '@flaglight/core';
import {
  createF1LiveClient,
  type F1LiveClient,
  type FeedValue,
  type RaceControlEvent,
  type SessionStatusEvent,
  toRaceControlMessage,
  type TrackStatusEvent,
} from '@flaglight/f1-live';
import type { Logger } from 'pino';

/**
 * No frame for this long and the feed counts as down: heartbeats come every 5 s, so two missed
 * ones. With the 1 s health check the lights fail over to OpenF1 within 9 s (DESIGN §7: 10 s).
 */
export const F1_FEED_SILENCE_MS = 8_000;
export const F1_FEED_CHECK_MS = 1_000;
/**
 * Reconnect attempts of the server's one connection: 1 s, 2 s, then every 4 s (± 20 %), so the
 * feed is back within 5 s of F1 answering again. One instance, one connection: polite enough.
 */
export const F1_FEED_BACKOFF = { initialMs: 1_000, factor: 2, maxMs: 4_000, jitter: 0.2 } as const;
/**
 * The client drops a connection that sends no frame at all (not even the hub's 15 s pings) for this
 * long, a stall, and connects again. Above the ping interval, so a quiet feed between sessions
 * keeps its one connection instead of reconnecting over and over; it is merely not healthy.
 */
export const F1_FEED_RECONNECT_SILENCE_MS = 20_000;

/** SessionStatus values of a session under way (Aborted: suspended behind a red flag). */
const RUNNING = new Set(['Started', 'Aborted']);

export interface F1FeedHealth {
  healthy: boolean;
  /** Client clock (ms) of the last snapshot or feed frame. */
  lastMessageAt: number | null;
  error: string | null;
}

export type F1FeedEvent =
  | { type: 'raceControl'; sessionKey: number | null; message: RaceControlMessage; snapshot: boolean }
  | { type: 'trackStatus'; sessionKey: number | null; event: TrackStatusEvent }
  | { type: 'sessionStatus'; sessionKey: number | null; event: SessionStatusEvent }
  | { type: 'health'; health: F1FeedHealth };

/** What the feed holds of one session: enough to start following it mid-race. */
export interface F1SessionState {
  messages: RaceControlMessage[];
  trackStatus: { Status: string; Message: string } | null;
  sessionStatus: string | null;
}

/**
 * The server instance's one connection to F1 live timing (one per instance, whatever the number
 * of users: the feed tolerates light personal use, not a connection per fan), shared by every live session it follows, and what arms a session from
 * SessionInfo/SessionStatus. Health is judged here, not in the client: the client reconnects after
 * 20 s without a frame, the lights must fail over sooner.
 */
export interface F1Feed {
  health(): F1FeedHealth;
  /** The session F1 says is under way now (SessionStatus Started or Aborted), while healthy. */
  runningSession(): LiveSession | null;
  /** The feed's state of `sessionKey`, or null when the feed is on another session or unhealthy. */
  sessionState(sessionKey: number): F1SessionState | null;
  subscribe(listener: (event: F1FeedEvent) => void): () => void;
  stop(): Promise<void>;
}

export interface F1FeedOptions {
  url: string;
  logger?: Logger | undefined;
  /** The client's clock (real time: it stamps socket frames). Default `Date.now`. */
  now?: () => number;
}

function text(value: FeedValue | undefined): string | null {
  return typeof value === 'string' ? value : null;
}

function record(value: FeedValue | undefined): Record<string, FeedValue> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? value : {};
}

/** `2021-12-05T20:30:00` local + GMT offset `03:00:00` → ISO UTC; null when unreadable. */
export function localToUtc(local: string | null, gmtOffset: string | null): string | null {
  if (local === null) return null;
  const ms = Date.parse(/(Z|[+-]\d{2}:\d{2})$/.test(local) ? local : `${local}Z`);
  if (Number.isNaN(ms)) return null;
  const m = /^(-)?(\d{1,2}):(\d{2})(?::(\d{2}))?$/.exec(gmtOffset ?? '');
  const offset = m ? (m[1] ? -1 : 1) * ((Number(m[2]) * 60 + Number(m[3])) * 60_000) : 0;
  return new Date(ms - offset).toISOString();
}

/** SessionInfo → the LiveSession shape the hub serves (OpenF1 uses F1's own session keys). */
export function sessionFromInfo(info: FeedValue | undefined, now: number): LiveSession | null {
  const i = record(info);
  const key = typeof i.Key === 'number' ? i.Key : Number(text(i.Key) ?? Number.NaN);
  if (!Number.isInteger(key) || key <= 0) return null;
  const meeting = record(i.Meeting);
  const circuit = record(meeting.Circuit);
  const country = record(meeting.Country);
  const meetingKey = typeof meeting.Key === 'number' ? meeting.Key : undefined;
  const start = localToUtc(text(i.StartDate), text(i.GmtOffset)) ?? new Date(now).toISOString();
  const end = localToUtc(text(i.EndDate), text(i.GmtOffset));
  return {
    session_key: key,
    session_name: text(i.Name),
    session_type: text(i.Type),
    date_start: start,
    date_end: end,
    ...(meetingKey === undefined ? {} : { meeting_key: meetingKey }),
    circuit_short_name: text(circuit.ShortName),
    location: text(meeting.Location),
    country_name: text(country.Name),
    year: new Date(start).getUTCFullYear(),
  };
}

export function startF1Feed(options: F1FeedOptions): F1Feed {
  const now = options.now ?? Date.now;
  const listeners = new Set<(event: F1FeedEvent) => void>();
  const client: F1LiveClient = createF1LiveClient({
    baseUrl: options.url,
    now,
    silenceTimeoutMs: F1_FEED_RECONNECT_SILENCE_MS,
    backoff: F1_FEED_BACKOFF,
    ...(options.logger ? { logger: options.logger.child({ source: 'f1-live-timing' }) } : {}),
  });

  const emit = (event: F1FeedEvent) => {
    for (const listener of [...listeners]) {
      try {
        listener(event);
      } catch (error) {
        options.logger?.error({ err: error }, 'f1-live feed listener failed');
      }
    }
  };

  const health = (): F1FeedHealth => {
    const state = client.state();
    const silentFor = state.lastMessageAt === null ? Infinity : now() - state.lastMessageAt;
    const healthy = state.connection === 'connected' && silentFor <= F1_FEED_SILENCE_MS;
    const error = healthy
      ? null
      : (state.error ??
        (state.connection === 'connected'
          ? `no data for ${Math.round(silentFor / 1000)} s`
          : state.connection === 'connecting'
            ? 'connecting'
            : 'not connected'));
    return { healthy, lastMessageAt: state.lastMessageAt, error };
  };

  let wasHealthy = false;
  const check = () => {
    const h = health();
    if (h.healthy === wasHealthy) return;
    wasHealthy = h.healthy;
    options.logger?.info({ healthy: h.healthy, error: h.error }, 'f1-live feed health');
    emit({ type: 'health', health: h });
  };
  const checker = setInterval(check, F1_FEED_CHECK_MS);
  checker.unref();

  const sessionKey = () => client.sessionKeys().sessionKey;
  const offs = [
    client.on('raceControl', (e: RaceControlEvent) =>
      emit({
        type: 'raceControl',
        sessionKey: sessionKey(),
        message: e.message,
        snapshot: e.source === 'snapshot',
      }),
    ),
    client.on('trackStatus', (event) => emit({ type: 'trackStatus', sessionKey: sessionKey(), event })),
    client.on('sessionStatus', (event) => emit({ type: 'sessionStatus', sessionKey: sessionKey(), event })),
    // A connection that comes back healthy is told at once, not at the next check.
    client.on('state', check),
    client.on('heartbeat', check),
  ];

  client.start();

  return {
    health,
    runningSession() {
      if (!health().healthy) return null;
      const status = text(record(client.topic('SessionStatus')).Status);
      if (status === null || !RUNNING.has(status)) return null;
      return sessionFromInfo(client.topic('SessionInfo'), now());
    },
    sessionState(key) {
      if (!health().healthy || sessionKey() !== key) return null;
      const keys = client.sessionKeys();
      const list = record(client.topic('RaceControlMessages')).Messages;
      // A list, or an index-keyed object (how feed updates address it).
      const records = Array.isArray(list)
        ? list
        : Object.entries(record(list))
            .filter(([index]) => /^\d+$/.test(index))
            .sort(([a], [b]) => Number(a) - Number(b))
            .map(([, value]) => value);
      const messages = records.map((m) => toRaceControlMessage(m, keys));
      const track = record(client.topic('TrackStatus'));
      const code = text(track.Status) ?? (typeof track.Status === 'number' ? String(track.Status) : null);
      return {
        messages,
        trackStatus: code === null ? null : { Status: code, Message: text(track.Message) ?? '' },
        sessionStatus: text(record(client.topic('SessionStatus')).Status),
      };
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async stop() {
      clearInterval(checker);
      for (const off of offs) off();
      listeners.clear();
      await client.stop();
    },
  };
}
