import { LIVE_STREAM_SILENCE_MS } from '@flaglight/contract/limits';
import { POLL_INTERVAL_MS } from '@flaglight/core';
import { ApiError } from '../api/client';
import {
  fetchCentralizedStatus,
  fetchLiveState,
  parseFlagEventData,
  parseStatusEventData,
  requestStreamTicket,
  type CentralizedStatus,
  type FlagEvent,
  type LiveStateAnswer,
  type StatusEventData,
} from './live-api';
import { createFeedPolling } from './live-feed-polling';
import { createSingleTimer, createWatchdog, unlessSilent } from './live-feed-timers';

/** The stream's first reconnect waits this long, doubling up to STREAM_RETRY_MAX_MS. */
export const STREAM_RETRY_BASE_MS = 1_000;
/** Short enough that a page follows again within 10 s of the server answering again (decision 038). */
export const STREAM_RETRY_MAX_MS = 8_000;
/** A stream that never opens after this many tries is taken as unusable in this browser: poll instead. */
export const STREAM_ATTEMPTS_BEFORE_POLLING = 3;

export type FeedTransport = 'stream' | 'polling';

/**
 * Refusals that trying again will not cure soon: a sign-in gone, a trial ended, or the account's
 * streams all open (or its tickets spent). The feed stops and shows the server's words.
 */
export function isFinalRefusal(error: unknown): error is ApiError {
  return error instanceof ApiError && (error.code === 'unauthenticated' || isRefusalToShow(error));
}

/** A refusal whose own words the user needs (an ended trial, every stream open) rather than "try again". */
export function isRefusalToShow(error: unknown): error is ApiError {
  return error instanceof ApiError && (error.code === 'trial_expired' || error.code === 'rate_limited');
}

/** The stream's back-off after `failures` failed tries in a row (1, 2, 4, 8, 8 … s). */
export function streamRetryDelay(failures: number): number {
  return Math.min(STREAM_RETRY_MAX_MS, STREAM_RETRY_BASE_MS * 2 ** Math.max(0, failures - 1));
}

/** What the feed needs of the outside world; the defaults are the real API and EventSource. */
export interface LiveFeedDeps {
  requestTicket: (sessionKey?: number, signal?: AbortSignal) => Promise<string>;
  fetchState: (sessionKey?: number, signal?: AbortSignal) => Promise<LiveStateAnswer>;
  fetchCentralizedStatus: () => Promise<CentralizedStatus>;
  /** Null where the browser has no EventSource. */
  createEventSource: ((url: string) => EventSource) | null;
}

export const defaultLiveFeedDeps = (): LiveFeedDeps => ({
  requestTicket: (sessionKey, signal) => requestStreamTicket(sessionKey, signal),
  fetchState: (sessionKey, signal) => fetchLiveState(sessionKey, signal),
  fetchCentralizedStatus,
  createEventSource:
    typeof window !== 'undefined' && typeof window.EventSource === 'function'
      ? (url) => new window.EventSource(url)
      : null,
});

export interface LiveFeedHandlers {
  /** The first time the feed delivers (stream open, or first successful poll); carries the session key. */
  onConnected(info: { sessionKey: number; transport: FeedTransport }): void;
  onFlag(event: FlagEvent): void;
  onStatus(status: StatusEventData): void;
  onTransport(transport: FeedTransport): void;
  /** The account's preferences changed (another page or a companion): the raw `preferences` event data. */
  onPreferences?(data: unknown): void;
  /** A companion's lights or presence changed: the device list is worth reading again. */
  onDevices?(): void;
  /**
   * After onConnected: the server went out of reach (false: the stream broke or said nothing for
   * LIVE_STREAM_SILENCE_MS, or a poll got no answer) or answers again (true). The feed keeps trying.
   */
  onReachable?(reachable: boolean): void;
  /** Connecting failed before anything was delivered; the feed has stopped. */
  onFailed(error: Error): void;
}

