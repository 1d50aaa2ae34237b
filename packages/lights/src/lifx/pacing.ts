import type { Timers } from '../timers.js';
import type { Job, RateBudget } from './requests.js';

/** The gaps the LIFX cloud asks for: between requests, and per device for states and flags. */
export interface LifxPacingOptions {
  timers: Timers;
  gapMs: number;
  throttle: { state: number; flag: number };
}

export interface LifxPacing {
  /** When the job may start: after the queue gap, a spent budget's reset and its devices' throttles. */
  readyAt(job: Job): number;
  /** Notes that the job starts now, for the queue gap and its devices' throttles. */
  markStarted(job: Job): void;
  /** Reads the `X-RateLimit-*` headers; a spent budget holds every request until its reset. */
  noteRateLimit(response: Response): void;
  budget(): RateBudget | null;
  /** Forgets every start, hold and budget (a token switch or disconnect). */
  reset(): void;
}

export function createLifxPacing({ timers, gapMs, throttle }: LifxPacingOptions): LifxPacing {
  let lastStart = -Infinity;
  let lastTouched = { state: new Map<string, number>(), flag: new Map<string, number>() };
  let holdUntil = 0;
  let budget: RateBudget | null = null;

  return {
    readyAt(job) {
      let at = Math.max(job.notBefore, lastStart + gapMs, holdUntil);
      if (job.kind !== 'list') {
        const touched = lastTouched[job.kind];
        for (const id of job.devices) at = Math.max(at, (touched.get(id) ?? -Infinity) + throttle[job.kind]);
      }
      return at;
    },
    markStarted(job) {
      lastStart = timers.now();
      if (job.kind !== 'list') for (const id of job.devices) lastTouched[job.kind].set(id, lastStart);
    },
    noteRateLimit(response) {
      const limit = Number(response.headers.get('X-RateLimit-Limit'));
      const remaining = Number(response.headers.get('X-RateLimit-Remaining'));
      const reset = Number(response.headers.get('X-RateLimit-Reset'));
      if (!response.headers.has('X-RateLimit-Remaining') || !Number.isFinite(remaining)) return;
      const resetAtMs = Number.isFinite(reset) && reset > 0 ? reset * 1000 : timers.now() + 60_000;
      budget = { limit, remaining, resetAtMs };
      if (remaining <= 0) holdUntil = Math.max(holdUntil, resetAtMs);
    },
    budget: () => budget,
    reset() {
      lastTouched = { state: new Map(), flag: new Map() };
      holdUntil = 0;
      budget = null;
      lastStart = -Infinity;
    },
  };
}
