/** Reference §7 (as f1_sensor): 5 s, doubling, up to 60 s, with jitter. */
export const DEFAULT_BACKOFF = { initialMs: 5_000, factor: 2, maxMs: 60_000, jitter: 0.2 } as const;

export interface Backoff {
  initialMs: number;
  factor: number;
  maxMs: number;
  jitter: number;
}

/**
 * Wait before reconnect attempt `n` of an outage. `n = 0`: the first retry after a connection that
 * got its snapshot (a restart, a blip): within 1 s (the client allows one per `initialMs`, so a
 * server that accepts and drops at once is not hammered). Then `initialMs × factor^(n−1)` up to
 * `maxMs` (5 s, 10 s, 20 s, 40 s, 60 s…), each ± `jitter`.
 */
export function backoffDelay(n: number, backoff: Backoff, random: () => number): number {
  if (n <= 0) return random() * Math.min(1_000, backoff.initialMs);
  const base = Math.min(backoff.maxMs, backoff.initialMs * backoff.factor ** (n - 1));
  return Math.max(0, base * (1 + backoff.jitter * (2 * random() - 1)));
}

/** An outage's failed attempts, and how long to wait before the next one. */
export interface Retries {
  readonly failures: number;
  /** Counts a lost connection or failed attempt; the wait before the next attempt. */
  fail(): number;
  /** A snapshot arrived: the outage is over. */
  succeeded(): void;
  /** `start()`: the count starts again; when the last quick retry was is kept. */
  restart(): void;
}

export function createRetries(backoff: Backoff, now: () => number, random: () => number): Retries {
  let failures = 0;
  let quickRetryAt: number | null = null;
  let quickInEpisode = false;
  return {
    get failures() {
      return failures;
    },
    fail() {
      failures += 1;
      const t = now();
      const quick = failures === 1 && (quickRetryAt === null || t - quickRetryAt >= backoff.initialMs);
      if (quick) quickRetryAt = t;
      const delay = backoffDelay(quick ? 0 : failures - (quickInEpisode ? 1 : 0), backoff, random);
      quickInEpisode ||= quick;
      return delay;
    },
    succeeded() {
      failures = 0;
      quickInEpisode = false;
    },
    restart() {
      failures = 0;
    },
  };
}
