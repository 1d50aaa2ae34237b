import crypto from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { HttpError } from '../http/errors.js';

/** Failed sign-ins an e-mail address gets before the waits start. */
export const LOGIN_FREE_FAILURES = 5;
/** The first wait; each further failure doubles it. */
export const LOGIN_FIRST_DELAY_MS = 1_000;
/** The longest wait: the owner is slowed down, never locked out (and a reset link ends it). */
export const LOGIN_MAX_DELAY_MS = 15 * 60_000;
/** A count with no failure for this long is forgotten. */
export const LOGIN_FAILURES_TTL_MS = 24 * 3_600_000;
/** The in-memory store forgets its oldest addresses beyond this many. */
const MEMORY_MAX_ENTRIES = 100_000;

/** The wait after `failures` failed sign-ins in a row (0 while some are still free). */
export function loginDelayMs(failures: number): number {
  if (failures < LOGIN_FREE_FAILURES) return 0;
  return Math.min(LOGIN_FIRST_DELAY_MS * 2 ** (failures - LOGIN_FREE_FAILURES), LOGIN_MAX_DELAY_MS);
}

function describeWait(seconds: number): string {
  if (seconds < 60) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}

/** A sign-in refused because the address is waiting out its failures (429, with Retry-After). */
export class LoginThrottledError extends HttpError {
  override name = 'LoginThrottledError';
  constructor(readonly retryAfterSeconds: number) {
    super(
      429,
      `Too many failed sign-in attempts. Please wait ${describeWait(retryAfterSeconds)} and try again, or reset your password.`,
      { retryAfterSeconds },
      'rate_limited',
    );
  }
}

/** Where the counts live: Redis with REDIS_URL (shared by every instance), else this process. */
interface ThrottleStore {
  /**
   * Atomically: refuse while the address waits (answers when the wait ends), else count this
   * attempt as a failure until it succeeds (so parallel guesses cannot slip past the count) and
   * start the next wait if it is due.
   */
  begin(key: string, now: number): Promise<{ ok: true } | { ok: false; lockedUntil: number }>;
  clear(key: string): Promise<void>;
}

function createMemoryStore(): ThrottleStore {
  const entries = new Map<string, { failures: number; lockedUntil: number; touchedAt: number }>();
  return {
    async begin(key, now) {
      let entry = entries.get(key);
      if (entry && now - entry.touchedAt > LOGIN_FAILURES_TTL_MS) entry = undefined;
      if (entry && entry.lockedUntil > now) return { ok: false, lockedUntil: entry.lockedUntil };
      const failures = (entry?.failures ?? 0) + 1;
      const delay = loginDelayMs(failures);
      // Re-inserted, so the Map's order is least recently touched first.
      entries.delete(key);
      entries.set(key, { failures, lockedUntil: delay > 0 ? now + delay : 0, touchedAt: now });
      if (entries.size > MEMORY_MAX_ENTRIES) {
        const oldest = entries.keys().next().value;
        if (oldest !== undefined) entries.delete(oldest);
      }
      return { ok: true };
    },
    async clear(key) {
      entries.delete(key);
    },
  };
}

// KEYS[1] the address's hash; ARGV now, free failures, first delay, max delay, ttl (ms).
const BEGIN_SCRIPT = `
local failures = tonumber(redis.call('HGET', KEYS[1], 'failures') or '0')
local lockedUntil = tonumber(redis.call('HGET', KEYS[1], 'lockedUntil') or '0')
local now = tonumber(ARGV[1])
if lockedUntil > now then return {0, tostring(lockedUntil)} end
failures = failures + 1
local free = tonumber(ARGV[2])
lockedUntil = 0
if failures >= free then
  lockedUntil = now + math.min(tonumber(ARGV[3]) * 2 ^ (failures - free), tonumber(ARGV[4]))
end
redis.call('HSET', KEYS[1], 'failures', failures, 'lockedUntil', string.format('%d', lockedUntil))
redis.call('PEXPIRE', KEYS[1], ARGV[5])
return {1, string.format('%d', lockedUntil)}
`;

function createRedisStore(client: Redis, prefix: string): ThrottleStore {
  const keyOf = (key: string) => `${prefix}login-throttle:${key}`;
  return {
    async begin(key, now) {
      const [allowed, lockedUntil] = (await client.eval(
        BEGIN_SCRIPT,
        1,
        keyOf(key),
        now,
        LOGIN_FREE_FAILURES,
        LOGIN_FIRST_DELAY_MS,
        LOGIN_MAX_DELAY_MS,
        LOGIN_FAILURES_TTL_MS,
      )) as [number, string];
      return allowed === 1 ? { ok: true } : { ok: false, lockedUntil: Number(lockedUntil) };
    },
    async clear(key) {
      await client.del(keyOf(key));
    },
  };
}

export interface LoginThrottleOptions {
  /** The shared Redis (REDIS_URL); without it the counts live in this process. */
  redis?: { client: Redis; prefix: string } | undefined;
  now: () => Date;
  logger: Logger;
}

/**
 * Per-address failed sign-in throttle: after LOGIN_FREE_FAILURES failures in a
 * row, each attempt waits 1 s, 2 s, 4 s … up to 15 minutes after the last failure. Counted per
 * normalized e-mail whether or not an account has it (the answer must not tell), reset by a
 * successful sign-in and by a password reset (the link proves ownership, so the owner always gets
 * back in). Kept by the hash of the address, so Redis never holds e-mail addresses.
 */
export function createLoginThrottle(options: LoginThrottleOptions) {
  const memory = createMemoryStore();
  const redis = options.redis ? createRedisStore(options.redis.client, options.redis.prefix) : undefined;
  const keyOf = (email: string) =>
    crypto.createHash('sha256').update(email.trim().normalize('NFKC').toLowerCase()).digest('hex');

  // With Redis down, the counts fall back to this process rather than fail every sign-in.
  async function withStore<T>(run: (store: ThrottleStore) => Promise<T>): Promise<T> {
    if (!redis) return run(memory);
    try {
      return await run(redis);
    } catch (error) {
      options.logger.warn({ err: error }, 'login throttle: Redis unavailable, counting in this process');
      return run(memory);
    }
  }

  return {
    /** Throws LoginThrottledError while the address waits; otherwise counts the attempt. */
    async begin(email: string): Promise<void> {
      const now = options.now().getTime();
      const result = await withStore((store) => store.begin(keyOf(email), now));
      if (!result.ok)
        throw new LoginThrottledError(Math.max(1, Math.ceil((result.lockedUntil - now) / 1000)));
    },
    /** A successful sign-in or a password reset: the address starts afresh. */
    async clear(email: string): Promise<void> {
      const key = keyOf(email);
      await memory.clear(key);
      if (redis) await withStore((store) => store.clear(key));
    },
  };
}

export type LoginThrottle = ReturnType<typeof createLoginThrottle>;
