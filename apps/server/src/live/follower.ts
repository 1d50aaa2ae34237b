import { nextPollDelay, POLL_INTERVAL_MS } from '@flaglight/core';
import type { Logger } from 'pino';
import type { OpenF1Client, OpenF1Result } from '../openf1/client.js';
import type { Bus } from './bus.js';
import type { TimerHandle, Timers } from './clock.js';
import { SessionDeriver } from './deriver.js';
import type { F1Feed, F1FeedEvent } from './f1-feed.js';
import type { PushConnection, PushConnector } from './push.js';
import type { FlagEventData, StatusEventData } from './types.js';

/** Wait before trying the push connection again after it dropped or was refused. */
export const PUSH_RETRY_MS = 15_000;

/** How one live source is doing for this follower. */
export interface SourceHealth {
  /** null until the source has answered once. */
  healthy: boolean | null;
  /** Clock (ms) of the last message or good answer; null before any. */
  lastMessageAt: number | null;
  error: string | null;
}

export interface Follower {
  readonly sessionKey: number;
  transport(): StatusEventData['transport'];
  status(): StatusEventData;
  /** OpenF1's health as this follower sees it (its polls and push); live followers only. */
  openf1?(): SourceHealth;
  stop(): void;
}

export interface LiveFollowerOptions {
  sessionKey: number;
  client: OpenF1Client;
  bus: Bus;
  timers: Timers;
  logger?: Logger;
  /** The push feed; without it (or without credentials) the follower only polls. */
  connectPush?: PushConnector | undefined;
  /** Highest event id this session has used, so ids keep increasing across restarts. */
  lastId?: number;
  /** The state subscribers already have (from a follower before this one, maybe on another instance). */
  known?: FlagEventData | null;
  /** The instance's F1 live-timing connection: the second source, preferred while healthy. */
  f1?: F1Feed | undefined;
}

/**
 * Follows one live session (DESIGN §1, §4) from its sources (decision 021). OpenF1: the whole
 * race-control history once, then the push feed when credentials allow, otherwise REST polling of
 * `date>` the newest record seen; when the push drops, polling starts at once with a catch-up poll,
 * so nothing is missed in between. F1 live timing (when the instance has it): its state of the
 * session when it is healthy, then its TrackStatus, SessionStatus and race control as they come;
 * when it fails, the track-wide state goes back to race control (which OpenF1 keeps bringing),
 * and when it is back, its TrackStatus leads again. One fusion takes both; each message counts once.
 */
