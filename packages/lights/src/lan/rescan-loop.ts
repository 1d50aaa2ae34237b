import type { Timers } from '../timers.js';

export interface RescanLoopOptions<T> {
  timers: Timers;
  /** From the end of a scan that succeeded to the next timed one; 0 or less: no timed scans. */
  intervalMs: number;
  /** One scan. Its waits go through the loop's `wait`, so `stop()` ends them and the scan settles. */
  scan: () => Promise<T>;
  /** A scan nobody awaits (a timed one, or `rescan()`) failed. */
  onError: (error: unknown) => void;
}

export interface RescanLoop<T> {
  /** Starts a scan, or joins the one running. One that succeeds arms the next timed scan. */
  run(): Promise<T>;
  /** `run()` that nobody awaits: a failure goes to `onError`. */
  rescan(): void;
  isRunning(): boolean;
  /** A wait inside a scan (a listening window); `stop()` ends it early. */
  wait(ms: number): Promise<void>;
  /** No more timed scans; waits of a running scan end now. */
  stop(): void;
}

/**
 * The LAN drivers' re-discovery: one scan at a time, and after each that succeeds the next one
 * `intervalMs` later, so devices that moved (a new address or port) or joined are found again.
 * A failed scan arms no timer; the next asked-for scan starts the loop again.
 */
export function createRescanLoop<T>(options: RescanLoopOptions<T>): RescanLoop<T> {
  const { timers, intervalMs, scan, onError } = options;
  const waits = new Map<unknown, () => void>();
  let running: Promise<T> | null = null;
  let timer: unknown = null;
  let stopped = false;

  function schedule(): void {
    if (intervalMs <= 0 || timer !== null || stopped) return;
    timer = timers.setTimeout(() => {
      timer = null;
      rescan();
    }, intervalMs);
  }

  function run(): Promise<T> {
    running ??= (async () => {
      try {
        const result = await scan();
        schedule();
        return result;
      } finally {
        running = null;
      }
    })();
    return running;
  }

  function rescan(): void {
    run().catch(onError);
  }

  function wait(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const handle = timers.setTimeout(() => {
        waits.delete(handle);
        resolve();
      }, ms);
      waits.set(handle, resolve);
    });
  }

  function stop(): void {
    stopped = true;
    timers.clearTimeout(timer);
    timer = null;
    for (const [handle, resolve] of waits) {
      timers.clearTimeout(handle);
      resolve();
    }
    waits.clear();
  }

  return { run, rescan, isRunning: () => running !== null, wait, stop };
}
