import { FlagEventDataSchema, nextPollDelay, type FlagEventData } from '@flaglight/core';
import { ServerError, UnreachableError, describe, type ServerApi } from '../link/server-api.js';
import { readEventStream } from './sse.js';

export type StreamState =
  'connecting' | 'following' | 'polling' | 'waiting' | 'reconnecting' | 'refused' | 'unlinked' | 'stopped';

export interface FollowerStatus {
  state: StreamState;
  sessionKey: number | null;
  /** Why the companion is not following (server unreachable, trial ended, no live session...). */
  message: string | null;
  lastEventAt: number | null;
}

export interface DeliveredFlag {
  id: number;
  data: FlagEventData;
  /** Local time the event arrived. */
  receivedAt: number;
  /** How long ago the server emitted it, by the server's clock (0 when fresh or unknown). */
  ageMs: number;
}

export interface FollowerHandlers {
  /** Flags that arrived together (a resume's backlog is one batch), oldest first. */
  onFlags(flags: DeliveredFlag[]): void;
  onPreferences(document: unknown): void;
  /** Settings → Test your lights, relayed by the server to this companion. */
  onTest(state: string): void;
  /** The companion's token no longer works: it was unlinked (or the account deleted). */
  onUnlinked(message: string): void;
  onStatus(status: FollowerStatus): void;
  /** The stream (re)opened: preferences may have changed meanwhile. */
  onConnected?(): void;
}

export interface FollowerOptions {
  api: ServerApi;
  token: string;
  handlers: FollowerHandlers;
  now?: () => number;
  /** Reconnect back-off: 1, 2, 4 … 30 s, with jitter. */
  retryBaseMs?: number;
  retryMaxMs?: number;
  /** No byte for this long (heartbeats come every 15 s): the stream is taken as dead. */
  watchdogMs?: number;
  /** How often to ask whether another session went live (the stream stays on the one it opened). */
  sessionCheckMs?: number;
  /** With no live session, ask again this often. */
  idleCheckMs?: number;
  /** A tick gap above this means the computer slept: reconnect at once. */
  sleepGapMs?: number;
  /** How often the sleep check ticks (5 s). */
  tickMs?: number;
  /** Stream opens that fail in a row (tickets working) before polling instead. */
  streamAttemptsBeforePolling?: number;
}

export interface Follower {
  status(): FollowerStatus;
  /** Reconnect now (network back, woken from sleep). */
  kick(): void;
  stop(): Promise<void>;
}

/** The server's refusals that waiting a while may cure (an ended trial bought, streams closed). */
const REFUSAL_RETRY_MS = 5 * 60_000;
const RATE_LIMIT_RETRY_MS = 60_000;

/**
 * Follows the account's live session through the server's event stream with the device token
 * (DESIGN §5.4): a one-time ticket per connection, `Last-Event-ID` resume within a session, back-off
 * with jitter, a watchdog for dead connections, a jump when the computer wakes from sleep, polling
 * `/api/live/state` when the stream cannot be opened, and a switch to the next session when one goes
 * live. It never gives up while linked; only a 401 (unlinked) ends it.
 */
