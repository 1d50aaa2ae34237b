import type { OpenF1Client, OpenF1Result } from './client.js';

/**
 * What the proxy accepts (SPEC §7; OpenF1's syntax in reference §1.3): three endpoints and, per
 * endpoint, the filters the app uses. Everything else is refused with a 400 naming the parameter,
 * before any upstream call. Accepted queries are rewritten to one canonical form (parameters in a
 * fixed order, values normalized, duplicates dropped), so every spelling of the same question
 * shares one cache entry and costs at most one upstream call per TTL.
 */
type Op = '=' | '>' | '>=' | '<' | '<=';
interface ParamRule {
  ops: readonly Op[];
  /** The canonical spelling of a valid value, or null when the value is refused. */
  canonical: (value: string) => string | null;
  describe: string;
  /** Distinct `=` values allowed at once (OpenF1 ORs repeated values); 1 when not repeatable. */
  repeat?: number;
}

const positiveInt = (max: number) => (value: string) => {
  if (!/^\d{1,10}$/.test(value)) return null;
  const n = Number(value);
  return n >= 1 && n <= max ? String(n) : null;
};
const keyOrLatest = (value: string) => (value === 'latest' ? value : positiveInt(9_999_999)(value));

const DATE_RE =
  /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,6}))?)?(Z|[+-]\d{2}:?\d{2})?)?$/;
const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/**
 * An ISO 8601 date or time as OpenF1 reads it (no zone = UTC), written one way: a day stays a day
 * (OpenF1 widens it to the whole day), a time becomes UTC `YYYY-MM-DDTHH:MM:SS[.ffffff]+00:00`.
 */
export function canonicalOpenF1Date(value: string): string | null {
  const m = DATE_RE.exec(value);
  if (!m) return null;
  const [, y, mo, d, h, mi, sec = '0', frac = '', zone = 'Z'] = m;
  const day = Date.UTC(Number(y), Number(mo) - 1, Number(d));
  const asDay = new Date(day);
  if (
    asDay.getUTCFullYear() !== Number(y) ||
    asDay.getUTCMonth() !== Number(mo) - 1 ||
    asDay.getUTCDate() !== Number(d)
  )
    return null;
  if (asDay.getUTCFullYear() < 1950 || asDay.getUTCFullYear() > 2100) return null;
  if (h === undefined || mi === undefined) return `${y}-${mo}-${d}`;
  if (Number(h) > 23 || Number(mi) > 59 || Number(sec) > 59) return null;
  let offsetMinutes = 0;
  if (zone !== 'Z') {
    const z = /^([+-])(\d{2}):?(\d{2})$/.exec(zone)!;
    if (Number(z[2]) > 23 || Number(z[3]) > 59) return null;
    offsetMinutes = (z[1] === '-' ? -1 : 1) * (Number(z[2]) * 60 + Number(z[3]));
  }
  const at = new Date(day + ((Number(h) * 60 + Number(mi) - offsetMinutes) * 60 + Number(sec)) * 1000);
  const micro = frac.padEnd(6, '0').replace(/0+$/, '');
  const date = `${at.getUTCFullYear()}-${pad(at.getUTCMonth() + 1)}-${pad(at.getUTCDate())}`;
  const time = `${pad(at.getUTCHours())}:${pad(at.getUTCMinutes())}:${pad(at.getUTCSeconds())}`;
  return `${date}T${time}${micro ? `.${micro}` : ''}+00:00`;
}

const SESSION_KEY: ParamRule = { ops: ['='], canonical: keyOrLatest, describe: 'a number or "latest"' };
const MEETING_KEY: ParamRule = { ops: ['='], canonical: keyOrLatest, describe: 'a number or "latest"' };
const YEAR: ParamRule = {
  ops: ['='],
  canonical: (v) => (/^(19|20)\d{2}$/.test(v) ? v : null),
  describe: 'a four-digit year',
};
const DRIVER_NUMBER: ParamRule = {
  ops: ['='],
  canonical: positiveInt(999),
  describe: 'a car number',
  repeat: 4,
};
// One interval at most (a lower and an upper bound): OpenF1 pairs several bounds by their order,
// which a canonical order would change.
const DATE_RANGE: ParamRule = {
  ops: ['>', '>=', '<', '<='],
  canonical: canonicalOpenF1Date,
  describe: 'an ISO 8601 date or time',
};
const DATE_AFTER: ParamRule = { ...DATE_RANGE, ops: ['>'] };

/** Per endpoint, its parameters in the order they are sent upstream, and those it needs. */
export const OPENF1_PROXY_ENDPOINTS: Record<
  string,
  { params: Record<string, ParamRule>; required: string[] }
> = {
  sessions: {
    params: { session_key: SESSION_KEY, meeting_key: MEETING_KEY, year: YEAR },
    required: [],
  },
  location: {
    params: { session_key: SESSION_KEY, driver_number: DRIVER_NUMBER, date: DATE_RANGE },
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

const MAX_QUERY_LENGTH = 1000;

function decode(token: string): string | null {
  try {
    return decodeURIComponent(token);
  } catch {
    return null;
  }
}

const isLowerBound = (op: Op) => op === '>' || op === '>=';

/**
 * Validates a proxy path and its raw query string and builds the canonical upstream path:
 * parameters in the endpoint's fixed order, values normalized (`session_key=0042` is
 * `session_key=42`, a time in any zone is UTC), repeated values sorted and deduplicated, each
 * token percent-encoded whole (reference §1.3). Equal questions thus share one cache entry.
 */
export function parseProxyRequest(path: string, rawQuery: string): ParsedProxyRequest {
  const m = /^v1\/([a-z_]+)\/?$/.exec(path);
  const endpoint = m?.[1];
  const spec = endpoint ? OPENF1_PROXY_ENDPOINTS[endpoint] : undefined;
  if (!endpoint || !spec) {
    return {
      ok: false,
      error: `Unsupported OpenF1 path "/${path.slice(0, 100)}": use /v1/sessions, /v1/location or /v1/race_control`,
    };
  }
  if (rawQuery.length > MAX_QUERY_LENGTH) return { ok: false, error: 'Query string is too long' };
  // Per parameter, per operator, the canonical values asked for.
  const asked = new Map<string, Map<Op, Set<string>>>();
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
    const canonical = rule.canonical(value);
    if (canonical === null) return { ok: false, error: `Parameter "${name}" must be ${rule.describe}` };
    const byOp = asked.get(name) ?? new Map<Op, Set<string>>();
    asked.set(name, byOp);
    const values = byOp.get(op) ?? new Set<string>();
    byOp.set(op, values);
    values.add(canonical);
    const limit = op === '=' ? (rule.repeat ?? 1) : 1;
    if (values.size > limit) return { ok: false, error: `Parameter "${name}" is repeated too often` };
    const ops = [...byOp.keys()];
    if (ops.filter(isLowerBound).length > 1 || ops.filter((o) => o === '<' || o === '<=').length > 1)
      return { ok: false, error: `Parameter "${name}" takes at most one lower and one upper bound` };
  }
  for (const name of spec.required) {
    if (!asked.get(name)?.has('=')) return { ok: false, error: `/v1/${endpoint} needs a ${name} filter` };
  }
  const tokens: string[] = [];
  for (const name of Object.keys(spec.params)) {
    const byOp = asked.get(name);
    if (!byOp) continue;
    for (const op of ['=', '>', '>=', '<', '<='] as const) {
      const values = [...(byOp.get(op) ?? [])].sort();
      for (const value of values) tokens.push(`${name}${op}${value}`);
    }
  }
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
