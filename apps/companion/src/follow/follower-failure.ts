// What a failed call to the server means for the follower: unlinked, no live session, refused for a
// while, rate limited, or the server away (back off and try again).
import { ServerError, UnreachableError, describe } from '../link/server-api.js';
import { backoff, forgetSession, setStatus, unlinked, type FollowerContext } from './follower-context.js';

/** How long the follower polls the live state before it tries the stream again. */
export const POLL_BEFORE_STREAM_RETRY_MS = 5 * 60_000;

/**
 * The wait before asking again after the account refused (an ended trial): short at first, since a
 * fan who sees the refusal often pays at once (and the companion should light up within the minute),
 * then longer.
 */
export function refusalRetryMs(
  timing: { refusalRetryMs: number; refusalFastForMs: number; refusalSlowRetryMs: number },
  refusedForMs: number,
): number {
  return refusedForMs < timing.refusalFastForMs ? timing.refusalRetryMs : timing.refusalSlowRetryMs;
}
const RATE_LIMIT_RETRY_MS = 60_000;

export const NO_LIVE_SESSION = 'No live session right now: waiting for the next one.';

/** The message of a server that is away (network, 5xx). */
export function connectionLost(error: unknown): string {
  return error instanceof UnreachableError ? error.message : `Connection lost: ${describe(error)}`;
}

/** Handles a failed call; returns how long to wait before the next try, or null to stop. */
export function handleFailure(
  ctx: FollowerContext,
  error: unknown,
  during: 'ticket' | 'stream',
): number | null {
  if (error instanceof ServerError) {
    if (error.status === 401 && (during === 'ticket' || /unlinked/i.test(error.message))) {
      unlinked(ctx, error.message);
      return null;
    }
    if (error.status === 404 && during === 'stream') {
      // No live session now: nothing to follow until one starts.
      forgetSession(ctx);
      ctx.failures = 0;
      setStatus(ctx, { state: 'waiting', message: NO_LIVE_SESSION });
      return ctx.timing.idleCheckMs;
    }
    if (error.status === 403 && during === 'stream') {
      // A ticket for a session that is no longer live.
      forgetSession(ctx);
      return 0;
    }
    if (error.status === 403) {
      const since = ctx.refusedSince ?? ctx.now();
      setStatus(ctx, { state: 'refused', message: error.message });
      ctx.refusedSince = since;
      return refusalRetryMs(ctx.timing, ctx.now() - since);
    }
    if (error.status === 429) {
      setStatus(ctx, { state: 'refused', message: error.message });
      return RATE_LIMIT_RETRY_MS;
    }
    if (error.status === 401) return backoff(ctx);
  }
  setStatus(ctx, { state: 'reconnecting', message: connectionLost(error) });
  return backoff(ctx);
}
