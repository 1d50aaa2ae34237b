// What a failed call to the server means for the follower: unlinked, no live session, refused for a
// while, rate limited, or the server away (back off and try again).
import { ServerError, UnreachableError, describe } from '../link/server-api.js';
import { backoff, forgetSession, setStatus, unlinked, type FollowerContext } from './follower-context.js';

/** The server's refusals that waiting a while may cure (an ended trial bought, streams closed). */
export const REFUSAL_RETRY_MS = 5 * 60_000;
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
      setStatus(ctx, { state: 'refused', message: error.message });
      return REFUSAL_RETRY_MS;
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