export function startFollower(options: FollowerOptions): Follower {
  const { api, token, handlers } = options;
  const now = options.now ?? Date.now;
  const retryBase = options.retryBaseMs ?? 1_000;
  const retryMax = options.retryMaxMs ?? 30_000;
  const watchdogMs = options.watchdogMs ?? 45_000;
  const sessionCheckMs = options.sessionCheckMs ?? 30_000;
  const idleCheckMs = options.idleCheckMs ?? 30_000;
  const sleepGapMs = options.sleepGapMs ?? 20_000;
  const attemptsBeforePolling = options.streamAttemptsBeforePolling ?? 3;

  let stopped = false;
  let status: FollowerStatus = { state: 'connecting', sessionKey: null, message: null, lastEventAt: null };
  let sessionKey: number | undefined;
  let lastEventId: number | undefined;
  let clockOffsetMs = 0;
  let failures = 0;
  let streamFailures = 0;
  let current: AbortController | null = null;
  let wake: (() => void) | null = null;

  const setStatus = (change: Partial<FollowerStatus>) => {
    status = { ...status, ...change, sessionKey: sessionKey ?? null };
    handlers.onStatus(status);
  };

  /** Waits `ms`, or less when kicked or stopped. */
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const handle = setTimeout(done, ms);
      function done() {
        clearTimeout(handle);
        wake = null;
        resolve();
      }
      wake = done;
    });

  const backoff = () => {
    failures += 1;
    const base = Math.min(retryMax, retryBase * 2 ** Math.max(0, failures - 1));
    return base / 2 + Math.random() * (base / 2);
  };

  // Sleep: timers stop while the computer sleeps, so a tick arriving far too late means it woke up.
  let lastTick = now();
  const ticker = setInterval(() => {
    const at = now();
    if (at - lastTick > sleepGapMs) {
      failures = 0;
      current?.abort(new Error('woke from sleep'));
      wake?.();
    }
    lastTick = at;
  }, options.tickMs ?? 5_000);
  ticker.unref?.();

  const deliver = (batch: { id: number; data: FlagEventData }[], receivedAt: number) => {
    const fresh: DeliveredFlag[] = [];
    for (const event of batch) {
      if (event.data.sessionKey !== sessionKey) {
        // A new session: its ids start their own count.
        sessionKey = event.data.sessionKey;
        lastEventId = undefined;
      }
      if (lastEventId !== undefined && event.id <= lastEventId) continue;
      lastEventId = event.id;
      const emitted = Date.parse(event.data.emittedAt);
      const ageMs = Number.isFinite(emitted) ? Math.max(0, receivedAt + clockOffsetMs - emitted) : 0;
      fresh.push({ id: event.id, data: event.data, receivedAt, ageMs });
    }
    if (fresh.length > 0) {
      status = { ...status, lastEventAt: receivedAt, sessionKey: sessionKey ?? null };
      handlers.onStatus(status);
      handlers.onFlags(fresh);
    }
  };

  const unlinked = (message: string) => {
    stopped = true;
    setStatus({ state: 'unlinked', message });
    handlers.onUnlinked(message);
  };

  /** Handles a failed call; returns how long to wait before the next try, or null to stop. */
  const failure = (error: unknown, during: 'ticket' | 'stream'): number | null => {
    if (error instanceof ServerError) {
      if (error.status === 401 && (during === 'ticket' || /unlinked/i.test(error.message))) {
        unlinked(error.message);
        return null;
      }
      if (error.status === 404 && during === 'stream') {
        // No live session now: nothing to follow until one starts.
        sessionKey = undefined;
        lastEventId = undefined;
        failures = 0;
        setStatus({ state: 'waiting', message: 'No live session right now: waiting for the next one.' });
        return idleCheckMs;
      }
      if (error.status === 403 && during === 'stream') {
        // A ticket for a session that is no longer live.
        sessionKey = undefined;
        lastEventId = undefined;
        return 0;
      }
      if (error.status === 403) {
        setStatus({ state: 'refused', message: error.message });
        return REFUSAL_RETRY_MS;
      }
      if (error.status === 429) {
        setStatus({ state: 'refused', message: error.message });
        return RATE_LIMIT_RETRY_MS;
      }
      if (error.status === 401) return backoff();
    }
    setStatus({
      state: 'reconnecting',
      message: error instanceof UnreachableError ? error.message : `Connection lost: ${describe(error)}`,
    });
    return backoff();
  };

  const waitForLiveSession = async (): Promise<void> => {
    while (!stopped) {
      try {
        const answer = await api.liveState(token);
        if (answer.flag) deliver([{ id: answer.id ?? 0, data: answer.flag }], now());
        return;
      } catch (error) {
        if (error instanceof ServerError && error.status === 404) {
          setStatus({ state: 'waiting', message: 'No live session right now: waiting for the next one.' });
          await pause(idleCheckMs);
          continue;
        }
        const delay = failure(error, 'ticket');
        if (delay === null) return;
        await pause(delay);
      }
    }
  };

  const polling = () =>
    setStatus({
      state: 'polling',
      message: 'The live stream cannot be opened from here: checking every few seconds.',
    });
  const poll = async (): Promise<void> => {
    polling();
    let errors = 0;
    const until = now() + REFUSAL_RETRY_MS;
    while (!stopped && now() < until) {
      try {
        const answer = await api.liveState(token, sessionKey);
        errors = 0;
        if (status.state === 'reconnecting') polling();
        if (answer.flag) deliver([{ id: answer.id ?? 0, data: answer.flag }], now());
        else sessionKey = answer.sessionKey;
      } catch (error) {
        if (error instanceof ServerError && error.status === 404) {
          sessionKey = undefined;
          lastEventId = undefined;
          await waitForLiveSession();
          continue;
        }
        if (error instanceof ServerError && error.status === 401) {
          unlinked(error.message);
          return;
        }
        errors += 1;
        // The server itself is away (network, 5xx), as the stream would say: the F1 fallback counts on it.
        if (error instanceof UnreachableError || (error instanceof ServerError && error.status >= 500))
          setStatus({
            state: 'reconnecting',
            message:
              error instanceof UnreachableError ? error.message : `Connection lost: ${describe(error)}`,
          });
      }
      await pause(nextPollDelay(errors > 0 ? 'error' : 'ok', errors));
    }
    // Try the stream again now and then: the network that blocked it may have changed.
    streamFailures = 0;
  };

  const runStream = async (): Promise<'ended' | 'failed'> => {
    setStatus({
      state: status.state === 'following' ? 'reconnecting' : status.state,
      message: status.message,
    });
    let ticket: string;
    try {
      const answer = await api.requestTicket(token, sessionKey);
      ticket = answer.ticket;
      if (answer.serverNow !== null) clockOffsetMs = Math.round((answer.serverNow - now()) / 1000) * 1000;
    } catch (error) {
      const delay = failure(error, 'ticket');
      if (delay !== null) await pause(delay);
      return 'failed';
    }
    const controller = new AbortController();
    current = controller;
    let response: Response;
    try {
      response = await api.openEvents(
        { ticket, ...(sessionKey !== undefined ? { sessionKey } : {}) },
        sessionKey !== undefined ? lastEventId : undefined,
        controller.signal,
      );
    } catch (error) {
      current = null;
      if (!(error instanceof ServerError)) streamFailures += 1;
      const delay = failure(error, 'stream');
      if (status.state === 'waiting') {
        await waitForLiveSession();
        return 'failed';
      }
      if (delay !== null) await pause(delay);
      return 'failed';
    }
    if (!response.body) {
      current = null;
      return 'failed';
    }
    failures = 0;
    streamFailures = 0;
    setStatus({ state: 'following', message: null });
    handlers.onConnected?.();

    let lastActivity = now();
    const watchdog = setInterval(
      () => {
        if (now() - lastActivity > watchdogMs) controller.abort(new Error('no heartbeat'));
      },
      Math.min(5_000, watchdogMs),
    );
    watchdog.unref?.();
    const sessionCheck = setInterval(() => {
      void api.liveState(token).then(
        (answer) => {
          if (sessionKey !== undefined && answer.sessionKey !== sessionKey) {
            // Another session went live (the next one of the weekend): follow it instead.
            sessionKey = undefined;
            lastEventId = undefined;
            controller.abort(new Error('new session'));
          }
        },
        () => undefined,
      );
    }, sessionCheckMs);
    sessionCheck.unref?.();

    let batch: { id: number; data: FlagEventData }[] = [];
    try {
      await readEventStream(response.body, {
        signal: controller.signal,
        onActivity: () => {
          lastActivity = now();
        },
        onEvent: (event) => {
          if (event.event === 'flag') {
            const parsed = FlagEventDataSchema.safeParse(safeJson(event.data));
            const id = Number(event.id);
            if (parsed.success && Number.isSafeInteger(id)) batch.push({ id, data: parsed.data });
          } else if (event.event === 'status') {
            const key = (safeJson(event.data) as { sessionKey?: unknown } | null)?.sessionKey;
            if (typeof key === 'number' && sessionKey === undefined) sessionKey = key;
          } else if (event.event === 'preferences') {
            handlers.onPreferences(safeJson(event.data));
          } else if (event.event === 'test') {
            const state = (safeJson(event.data) as { state?: unknown } | null)?.state;
            if (typeof state === 'string') handlers.onTest(state);
          } else if (event.event === 'unlinked') {
            const message = (safeJson(event.data) as { error?: unknown } | null)?.error;
            unlinked(typeof message === 'string' ? message : 'This companion was unlinked from its account.');
            controller.abort();
          }
        },
        onChunkEnd: () => {
          if (batch.length === 0) return;
          const taken = batch;
          batch = [];
          deliver(taken, now());
        },
      });
    } catch {
      // Aborted (watchdog, sleep, new session, stop) or the connection broke: reconnect below.
    } finally {
      clearInterval(watchdog);
      clearInterval(sessionCheck);
      current = null;
    }
    return 'ended';
  };

  const loop = (async () => {
    while (!stopped) {
      if (streamFailures >= attemptsBeforePolling) {
        await poll();
        continue;
      }
      const outcome = await runStream();
      if (stopped) break;
      if (outcome === 'ended') {
        setStatus({ state: 'reconnecting', message: 'Connection to the server lost: reconnecting.' });
        await pause(backoff());
      }
    }
  })();

  return {
    status: () => ({ ...status, sessionKey: sessionKey ?? null }),
    kick() {
      failures = 0;
      wake?.();
    },
    async stop() {
      if (!stopped) {
        stopped = true;
        setStatus({ state: 'stopped', message: null });
      }
      clearInterval(ticker);
      current?.abort();
      wake?.();
      await loop;
    },
  };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}
