/** The clock and timers a driver or the player uses; injected so tests run on a fake clock. */
export interface Timers {
  now: () => number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const systemTimers: Timers = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => globalThis.setTimeout(fn, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof globalThis.setTimeout>),
};

/** Resolves after `ms` on the given timers; rejects with the signal's reason if aborted first. */
export function sleep(timers: Timers, ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason as Error);
    const handle = timers.setTimeout(
      () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      },
      Math.max(0, ms),
    );
    function onAbort() {
      timers.clearTimeout(handle);
      reject(signal?.reason as Error);
    }
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Runs callbacks at absolute times. Each wake-up checks the clock and re-arms when a timer fired
 * early, so steps land on their target instead of drifting like chained waits.
 */
export class TargetScheduler {
  private readonly handles = new Map<number, unknown>();
  private nextId = 1;

  constructor(private readonly timers: Timers) {}

  at(targetMs: number, fn: () => void): number {
    const id = this.nextId++;
    const arm = () => {
      const wait = targetMs - this.timers.now();
      if (wait > 0) {
        this.handles.set(id, this.timers.setTimeout(arm, wait));
        return;
      }
      this.handles.delete(id);
      fn();
    };
    this.handles.set(id, undefined);
    const wait = targetMs - this.timers.now();
    this.handles.set(id, this.timers.setTimeout(arm, Math.max(0, wait)));
    return id;
  }

  cancel(id: number): void {
    if (!this.handles.has(id)) return;
    this.timers.clearTimeout(this.handles.get(id));
    this.handles.delete(id);
  }

  cancelAll(): void {
    for (const handle of this.handles.values()) this.timers.clearTimeout(handle);
    this.handles.clear();
  }

  get size(): number {
    return this.handles.size;
  }
}