export interface LiveFeed {
  stop(): void;
}

/** What a stream's events go to, while `es` is still the feed's stream. */
interface StreamSink {
  isCurrent(): boolean;
  /** Any event, heartbeats included: the server is there. */
  heard(): void;
  deliver(event: FlagEvent): void;
  handlers: LiveFeedHandlers;
}

function listenToStream(es: EventSource, sink: StreamSink): void {
  const { handlers } = sink;
  for (const type of ['flag', 'status', 'preferences', 'devices', 'heartbeat']) {
    es.addEventListener(type, () => {
      if (sink.isCurrent()) sink.heard();
    });
  }
  es.addEventListener('flag', (message) => {
    if (!sink.isCurrent()) return;
    const { data, lastEventId: idText } = message as MessageEvent<string>;
    const id = Number(idText);
    let parsed: unknown;
    try {
      parsed = JSON.parse(data);
    } catch {
      return;
    }
    const flag = parseFlagEventData(parsed);
    if (flag && Number.isFinite(id)) sink.deliver({ id, data: flag });
  });
  es.addEventListener('status', (message) => {
    if (!sink.isCurrent()) return;
    try {
      const status = parseStatusEventData(JSON.parse((message as MessageEvent<string>).data));
      if (status) handlers.onStatus(status);
    } catch {
      // A torn status line: the next one will do.
    }
  });
  es.addEventListener('preferences', (message) => {
    if (!sink.isCurrent()) return;
    try {
      handlers.onPreferences?.(JSON.parse((message as MessageEvent<string>).data));
    } catch {
      // A torn line: the next change, or the next sign-in, brings them.
    }
  });
  es.addEventListener('devices', () => {
    if (sink.isCurrent()) handlers.onDevices?.();
  });
}

/** The stream's address: a single-use ticket, the pinned session and where to resume. */
function liveEventsUrl(
  ticket: string,
  sessionKey: number | undefined,
  lastEventId: number | undefined,
): string {
  const params = new URLSearchParams({ ticket });
  if (sessionKey !== undefined) params.set('sessionKey', String(sessionKey));
  if (lastEventId !== undefined) params.set('lastEventId', String(lastEventId));
  return `/api/live/events?${params.toString()}`;
}

/**
 * The session's state now and whether central polling runs (taken as on when that cannot be read).
 * Fails fast with the server's reason ('No live session found').
 */
function fetchStartState(deps: LiveFeedDeps, sessionKey: number | undefined) {
  return Promise.all([
    deps.fetchState(sessionKey),
    deps.fetchCentralizedStatus().catch(() => ({ centralizedPollingEnabled: true, isPollingActive: true })),
  ]);
}

/**
 * Follows a session (the live one when `sessionKey` is undefined) through the server's event stream
 * (DESIGN §5.4). A ticket is single use, so EventSource's own reconnect cannot work: on an error the
 * stream is closed and reopened with a new ticket and the last event id, with back-off, so nothing is
 * missed. When central polling is off, or the stream never opens in this browser, it polls
 * `/api/live/state` instead (SPEC §4 Polling). A stream that says nothing (no event, no heartbeat)
 * for LIVE_STREAM_SILENCE_MS is taken as dead like one that errs; either, or a poll the server does
 * not answer, is reported through `onReachable` until the server answers again.
 */
