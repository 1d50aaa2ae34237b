// The follower without its stream: waiting for a live session to start, and polling
// `/api/live/state` when the stream cannot be opened from this network.
import { nextPollDelay } from '@flaglight/core';
import { ServerError, UnreachableError } from '../link/server-api.js';
import {
  deliver,
  forgetSession,
  pause,
  setStatus,
  unlinked,
  type FollowerContext,
} from './follower-context.js';
import {
  connectionLost,
  handleFailure,
  NO_LIVE_SESSION,
  POLL_BEFORE_STREAM_RETRY_MS,
} from './follower-failure.js';

/** Asks until a session is live (its current flag delivered), the companion is unlinked, or it stops. */
export async function waitForLiveSession(ctx: FollowerContext): Promise<void> {
  while (!ctx.stopped) {
    try {
      const answer = await ctx.api.liveState(ctx.token);
      if (answer.flag) deliver(ctx, [{ id: answer.id ?? 0, data: answer.flag }], ctx.now());
      return;
    } catch (error) {
      if (error instanceof ServerError && error.status === 404) {
        setStatus(ctx, { state: 'waiting', message: NO_LIVE_SESSION });
        await pause(ctx, ctx.timing.idleCheckMs);
        continue;
      }
      const delay = handleFailure(ctx, error, 'ticket');
      if (delay === null) return;
      await pause(ctx, delay);
    }
  }
}

function polling(ctx: FollowerContext): void {
  setStatus(ctx, {
    state: 'polling',
    message: 'The live stream cannot be opened from here: checking every few seconds.',
  });
}

/** Polls the live state for a while, then leaves the stream to be tried again. */
export async function poll(ctx: FollowerContext): Promise<void> {
  polling(ctx);
  let errors = 0;
  const until = ctx.now() + POLL_BEFORE_STREAM_RETRY_MS;
  while (!ctx.stopped && ctx.now() < until) {
    try {
      const answer = await ctx.api.liveState(ctx.token, ctx.sessionKey);
      errors = 0;
      if (ctx.status.state === 'reconnecting') polling(ctx);
      if (answer.flag) deliver(ctx, [{ id: answer.id ?? 0, data: answer.flag }], ctx.now());
      else ctx.sessionKey = answer.sessionKey;
    } catch (error) {
      if (error instanceof ServerError && error.status === 404) {
        forgetSession(ctx);
        await waitForLiveSession(ctx);
        continue;
      }
      if (error instanceof ServerError && error.status === 401) {
        unlinked(ctx, error.message);
        return;
      }
      errors += 1;
      // The server itself is away (network, 5xx), as the stream would say: the F1 fallback counts on it.
      if (error instanceof UnreachableError || (error instanceof ServerError && error.status >= 500))
        setStatus(ctx, { state: 'reconnecting', message: connectionLost(error) });
    }
    await pause(ctx, nextPollDelay(errors > 0 ? 'error' : 'ok', errors));
  }
  // Try the stream again now and then: the network that blocked it may have changed.
  ctx.streamFailures = 0;
}
