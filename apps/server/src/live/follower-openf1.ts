// A live follower's OpenF1 side: the race-control history once, then the push feed when
// credentials allow, otherwise REST polling of `date>` the newest record seen; when the push
// drops, polling starts at once with a catch-up poll, so nothing is missed in between.
import { nextPollDelay, POLL_INTERVAL_MS } from '@flaglight/core';
import type { OpenF1Result } from '../openf1/client.js';
import type { TimerHandle } from './clock.js';
import type { SessionDeriver } from './deriver.js';
import type { LiveFollowerOptions, SourceHealth } from './follower-options.js';
import type { PushConnection } from './push.js';
import type { StatusEventData } from './types.js';

/** Wait before trying the push connection again after it dropped or was refused. */
export const PUSH_RETRY_MS = 15_000;

/** What following OpenF1 holds between polls and push messages. */
interface OpenF1Follow {
  readonly options: LiveFollowerOptions;
  readonly deriver: SessionDeriver;
  readonly canPush: boolean;
  readonly health: SourceHealth;
  stopped: boolean;
  pollTimer: TimerHandle | null;
  pushTimer: TimerHandle | null;
  push: PushConnection | null;
  pushReady: boolean;
  polling: boolean;
  /** Push records that arrive while a poll is in flight wait here, so records apply oldest first. */
  queued: unknown[] | null;
  consecutiveErrors: number;
  /** OpenF1's first good answer is its account of the session so far. */
  awaitingHistory: boolean;
}

export function followOpenF1(options: LiveFollowerOptions, deriver: SessionDeriver) {
  const { client } = options;
  const s: OpenF1Follow = {
    options,
    deriver,
    canPush: Boolean(options.connectPush && client.pushUrl && client.hasCredentials),
    health: { healthy: null, lastMessageAt: null, error: null },
    stopped: false,
    pollTimer: null,
    pushTimer: null,
    push: null,
    pushReady: false,
    polling: false,
    queued: null,
    consecutiveErrors: 0,
    awaitingHistory: true,
  };
  return {
    canPush: s.canPush,
    transport: () => transportOf(s),
    health: (): SourceHealth => ({ ...s.health }),
    start: () => void poll(s),
    stop(): void {
      s.stopped = true;
      const { timers } = options;
      if (s.pollTimer) timers.clearTimeout(s.pollTimer);
      if (s.pushTimer) timers.clearTimeout(s.pushTimer);
      s.push?.close();
      s.push = null;
    },
  };
}

const transportOf = (s: OpenF1Follow): StatusEventData['transport'] => (s.pushReady ? 'push' : 'polling');

function racePath(s: OpenF1Follow): string {
  const base = `/v1/race_control?session_key=${s.options.sessionKey}`;
  const { lastSeen } = s.deriver;
  return lastSeen ? `${base}&${encodeURIComponent(`date>${lastSeen.text}`)}` : base;
}

function schedulePoll(s: OpenF1Follow, ms: number): void {
  if (s.stopped || s.pushReady) return;
  const { timers } = s.options;
  if (s.pollTimer) timers.clearTimeout(s.pollTimer);
  s.pollTimer = timers.setTimeout(() => {
    s.pollTimer = null;
    return poll(s);
  }, ms);
}

/** Records an answer in OpenF1's health and the session's status. */
function report(s: OpenF1Follow, result: OpenF1Result): 'ok' | 'rate-limited' | 'error' {
  const { health, deriver } = s;
  if (result.ok) {
    s.consecutiveErrors = 0;
    health.healthy = true;
    health.lastMessageAt = s.options.timers.now();
    health.error = null;
    deriver.setStatus('ok', transportOf(s), null);
    return 'ok';
  }
  s.consecutiveErrors += 1;
  health.healthy = false;
  health.error = result.message;
  const upstream =
    result.kind === 'rate-limited'
      ? 'rate-limited'
      : result.kind === 'unauthorized'
        ? 'unauthorized'
        : 'error';
  deriver.setStatus(upstream, transportOf(s), result.message);
  s.options.logger?.warn(
    { sessionKey: s.options.sessionKey, kind: result.kind, consecutiveErrors: s.consecutiveErrors },
    'OpenF1 poll failed',
  );
  return result.kind === 'rate-limited' ? 'rate-limited' : 'error';
}