export function startLiveFeed(
  sessionKey: number | undefined,
  handlers: LiveFeedHandlers,
  deps: LiveFeedDeps = defaultLiveFeedDeps(),
): LiveFeed {
  let stopped = false;
  let connected = false;
  let resolvedKey = sessionKey;
  let lastEventId: number | undefined;
  let source: EventSource | null = null;
  let streamFailures = 0;
  let streamEverOpened = false;
  let reachable = true;
  const watchdog = createWatchdog(LIVE_STREAM_SILENCE_MS);
  const timer = createSingleTimer(() => stopped);
  const later = timer.later;

  const markConnected = (transport: FeedTransport) => {
    if (connected) return;
    connected = true;
    handlers.onConnected({ sessionKey: resolvedKey ?? 0, transport });
  };

  const setReachable = (value: boolean) => {
    if (!connected || stopped || reachable === value) return;
    reachable = value;
    handlers.onReachable?.(value);
  };

  /** The stream `es` said something: it is alive for another LIVE_STREAM_SILENCE_MS. */
  const heard = (es: EventSource) =>
    // A dead server behind a live connection (sleep, a lost network, a hung process) errs only
    // after minutes, if ever: silence is the sign.
    watchdog.restart(() => {
      if (source === es && !stopped) streamFailed();
    });

  const deliver = (event: FlagEvent) => {
    // Resume may repeat what was seen; ids only grow.
    if (lastEventId !== undefined && event.id <= lastEventId) return;
    lastEventId = event.id;
    handlers.onFlag(event);
  };

  const fail = (error: unknown) => {
    if (stopped) return;
    stop();
    handlers.onFailed(error instanceof Error ? error : new Error(String(error)));
  };

  function closeSource() {
    watchdog.stop();
    if (!source) return;
    source.close();
    source = null;
  }

  function streamFailed() {
    closeSource();
    setReachable(false);
    streamFailures += 1;
    if (!streamEverOpened && streamFailures >= STREAM_ATTEMPTS_BEFORE_POLLING) {
      handlers.onTransport('polling');
      poll(0);
      return;
    }
    later(() => void openStream(), streamRetryDelay(streamFailures));
  }

  async function openStream() {
    const create = deps.createEventSource;
    if (!create) return;
    let ticket: string;
    try {
      ticket = await unlessSilent((signal) => deps.requestTicket(resolvedKey, signal));
    } catch (error) {
      if (stopped) return;
      // Not retried in a loop: the server's reason is shown (e.g. 10 streams already open).
      if (isFinalRefusal(error)) return fail(error);
      if (!connected && streamFailures + 1 >= STREAM_ATTEMPTS_BEFORE_POLLING) return fail(error);
      streamFailures += 1;
      later(() => void openStream(), streamRetryDelay(streamFailures));
      return;
    }
    if (stopped) return;
    const es = create(liveEventsUrl(ticket, resolvedKey, lastEventId));
    source = es;
    // A server that takes the connection but never answers leaves an EventSource waiting for ever.
    heard(es);
    es.onopen = () => {
      if (source !== es) return;
      heard(es);
      streamFailures = 0;
      streamEverOpened = true;
      handlers.onTransport('stream');
      markConnected('stream');
      setReachable(true);
    };
    es.onerror = () => {
      if (source !== es || stopped) return;
      streamFailed();
    };
    listenToStream(es, { isCurrent: () => source === es, heard: () => heard(es), deliver, handlers });
  }

  const { poll } = createFeedPolling({
    fetchState: deps.fetchState,
    onStatus: (status) => handlers.onStatus(status),
    isStopped: () => stopped,
    sessionKey: () => resolvedKey,
    pinSessionKey: (key) => (resolvedKey ??= key),
    markConnected: () => markConnected('polling'),
    setReachable,
    deliver,
    fail,
    later,
  });

  function stop() {
    stopped = true;
    timer.clear();
    closeSource();
  }

  void (async () => {
    try {
      // Pins the session key, so every reconnect follows the same session.
      const [state, central] = await fetchStartState(deps, sessionKey);
      if (stopped) return;
      resolvedKey = state.sessionKey;
      if (!central.centralizedPollingEnabled || !deps.createEventSource) {
        // No central path (or no EventSource here): this client polls on its own.
        handlers.onTransport('polling');
        markConnected('polling');
        if (state.upstream) handlers.onStatus(state.upstream);
        if (state.event) deliver(state.event);
        poll(POLL_INTERVAL_MS);
        return;
      }
      await openStream();
    } catch (error) {
      fail(error);
    }
  })();

  return { stop };
}
