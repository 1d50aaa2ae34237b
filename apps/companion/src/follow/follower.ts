import {
  backoff,
  createFollowerContext,
  pause,
  setStatus,
  type FollowerContext,
} from './follower-context.js';
import { poll } from './follower-poll.js';
import { runStream } from './follower-stream.js';
import type { Follower, FollowerOptions } from './follower-types.js';

export type {
  DeliveredFlag,
  Follower,
  FollowerHandlers,
  FollowerOptions,
  FollowerStatus,
  StreamState,
} from './follower-types.js';

/**
 * Follows the account's live session through the server's event stream with the device token
 * (DESIGN §5.4): a one-time ticket per connection, `Last-Event-ID` resume within a session, back-off
 * with jitter, a watchdog for dead connections, a jump when the computer wakes from sleep, polling
 * `/api/live/state` when the stream cannot be opened, and a switch to the next session when one goes
 * live. It never gives up while linked; only a 401 (unlinked) ends it.
 */
export function startFollower(options: FollowerOptions): Follower {
  const ctx = createFollowerContext(options);
  const ticker = watchForSleep(ctx);
  const loop = follow(ctx);
  return {
    status: () => ({ ...ctx.status, sessionKey: ctx.sessionKey ?? null }),
    kick() {
      ctx.failures = 0;
      ctx.wake?.();
    },
    async stop() {
      if (!ctx.stopped) {
        ctx.stopped = true;
        setStatus(ctx, { state: 'stopped', message: null });
      }
      clearInterval(ticker);
      ctx.current?.abort();
      ctx.wake?.();
      await loop;
    },
  };
}

/** Timers stop while the computer sleeps, so a tick arriving far too late means it woke up: reconnect at once. */
function watchForSleep(ctx: FollowerContext): NodeJS.Timeout {
  let lastTick = ctx.now();
  const ticker = setInterval(() => {
    const at = ctx.now();
    if (at - lastTick > ctx.timing.sleepGapMs) {
      ctx.failures = 0;
      ctx.current?.abort(new Error('woke from sleep'));
      ctx.wake?.();
    }
    lastTick = at;
  }, ctx.timing.tickMs);
  ticker.unref?.();
  return ticker;
}

/** The stream again and again (polling after repeated failures to open it) until stopped or unlinked. */
async function follow(ctx: FollowerContext): Promise<void> {
  while (!ctx.stopped) {
    if (ctx.streamFailures >= ctx.timing.attemptsBeforePolling) {
      await poll(ctx);
      continue;
    }
    const outcome = await runStream(ctx);
    if (ctx.stopped) break;
    if (outcome === 'ended') {
      setStatus(ctx, { state: 'reconnecting', message: 'Connection to the server lost: reconnecting.' });
      await pause(ctx, backoff(ctx));
    }
  }
}