/** Asks for the records after the last seen; push records that came meanwhile follow them. */
async function fetchRecords(
  s: OpenF1Follow,
): Promise<{ result: OpenF1Result<unknown[]>; records: unknown[] } | null> {
  const result = await s.options.client.get<unknown[]>(racePath(s));
  const late = s.queued ?? [];
  s.queued = null;
  if (s.stopped) return null;
  const records = result.ok && Array.isArray(result.data) ? result.data : [];
  return { result, records: [...records, ...late] };
}

/** Applies a good answer: the history on the first, only what is new after it. */
function applyRecords(s: OpenF1Follow, records: unknown[]): void {
  const { deriver } = s;
  if (!deriver.snapshotPublished) {
    deriver.applyHistory(records);
  } else if (s.awaitingHistory) {
    // F1 live timing told the session first: OpenF1's history pairs with what it told.
    deriver.reconcile(records, 'openf1');
  } else {
    deriver.ingest(records);
    return;
  }
  s.awaitingHistory = false;
  if (s.canPush) connectPush(s);
}

/** One REST poll: the history on the first success, then only records newer than the last seen. */
async function poll(s: OpenF1Follow): Promise<void> {
  if (s.stopped || s.polling) return;
  s.polling = true;
  s.queued = [];
  let outcome: 'ok' | 'rate-limited' | 'error';
  try {
    const fetched = await fetchRecords(s);
    if (!fetched) return;
    outcome = report(s, fetched.result);
    if (fetched.result.ok) applyRecords(s, fetched.records);
    else s.deriver.ingest(fetched.records);
  } catch (error) {
    // Never let one bad poll end the loop.
    s.options.logger?.error({ err: error, sessionKey: s.options.sessionKey }, 'poll failed unexpectedly');
    outcome = 'error';
  } finally {
    s.polling = false;
    s.queued = null;
  }
  schedulePoll(s, nextPollDelay(outcome, s.consecutiveErrors));
}

/** Records that showed between the last poll and the push subscription. */
async function catchUp(s: OpenF1Follow): Promise<void> {
  if (s.stopped || s.polling) return;
  s.polling = true;
  s.queued = [];
  try {
    const fetched = await fetchRecords(s);
    if (!fetched) return;
    report(s, fetched.result);
    s.deriver.ingest(fetched.records);
  } finally {
    s.polling = false;
    s.queued = null;
  }
  if (!s.pushReady) schedulePoll(s, POLL_INTERVAL_MS);
}

function connectPush(s: OpenF1Follow): void {
  const { client, connectPush: connector, timers } = s.options;
  if (s.stopped || s.push || !connector || !client.pushUrl) return;
  const url = client.pushUrl;
  void client.accessToken().then((token) => {
    if (s.stopped || s.push) return;
    if (!token) {
      s.pushTimer = timers.setTimeout(() => connectPush(s), PUSH_RETRY_MS);
      return;
    }
    s.push = connector(
      { url, username: client.username ?? 'flaglight', token },
      {
        onReady: () => onPushReady(s),
        onMessage(record) {
          if (s.stopped) return;
          s.health.lastMessageAt = timers.now();
          if (s.queued) s.queued.push(record);
          else s.deriver.ingest([record]);
        },
        onClosed: (reason) => onPushClosed(s, reason),
      },
    );
  });
}

function onPushReady(s: OpenF1Follow): void {
  if (s.stopped) return;
  s.pushReady = true;
  if (s.pollTimer) s.options.timers.clearTimeout(s.pollTimer);
  s.pollTimer = null;
  s.deriver.setStatus('ok', 'push', null);
  // Records that showed between the last poll and the subscription: one catch-up poll.
  if (!s.polling) void catchUp(s);
}

function onPushClosed(s: OpenF1Follow, reason: string): void {
  s.push = null;
  if (s.stopped) return;
  const { deriver, options } = s;
  const wasReady = s.pushReady;
  s.pushReady = false;
  options.logger?.info({ sessionKey: options.sessionKey, reason }, 'OpenF1 push closed; polling');
  deriver.setStatus(deriver.currentStatus().upstream, 'polling', deriver.currentStatus().message);
  // Polling takes over at once (a catch-up poll), then every interval until push is back.
  if (wasReady && !s.polling) void poll(s);
  else if (!s.polling && !s.pollTimer) schedulePoll(s, POLL_INTERVAL_MS);
  s.pushTimer = options.timers.setTimeout(() => connectPush(s), PUSH_RETRY_MS);
}
