import type { OpenF1Client, OpenF1Result } from './client.js';

/**
 * What the proxy accepts (SPEC §7): three endpoints and, per endpoint, the filters the app uses.
 * Everything else is refused with a 400 before any upstream call.
 */
type Op = '=' | '>' | '>=' | '<' | '<=';
interface ParamRule {
  ops: readonly Op[];
  pattern: RegExp;
  describe: string;
  /** May appear more than once (OpenF1 ORs repeated values). */
  repeat?: boolean;
}

const SESSION_KEY: ParamRule = {
  ops: ['='],
  pattern: /^(\d{1,7}|latest)$/,
  describe: 'a number or "latest"',
};
const DATE_RE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2})?)?$/;
const DATE_AFTER: ParamRule = { ops: ['>'], pattern: DATE_RE, describe: 'an ISO 8601 date' };

const ENDPOINTS: Record<string, { params: Record<string, ParamRule>; required: string[] }> = {
  sessions: {
    params: {
      year: { ops: ['='], pattern: /^(19|20)\d{2}$/, describe: 'a four-digit year' },
      session_key: SESSION_KEY,
    },
    required: [],
  },
  location: {
    params: {
      session_key: SESSION_KEY,
      driver_number: { ops: ['='], pattern: /^\d{1,3}$/, describe: 'a car number', repeat: true },
      date: { ops: ['>', '>=', '<', '<='], pattern: DATE_RE, describe: 'an ISO 8601 date', repeat: true },
    },
    required: ['session_key'],
  },
  race_control: {
    params: { session_key: SESSION_KEY, date: DATE_AFTER },
    required: ['session_key'],
  },
};

/**
 * Cache lifetimes, chosen against how fast each answer can change upstream:
 * - race_control and location: 3 s. OpenF1 caches identical queries for 3 s itself (reference
 *   §1.3) and the SPEC poll interval is 3 s, so a fresher copy would not exist upstream anyway.
 * - sessions: 60 s. OpenF1 refreshes its schedule hourly; `session_key=latest` flips 60 s before a
 *   start, so a minute of staleness costs at most the first minute of a session.
 * - a 429 answer: 10 s, the SPEC §4 rate-limit back-off, so clients cannot keep hammering OpenF1.
 * Other failures are not cached (the next caller retries), only shared while in flight.
 */
export const PROXY_TTL_MS = {
  race_control: 3_000,
  location: 3_000,
  sessions: 60_000,
  rateLimited: 10_000,
} as const;
const MAX_CACHE_ENTRIES = 1_000;

export type ParsedProxyRequest =
  { ok: true; endpoint: string; upstreamPath: string } | { ok: false; error: string };

function decode(token: string): string | null {
  try {
    return decodeURIComponent(token);
  } catch {
    return null;
  }
}

/**
 * Validates a proxy path and its raw query string and builds the canonical upstream path: tokens
 * sorted, each percent-encoded whole (reference §1.3), so equal requests share one cache entry.
 */
export function parseProxyRequest(path: string, rawQuery: string): ParsedProxyRequest {
  const m = /^v1\/([a-z_]+)\/?$/.exec(path);
  const endpoint = m?.[1];
  const spec = endpoint ? ENDPOINTS[endpoint] : undefined;
  if (!endpoint || !spec) {
    return {
      ok: false,
      error: `Unsupported OpenF1 path "/${path.slice(0, 100)}": use /v1/sessions, /v1/location or /v1/race_control`,
    };
  }
  if (rawQuery.length > 1000) return { ok: false, error: 'Query string is too long' };
  const tokens: string[] = [];
  const seen = new Map<string, number>();
  for (const raw of rawQuery.split('&')) {
    if (raw === '') continue;
    const token = decode(raw);
    if (token === null) return { ok: false, error: 'Query string is not valid percent-encoding' };
    const parts = /^([a-z_]+)(>=|<=|>|<|=)(.*)$/.exec(token);
    if (!parts) return { ok: false, error: `Malformed query parameter "${token.slice(0, 60)}"` };
    const [, name, op, value] = parts as unknown as [string, string, Op, string];
    const rule = spec.params[name];
    if (!rule) {
      const allowed = Object.keys(spec.params).join(', ');
      return {
        ok: false,
        error: `Unsupported parameter "${name}" for /v1/${endpoint} (allowed: ${allowed})`,
      };
    }
    if (!rule.ops.includes(op)) return { ok: false, error: `Parameter "${name}" does not accept "${op}"` };
    const badDate = rule.pattern === DATE_RE && Number.isNaN(Date.parse(value));
    if (!rule.pattern.test(value) || badDate) {
      return { ok: false, error: `Parameter "${name}" must be ${rule.describe}` };
    }
    const count = (seen.get(`${name}${op}`) ?? 0) + 1;
    seen.set(`${name}${op}`, count);
    if (count > (rule.repeat ? 4 : 1))
      return { ok: false, error: `Parameter "${name}" is repeated too often` };
    tokens.push(`${name}${op}${value}`);
  }
  for (const name of spec.required) {
    if (!tokens.some((t) => t.startsWith(`${name}=`))) {
      return { ok: false, error: `/v1/${endpoint} needs a ${name} filter` };
    }
  }
  tokens.sort();
  const query = tokens.map((t) => encodeURIComponent(t)).join('&');
  return { ok: true, endpoint, upstreamPath: `/v1/${endpoint}${query ? `?${query}` : ''}` };
}

export interface OpenF1Proxy {
  get(endpoint: string, upstreamPath: string): Promise<OpenF1Result>;
  /** Upstream calls made (cache misses that were not coalesced). */
  upstreamCalls(): number;
}

/** Caches and coalesces OpenF1 answers for the proxy route. */
export function createOpenF1Proxy(client: OpenF1Client, now: () => number): OpenF1Proxy {
  const cache = new Map<string, { until: number; result: OpenF1Result }>();
  const inFlight = new Map<string, Promise<OpenF1Result>>();
  let calls = 0;

  function ttl(endpoint: string, result: OpenF1Result): number {
    if (!result.ok) return result.kind === 'rate-limited' ? PROXY_TTL_MS.rateLimited : 0;
    return PROXY_TTL_MS[endpoint as keyof typeof PROXY_TTL_MS] ?? 0;
  }

  return {
    upstreamCalls: () => calls,
    async get(endpoint, upstreamPath) {
      const hit = cache.get(upstreamPath);
      if (hit && hit.until > now()) return hit.result;
      const running = inFlight.get(upstreamPath);
      if (running) return running;
      calls += 1;
      const call = client.get(upstreamPath).then((result) => {
        const life = ttl(endpoint, result);
        cache.delete(upstreamPath);
        if (life > 0) {
          if (cache.size >= MAX_CACHE_ENTRIES) {
            // Map keeps insertion order: drop the oldest entry.
            const oldest = cache.keys().next().value;
            if (oldest !== undefined) cache.delete(oldest);
          }
          cache.set(upstreamPath, { until: now() + life, result });
        }
        return result;
      });
      inFlight.set(upstreamPath, call);
      try {
        return await call;
      } finally {
        inFlight.delete(upstreamPath);
      }
    },
  };
}
