import { pollUntil } from '../../../scripts/test-pace.mjs';
import type { Timers } from '../src/timers.js';

interface Entry {
  id: number;
  at: number;
  fn: () => void;
}

/** A manual clock for tests: timers fire only when `advance` passes their time. */
export class FakeTimers implements Timers {
  private entries: Entry[] = [];
  private nextId = 1;
  /** Every delay ever requested, in order (to check back-off and pacing). */
  readonly requested: number[] = [];

  constructor(private current = 1_700_000_000_000) {}

  now = (): number => this.current;

  setTimeout = (fn: () => void, ms: number): unknown => {
    const id = this.nextId++;
    this.requested.push(ms);
    this.entries.push({ id, at: this.current + Math.max(0, ms), fn });
    return id;
  };

  clearTimeout = (handle: unknown): void => {
    this.entries = this.entries.filter((e) => e.id !== handle);
  };

  /** Delays of the timers still waiting, from now. */
  pending(): number[] {
    return this.entries.map((e) => e.at - this.current).sort((a, b) => a - b);
  }

  /** Moves the clock forward, firing due timers in time order (and letting promises settle between). */
  async advance(ms: number): Promise<void> {
    const end = this.current + ms;
    for (;;) {
      await flush();
      const due = this.entries.filter((e) => e.at <= end).sort((a, b) => a.at - b.at || a.id - b.id)[0];
      if (!due) break;
      this.entries = this.entries.filter((e) => e !== due);
      this.current = Math.max(this.current, due.at);
      due.fn();
    }
    this.current = end;
    await flush();
  }
}

async function flush(): Promise<void> {
  for (let i = 0; i < 20; i += 1) await Promise.resolve();
}

/** Polls (real time) until the condition holds; for waiting on real HTTP in fake-clock tests. */
export const until = (condition: () => boolean, timeoutMs = 3000): Promise<void> =>
  pollUntil(condition, timeoutMs, 5);