export function startLiveFollower(options: LiveFollowerOptions): Follower {
  const { sessionKey, client, bus, timers } = options;
  const deriver = new SessionDeriver(
    sessionKey,
    bus,
    timers.now,
    options.lastId ?? 0,
    options.known ?? null,
    timers,
  );
  let stopped = false;
  let pollTimer: TimerHandle | null = null;
  let pushTimer: TimerHandle | null = null;
  let push: PushConnection | null = null;
  let pushReady = false;
  let polling = false;
  /** Push records that arrive while a poll is in flight wait here, so records apply oldest first. */
  let queued: unknown[] | null = null;
  let consecutiveErrors = 0;
  const canPush = Boolean(options.connectPush && client.pushUrl && client.hasCredentials);
  const openf1: SourceHealth = { healthy: null, lastMessageAt: null, error: null };
  /** OpenF1's first good answer is its account of the session so far. */
  let openf1History = true;
  const f1 = options.f1;
  /** F1 live timing is healthy and on this session: its lines go into the fusion. */
  let f1Attached = false;

  const transport = (): StatusEventData['transport'] => (pushReady ? 'push' : 'polling');

  function path(): string {
    const base = `/v1/race_control?session_key=${sessionKey}`;
    return deriver.lastSeen ? `${base}&${encodeURIComponent(`date>${deriver.lastSeen.text}`)}` : base;
  }

  function schedulePoll(ms: number): void {
    if (stopped || pushReady) return;
    if (pollTimer) timers.clearTimeout(pollTimer);
    pollTimer = timers.setTimeout(() => {
      pollTimer = null;
      return poll();
    }, ms);
  }

  function report(result: OpenF1Result): 'ok' | 'rate-limited' | 'error' {
    if (result.ok) {
      consecutiveErrors = 0;
      openf1.healthy = true;
      openf1.lastMessageAt = timers.now();
      openf1.error = null;
      deriver.setStatus('ok', transport(), null);
      return 'ok';
    }
    consecutiveErrors += 1;
    openf1.healthy = false;
    openf1.error = result.message;
    const upstream =
      result.kind === 'rate-limited'
        ? 'rate-limited'
        : result.kind === 'unauthorized'
          ? 'unauthorized'
          : 'error';
    deriver.setStatus(upstream, transport(), result.message);
    options.logger?.warn({ sessionKey, kind: result.kind, consecutiveErrors }, 'OpenF1 poll failed');
    return result.kind === 'rate-limited' ? 'rate-limited' : 'error';
  }

  /** One REST poll: the history on the first success, then only records newer than the last seen. */
  async function poll(): Promise<void> {
    if (stopped || polling) return;
    polling = true;
    queued = [];
    let outcome: 'ok' | 'rate-limited' | 'error';
    try {
      const result = await client.get<unknown[]>(path());
      if (stopped) return;
      outcome = report(result);
      const records = result.ok && Array.isArray(result.data) ? result.data : [];
      const late = queued;
      queued = null;
      if (result.ok && !deriver.snapshotPublished) {
        deriver.applyHistory([...records, ...late]);
        openf1History = false;
        if (canPush) connectPush();
      } else if (result.ok && openf1History) {
        // F1 live timing told the session first: OpenF1's history pairs with what it told.
        deriver.reconcile([...records, ...late], 'openf1');
        openf1History = false;
        if (canPush) connectPush();
      } else {
        deriver.ingest([...records, ...late]);
      }
    } catch (error) {
      // Never let one bad poll end the loop.
      options.logger?.error({ err: error, sessionKey }, 'poll failed unexpectedly');
      outcome = 'error';
    } finally {
      polling = false;
      queued = null;
    }
    schedulePoll(nextPollDelay(outcome, consecutiveErrors));
  }

  function connectPush(): void {
    if (stopped || push || !options.connectPush || !client.pushUrl) return;
    const connector = options.connectPush;
    const url = client.pushUrl;
    void client.accessToken().then((token) => {
      if (stopped || push) return;
      if (!token) {
        pushTimer = timers.setTimeout(connectPush, PUSH_RETRY_MS);
        return;
      }
      push = connector(
        { url, username: client.username ?? 'flaglight', token },
        {
          onReady() {
            if (stopped) return;
            pushReady = true;
            if (pollTimer) timers.clearTimeout(pollTimer);
            pollTimer = null;
            deriver.setStatus('ok', 'push', null);
            // Records that showed between the last poll and the subscription: one catch-up poll.
            if (!polling) void catchUp();
          },
          onMessage(record) {
            if (stopped) return;
            openf1.lastMessageAt = timers.now();
            if (queued) queued.push(record);
            else deriver.ingest([record]);
          },
          onClosed(reason) {
            push = null;
            if (stopped) return;
            const wasReady = pushReady;
            pushReady = false;
            options.logger?.info({ sessionKey, reason }, 'OpenF1 push closed; polling');
            deriver.setStatus(deriver.currentStatus().upstream, 'polling', deriver.currentStatus().message);
            // Polling takes over at once (a catch-up poll), then every interval until push is back.
            if (wasReady && !polling) void poll();
            else if (!polling && !pollTimer) schedulePoll(POLL_INTERVAL_MS);
            pushTimer = timers.setTimeout(connectPush, PUSH_RETRY_MS);
          },
        },
      );
    });
  }

  async function catchUp(): Promise<void> {
    if (stopped || polling) return;
    polling = true;
    queued = [];
    try {
      const result = await client.get<unknown[]>(path());
      const late = queued;
      queued = null;
      if (stopped) return;
      report(result);
      deriver.ingest([...(result.ok && Array.isArray(result.data) ? result.data : []), ...late]);
    } finally {
      polling = false;
      queued = null;
    }
    if (!pushReady) schedulePoll(POLL_INTERVAL_MS);
  }

  /** F1 is healthy on this session: its account of the session so far joins the fusion. */
  function attachF1(): void {
    const state = f1?.sessionState(sessionKey);
    if (!state || f1Attached) return;
    f1Attached = true;
    const first = !deriver.snapshotPublished;
    deriver.reconcile(state.messages, 'f1-live-timing');
    // Race control first: TrackStatus is the newer word on the track-wide state.
    if (state.sessionStatus)
      deriver.pushFeed({ kind: 'session_status', status: { Status: state.sessionStatus } });
    if (state.trackStatus) deriver.pushFeed({ kind: 'track_status', status: state.trackStatus });
    if (first) deriver.publishSnapshot();
    options.logger?.info({ sessionKey }, 'following F1 live timing');
  }

  function detachF1(why: string): void {
    if (!f1Attached) return;
    f1Attached = false;
    deriver.pushFeed({ kind: 'track_status_lost' });
    options.logger?.warn({ sessionKey, why }, 'F1 live timing lost; race control from OpenF1 decides');
  }

  function onF1(event: F1FeedEvent): void {
    if (stopped) return;
    if (event.type === 'health') {
      if (event.health.healthy) attachF1();
      else detachF1(event.health.error ?? 'unhealthy');
      return;
    }
    if (event.sessionKey !== sessionKey) {
      detachF1(`the feed moved to session ${String(event.sessionKey)}`);
      return;
    }
    if (!f1Attached) {
      attachF1();
      return;
    }
    if (event.type === 'raceControl') {
      if (event.snapshot) deriver.reconcile([event.message], 'f1-live-timing');
      else deriver.ingest([event.message], 'f1-live-timing');
    } else if (event.type === 'trackStatus') {
      deriver.pushFeed({
        kind: 'track_status',
        status: { Status: event.event.status, Message: event.event.message ?? '' },
        ...(event.event.feedTime ? { date: event.event.feedTime } : {}),
      });
    } else {
      deriver.pushFeed({ kind: 'session_status', status: { Status: event.event.status } });
    }
  }

  const offF1 = f1?.subscribe(onF1);
  deriver.setStatus('starting', canPush ? 'push' : 'polling', null);
  attachF1();
  void poll();

  return {
    sessionKey,
    transport,
    status: () => deriver.currentStatus(),
    openf1: () => ({ ...openf1 }),
    stop() {
      stopped = true;
      offF1?.();
      if (pollTimer) timers.clearTimeout(pollTimer);
      if (pushTimer) timers.clearTimeout(pushTimer);
      push?.close();
      push = null;
      deriver.dispose();
      deriver.setStatus(deriver.currentStatus().upstream, 'none', null);
    },
  };
}
