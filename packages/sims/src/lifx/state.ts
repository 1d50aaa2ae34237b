import { type Clock, systemClock } from '../shared/clock.js';
import { type Bulb, createBulbs } from './bulbs.js';

export const DEMO_LIFX_TOKEN = 'demo-token';
export const LIFX_DEMO_BULB_COUNT = 12;
/** LIFX's real budget: 120 requests per 60 s per token (reference §2.1). */
export const LIFX_RATE_LIMIT = { max: 120, windowMs: 60_000 };

export interface LifxSimOptions {
  now?: Clock;
  /** Accepted tokens. Default `['demo-token']`. */
  tokens?: string[];
  /** Number of virtual bulbs. Default 12. */
  bulbCount?: number;
  rateLimit?: { max: number; windowMs: number };
}

export interface LifxLoggedRequest {
  method: string;
  /** Path below the prefix, e.g. `/v1/lights/id:d073d5100a00/state`. */
  path: string;
  at: number;
  status: number;
  body: unknown;
}

export interface LifxFailure {
  /** HTTP status to answer, or 'hang' to hold the request for `delayMs` then answer normally. */
  status: number | 'hang';
  times?: number;
  delayMs?: number;
}

/** The options with their defaults filled in. */
export interface LifxSettings {
  now: Clock;
  initialTokens: string[];
  bulbCount: number;
}

/** Everything the simulated cloud remembers. */
export interface LifxState {
  tokens: Set<string>;
  bulbs: Bulb[];
  limit: { max: number; windowMs: number };
  /** Rate-limit window per token. */
  readonly windows: Map<string, { resetAtSec: number; used: number }>;
  failures: (LifxFailure & { remaining: number })[];
  log: LifxLoggedRequest[];
}

export function resolveLifxSettings(options: LifxSimOptions): LifxSettings {
  return {
    now: options.now ?? systemClock,
    initialTokens: options.tokens ?? [DEMO_LIFX_TOKEN],
    bulbCount: options.bulbCount ?? LIFX_DEMO_BULB_COUNT,
  };
}

export function createLifxState(settings: LifxSettings, options: LifxSimOptions): LifxState {
  return {
    tokens: new Set(settings.initialTokens),
    bulbs: createBulbs(settings.bulbCount),
    limit: options.rateLimit ?? LIFX_RATE_LIMIT,
    windows: new Map(),
    failures: [],
    log: [],
  };
}

type Body = Record<string, unknown>;

/** A request body as an object, or `{}` when it is not one. */
export function asBody(body: unknown): Body {
  return body && typeof body === 'object' && !Array.isArray(body) ? (body as Body) : {};
}
