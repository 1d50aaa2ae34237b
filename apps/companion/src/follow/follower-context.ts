// The follower's running state, shared by its stream, its polling and its sleep check, and the small
// moves they all make on it: a status told, a pause that a kick cuts short, the back-off, the flags
// delivered once each.
import type { FlagEventData } from '@flaglight/core';
import type { ServerApi } from '../link/server-api.js';
import type { DeliveredFlag, FollowerHandlers, FollowerOptions, FollowerStatus } from './follower-types.js';

export interface FollowerTiming {
  retryBase: number;
  retryMax: number;
  watchdogMs: number;
  sessionCheckMs: number;
  idleCheckMs: number;
  sleepGapMs: number;
  tickMs: number;
  attemptsBeforePolling: number;
  refusalRetryMs: number;
  refusalFastForMs: number;
  refusalSlowRetryMs: number;
}

export interface FollowerContext {
  readonly api: ServerApi;
  readonly token: string;
  readonly handlers: FollowerHandlers;
  readonly now: () => number;
  readonly timing: FollowerTiming;
  stopped: boolean;
  status: FollowerStatus;
  sessionKey: number | undefined;
  lastEventId: number | undefined;
  /** The server's clock less this one's, to whole seconds. */
  clockOffsetMs: number;
  failures: number;
  streamFailures: number;
  /** When the account's refusal began (an ended trial), while it lasts. */
  refusedSince: number | null;
  /** The open stream's connection, aborted by the sleep check and by stop. */
  current: AbortController | null;
  /** Ends the pause under way now (kicked, woken, stopped). */
  wake: (() => void) | null;
}

export function createFollowerContext(options: FollowerOptions): FollowerContext {
  return {
    api: options.api,
    token: options.token,
    handlers: options.handlers,
    now: options.now ?? Date.now,
    timing: {
      retryBase: options.retryBaseMs ?? 1_000,
      retryMax: options.retryMaxMs ?? 30_000,
      watchdogMs: options.watchdogMs ?? 45_000,
      sessionCheckMs: options.sessionCheckMs ?? 30_000,
      idleCheckMs: options.idleCheckMs ?? 30_000,
      sleepGapMs: options.sleepGapMs ?? 20_000,
      tickMs: options.tickMs ?? 5_000,
      attemptsBeforePolling: options.streamAttemptsBeforePolling ?? 3,
      refusalRetryMs: options.refusalRetryMs ?? 30_000,
      refusalFastForMs: options.refusalFastForMs ?? 10 * 60_000,
      refusalSlowRetryMs: options.refusalSlowRetryMs ?? 5 * 60_000,
    },
    stopped: false,
    status: { state: 'connecting', sessionKey: null, message: null, lastEventAt: null },
    sessionKey: undefined,
    lastEventId: undefined,
    clockOffsetMs: 0,
    failures: 0,
    streamFailures: 0,
    refusedSince: null,
    current: null,
    wake: null,
  };
}

export function setStatus(ctx: FollowerContext, change: Partial<FollowerStatus>): void {
  if (change.state !== undefined && change.state !== 'refused') ctx.refusedSince = null;
  ctx.status = { ...ctx.status, ...change, sessionKey: ctx.sessionKey ?? null };
  ctx.handlers.onStatus(ctx.status);
}

/** The session followed is over (or another one went live): its ids no longer count. */
export function forgetSession(ctx: FollowerContext): void {
  ctx.sessionKey = undefined;
  ctx.lastEventId = undefined;
}

/** Waits `ms`, or less when kicked or stopped. */
export function pause(ctx: FollowerContext, ms: number): Promise<void> {
  return new Promise<void>((resolve) => {
    const handle = setTimeout(done, ms);
    function done() {
      clearTimeout(handle);
      ctx.wake = null;
      resolve();
    }
    ctx.wake = done;
  });
}

/** Reconnect back-off: 1, 2, 4 … 30 s, with jitter. */
export function backoff(ctx: FollowerContext): number {
  ctx.failures += 1;
  const { retryBase, retryMax } = ctx.timing;
  const base = Math.min(retryMax, retryBase * 2 ** Math.max(0, ctx.failures - 1));
  return base / 2 + Math.random() * (base / 2);
}

/** Hands on the flags not delivered yet (a resume may repeat some), each with its age by the server's clock. */
export function deliver(
  ctx: FollowerContext,
  batch: { id: number; data: FlagEventData }[],
  receivedAt: number,
): void {
  const fresh: DeliveredFlag[] = [];
  for (const event of batch) {
    if (event.data.sessionKey !== ctx.sessionKey) {
      // A new session: its ids start their own count.
      ctx.sessionKey = event.data.sessionKey;
      ctx.lastEventId = undefined;
    }
    if (ctx.lastEventId !== undefined && event.id <= ctx.lastEventId) continue;
    ctx.lastEventId = event.id;
    const emitted = Date.parse(event.data.emittedAt);
    const ageMs = Number.isFinite(emitted) ? Math.max(0, receivedAt + ctx.clockOffsetMs - emitted) : 0;
    fresh.push({ id: event.id, data: event.data, receivedAt, ageMs });
  }
  if (fresh.length > 0) {
    setStatus(ctx, { lastEventAt: receivedAt });
    ctx.handlers.onFlags(fresh);
  }
}

export function unlinked(ctx: FollowerContext, message: string): void {
  ctx.stopped = true;
  setStatus(ctx, { state: 'unlinked', message });
  ctx.handlers.onUnlinked(message);
}
