import type { Timers } from '../../timers.js';

export interface BackoffTimer {
  /** Arms the timer unless it is armed (or stopped); each firing doubles the next wait up to the max. */
  arm(): void;
  /** The next wait is the first one again (the device answered). */
  reset(): void;
  armed(): boolean;
  /** Disarmed for good. */
  stop(): void;
}

/**
 * A LAN driver's timed reads: a probe of a silent device (`firstMs`, doubling to `maxMs`) or a
 * steady refresh or health check (`maxMs` left out: the same wait every time). 0 or less: never.
 */
export function createBackoffTimer(options: {
  timers: Timers;
  firstMs: number;
  maxMs?: number;
  run: () => void;
}): BackoffTimer {
  const { timers, firstMs, run } = options;
  const maxMs = options.maxMs ?? firstMs;
  let handle: unknown = null;
  let waitMs = firstMs;
  let stopped = false;
  return {
    arm() {
      if (handle !== null || stopped || firstMs <= 0) return;
      handle = timers.setTimeout(() => {
        handle = null;
        run();
      }, waitMs);
      waitMs = Math.min(maxMs, waitMs * 2);
    },
    reset() {
      waitMs = firstMs;
    },
    armed: () => handle !== null,
    stop() {
      stopped = true;
      timers.clearTimeout(handle);
      handle = null;
    },
  };
}
