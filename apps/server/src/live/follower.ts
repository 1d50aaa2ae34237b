import { nextPollDelay, POLL_INTERVAL_MS } from '@flaglight/core';
import type { Logger } from 'pino';
import type { OpenF1Client, OpenF1Result } from '../openf1/client.js';
import type { Bus } from './bus.js';
import type { TimerHandle, Timers } from './clock.js';
import { SessionDeriver } from './deriver.js';
import type { PushConnection, PushConnector } from './push.js';
import type { FlagEventData, StatusEventData } from './types.js';

/** Wait before trying the push connection again after it dropped or was refused. */
export const PUSH_RETRY_MS = 15_000;

export interface Follower {
  readonly sessionKey: number;
  transport(): StatusEventData['transport'];
  status(): StatusEventData;
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
}

/**
 * Follows one live session (DESIGN §1, §4): the whole race-control history once, then the push
 * feed when credentials allow, otherwise REST polling of `date>` the newest record seen. When the
 * push drops, polling starts at once with a catch-up poll, so nothing is missed in between.
 */
export function startLiveFollower(options: LiveFollowerOptions): Follower {
  const { sessionKey, client, bus, timers } = options;
  const deriver = new SessionDeriver(sessionKey, bus, timers.now, options.lastId ?? 0, options.known ?? null);
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
      deriver.setStatus('ok', transport(), null);
      return 'ok';
    }
    consecutiveErrors += 1;
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

  deriver.setStatus('starting', canPush ? 'push' : 'polling', null);
  void poll();

  return {
    sessionKey,
    transport,
    status: () => deriver.currentStatus(),
    stop() {
      stopped = true;
      if (pollTimer) timers.clearTimeout(pollTimer);
      if (pushTimer) timers.clearTimeout(pushTimer);
      push?.close();
      push = null;
      deriver.setStatus(deriver.currentStatus().upstream, 'none', null);
    },
  };
}
