import { escapeLogText } from '@flaglight/core/log';
import { type HubConnection } from '@microsoft/signalr';
import { createRetries, DEFAULT_BACKOFF } from './backoff.js';
import { buildHubConnection, DEFAULT_HEADERS } from './connection.js';
import { createEventHandlers } from './event-handlers.js';
import {
  describe,
  describeF1LiveFailure,
  F1_LIVE_LOG_QUOTE_MAX,
  type F1LivePhase,
  signalrLogger,
  type F1LiveLogger,
} from './failure.js';
import { createFeedState } from './feed-state.js';
import {
  DEFAULT_SILENCE_TIMEOUT_MS,
  DEFAULT_TOPICS,
  type F1LiveClient,
  type F1LiveClientOptions,
  type F1LiveState,
} from './types.js';

const SILENT_LOGGER: F1LiveLogger = { debug() {}, info() {}, warn() {}, error() {} };

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
  const { emit, on } = createEventHandlers(logger);

  let running = false;
  let generation = 0;
  let current: { connection: HubConnection; cookies: () => Record<string, string> } | null = null;
  let retryTimer: NodeJS.Timeout | null = null;
  let attemptTimer: NodeJS.Timeout | null = null;
  let status: F1LiveState = { connection: 'down', lastMessageAt: null };

  const retries = createRetries(backoff, now, random);

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

  const feed = createFeedState({ topics, logger, emit, touch });

  function clearTimers(): void {
    if (retryTimer) clearTimeout(retryTimer);
    if (attemptTimer) clearTimeout(attemptTimer);
    retryTimer = null;
    attemptTimer = null;
  }

  /** `reason`: the state's error, in own words (failure.ts); the library's words go to the log. */
  function lost(gen: number, error: unknown, reason: string): void {
    if (gen !== generation || !running) return;
    generation += 1;
    const wasConnected = status.connection === 'connected';
    const detail = escapeLogText(error === undefined ? 'connection closed' : describe(error), {
      max: F1_LIVE_LOG_QUOTE_MAX,
    });
    const dropped = current;
    current = null;
    clearTimers();
    if (dropped) void dropped.connection.stop().catch(() => undefined);
    const wait = retries.fail();
    logger.warn(
      { err: detail, reason, retryInMs: Math.round(wait), failures: retries.failures },
      'f1-live: connection lost',
    );
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
      else feed.applyFeed(topic, data, feedTime, at);
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
      feed.applySnapshot(result, now());
      for (const frame of pending) feed.applyFeed(frame.topic, frame.data, frame.feedTime, frame.at);
      pending = null;
      retries.succeeded();
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
      retries.restart();
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
    on,
    topic: (name) => feed.topic(name),
    sessionKeys: () => feed.sessionKeys(),
    cookies: () => current?.cookies() ?? {},
  };
}
