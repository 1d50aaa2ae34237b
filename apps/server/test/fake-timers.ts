// A manual clock for tests and benchmarks: nothing runs until advance() is called.
import type { TimerHandle, Timers } from '../src/live/clock.js';

/** A fake clock for the hub: timers run only when the test advances time, in due order. */
export interface FakeTimers extends Timers {
  /** Runs every timer due within `ms`, awaiting what each returns (a poll), then sets the clock. */
  advance(ms: number): Promise<void>;
  /** Delays (from now) of the pending timers, soonest first. */
  pending(): number[];
  set(ms: number): void;
}

export function createFakeTimers(start: number): FakeTimers {
  let now = start;
  let next = 1;
  const queue = new Map<number, { at: number; fn: () => unknown }>();
  return {
    now: () => now,
    set(ms) {
      now = ms;
    },
    setTimeout(fn, ms) {
      const id = next++;
      queue.set(id, { at: now + Math.max(0, ms), fn });
      return { id };
    },
    clearTimeout(handle: TimerHandle) {
      queue.delete(handle.id);
    },
    pending: () => [...queue.values()].map((t) => t.at - now).sort((a, b) => a - b),
    async advance(ms) {
      const until = now + ms;
      for (;;) {
        const due = [...queue.entries()]
          .filter(([, t]) => t.at <= until)
          .sort((a, b) => a[1].at - b[1].at)[0];
        if (!due) break;
        queue.delete(due[0]);
        now = Math.max(now, due[1].at);
        await due[1].fn();
      }
      now = until;
    },
  };
}
