import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { sendLightsPage } from '../lights-page/page.js';
import { type Clock, delay, systemClock } from '../shared/clock.js';
import { type Bulb, createBulbs, type Hsbk, matchSelector, settleEffect, visibleColor } from './bulbs.js';
import { hsbkToHex, type HsbkPatch, parseLifxColor } from './colors.js';

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

export interface LifxBulbView {
  id: string;
  label: string;
  connected: boolean;
  power: 'on' | 'off';
  color: { hue: number; saturation: number; kelvin: number };
  brightness: number;
  group: string;
  /** What it shows now (the waveform while an effect runs). */
  on: boolean;
  hex: string;
  /** `pulse`, `breathe` or null. */
  effect: string | null;
}

export interface LifxFailure {
  /** HTTP status to answer, or 'hang' to hold the request for `delayMs` then answer normally. */
  status: number | 'hang';
  times?: number;
  delayMs?: number;
}

export interface LifxSimControl {
  bulbs(): LifxBulbView[];
  bulb(id: string): LifxBulbView | undefined;
  setConnected(id: string, connected: boolean): void;
  /** The next requests to `/v1/*` fail (or hang) this way. */
  failNext(failure: LifxFailure): void;
  setRateLimit(limit: { max: number; windowMs: number }): void;
  /** The token stops working, as when its owner deletes it at cloud.lifx.com: 401 from then on. */
  revokeToken(token: string): boolean;
  requests(): LifxLoggedRequest[];
  resetRequests(): void;
  /** Bulbs back to their first state, revoked tokens back, log and failures cleared, rate budget refilled. */
  reset(): void;
}

export interface LifxSim {
  plugin: (app: FastifyInstance) => Promise<void>;
  control: LifxSimControl;
}

type Body = Record<string, unknown>;

function asBody(body: unknown): Body {
  return body && typeof body === 'object' && !Array.isArray(body) ? (body as Body) : {};
}

function tokenOf(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization ?? '';
  const bearer = /^Bearer\s+(\S+)$/i.exec(header);
  if (bearer) return bearer[1];
  const basic = /^Basic\s+(\S+)$/i.exec(header);
  if (basic?.[1]) return Buffer.from(basic[1], 'base64').toString('utf8').split(':')[0];
  return undefined;
}

function safeDecode(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

const STATE_FIELDS = new Set(['power', 'color', 'brightness', 'duration', 'infrared', 'fast', 'selector']);

interface StateChange {
  power?: 'on' | 'off';
  color?: HsbkPatch;
  brightness?: number;
}

type Validation<T> = { ok: true; value: T; warnings: Body } | { ok: false; error: string; field: string };

function validateState(raw: Body): Validation<StateChange & { fast: boolean }> {
  const out: StateChange & { fast: boolean } = { fast: false };
  const unknown: Body = {};
  for (const [key, value] of Object.entries(raw)) if (!STATE_FIELDS.has(key)) unknown[key] = value;
  if (raw.power !== undefined) {
    if (raw.power !== 'on' && raw.power !== 'off')
      return { ok: false, field: 'power', error: 'power must be "on" or "off"' };
    out.power = raw.power;
  }
  if (raw.color !== undefined) {
    const parsed = parseLifxColor(raw.color);
    if (!parsed.ok) return { ok: false, field: 'color', error: parsed.error };
    out.color = parsed.value;
  }
  for (const key of ['brightness', 'infrared'] as const) {
    const v = raw[key];
    if (v !== undefined && (typeof v !== 'number' || v < 0 || v > 1))
      return { ok: false, field: key, error: `${key} must be a number between 0.0 and 1.0` };
  }
  if (typeof raw.brightness === 'number') out.brightness = raw.brightness;
  if (raw.duration !== undefined && (typeof raw.duration !== 'number' || raw.duration < 0))
    return { ok: false, field: 'duration', error: 'duration must be a non-negative number' };
  if (raw.fast !== undefined) {
    if (typeof raw.fast !== 'boolean') return { ok: false, field: 'fast', error: 'fast must be a boolean' };
    out.fast = raw.fast;
  }
  return { ok: true, value: out, warnings: unknown };
}

/**
 * The LIFX HTTP API (reference §2): bulbs you can read back, selectors, colour strings, effects,
 * the real status codes and the 120-per-60-s budget with its `X-RateLimit-*` headers. Mount it
 * under a prefix (demo: /sims/lifx, so the API is /sims/lifx/v1); `GET /` is a live page of the
 * bulbs and `/_control/*` drives it (no token, not rate-limited, not logged).
 */
export function createLifxSim(options: LifxSimOptions = {}): LifxSim {
  const now = options.now ?? systemClock;
  const initialTokens = options.tokens ?? [DEMO_LIFX_TOKEN];
  let tokens = new Set(initialTokens);
  const count = options.bulbCount ?? LIFX_DEMO_BULB_COUNT;
  let bulbs = createBulbs(count);
  let limit = options.rateLimit ?? LIFX_RATE_LIMIT;
  const windows = new Map<string, { resetAtSec: number; used: number }>();
  let failures: (LifxFailure & { remaining: number })[] = [];
  let log: LifxLoggedRequest[] = [];

  const view = (bulb: Bulb): LifxBulbView => {
    settleEffect(bulb, now());
    const shown = visibleColor(bulb, now());
    return {
      id: bulb.id,
      label: bulb.label,
      connected: bulb.connected,
      power: bulb.power,
      color: { hue: bulb.hue, saturation: bulb.saturation, kelvin: bulb.kelvin },
      brightness: shown.brightness,
      group: bulb.group.name,
      on: shown.on,
      hex: hsbkToHex(shown),
      effect: bulb.effect?.kind ?? null,
    };
  };

  const control: LifxSimControl = {
    bulbs: () => bulbs.map(view),
    bulb: (id) => {
      const bulb = bulbs.find((b) => b.id === id);
      return bulb && view(bulb);
    },
    setConnected(id, connected) {
      const bulb = bulbs.find((b) => b.id === id);
      if (bulb) bulb.connected = connected;
    },
    failNext(failure) {
      failures.push({ ...failure, remaining: failure.times ?? 1 });
    },
    setRateLimit(next) {
      limit = next;
      windows.clear();
    },
    requests: () => [...log],
    resetRequests() {
      log = [];
    },
    revokeToken: (token) => tokens.delete(token),
    reset() {
      bulbs = createBulbs(count);
      tokens = new Set(initialTokens);
      windows.clear();
      failures = [];
      log = [];
    },
  };

  function apiJson(bulb: Bulb) {
    settleEffect(bulb, now());
    return {
      id: bulb.id,
      uuid: bulb.uuid,
      label: bulb.label,
      connected: bulb.connected,
      power: bulb.power,
      color: { hue: bulb.hue, saturation: bulb.saturation, kelvin: bulb.kelvin },
      brightness: bulb.brightness,
      effect: bulb.effect ? bulb.effect.kind.toUpperCase() : 'OFF',
      group: bulb.group,
      location: bulb.location,
      product: {
        ...bulb.product,
        company: 'LIFX',
        vendor_id: 1,
        capabilities: {
          has_color: true,
          has_variable_color_temp: true,
          has_ir: false,
          has_chain: false,
          has_multizone: bulb.product.identifier === 'lifx_z',
          min_kelvin: 1500,
          max_kelvin: 9000,
        },
      },
      last_seen: new Date(now()).toISOString().replace(/\.\d{3}Z$/, 'Z'),
      seconds_since_seen: 0,
    };
  }

  const results = (matched: Bulb[]) =>
    matched.map((b) => ({ id: b.id, label: b.label, status: b.connected ? 'ok' : 'offline' }));

  function unprocessable(reply: FastifyReply, field: string, error: string) {
    return reply.code(422).send({ error, errors: [{ field, message: [error] }] });
  }

  function applyState(bulb: Bulb, change: StateChange): void {
    if (!bulb.connected) return;
    bulb.effect = null;
    if (change.power) bulb.power = change.power;
    if (change.color) {
      const { hue, saturation, brightness, kelvin } = change.color;
      if (hue !== undefined) bulb.hue = hue;
      if (saturation !== undefined) bulb.saturation = saturation;
      if (brightness !== undefined) bulb.brightness = brightness;
      if (kelvin !== undefined) bulb.kelvin = kelvin;
    }
    if (change.brightness !== undefined) bulb.brightness = change.brightness;
  }

  function full(bulb: Bulb, patch: HsbkPatch | undefined): Hsbk {
    return {
      hue: patch?.hue ?? bulb.hue,
      saturation: patch?.saturation ?? bulb.saturation,
      brightness: patch?.brightness ?? bulb.brightness,
      kelvin: patch?.kelvin ?? bulb.kelvin,
    };
  }

  async function plugin(app: FastifyInstance): Promise<void> {
    app.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string' },
      (_request, body, done) => {
        done(null, Object.fromEntries(new URLSearchParams(body as string)));
      },
    );

    app.get('/', async (_request, reply) => sendLightsPage(reply, 'LIFX simulator'));
    app.get('/_control/bulbs', async () => ({ bulbs: control.bulbs() }));
    app.get('/_control/requests', async () => ({ requests: control.requests() }));
    app.post('/_control/reset', async () => {
      control.reset();
      return { ok: true };
    });
    app.post('/_control/fail', async (request, reply) => {
      const body = asBody(request.body);
      const status = body.status === 'hang' ? 'hang' : Number(body.status);
      if (status !== 'hang' && !(status >= 400 && status < 600))
        return reply.code(400).send({ error: 'status must be an HTTP error code or "hang"' });
      control.failNext({
        status,
        times: typeof body.times === 'number' ? body.times : 1,
        delayMs: typeof body.delayMs === 'number' ? body.delayMs : undefined,
      });
      return { ok: true };
    });
    app.put('/_control/bulbs/:id', async (request, reply) => {
      const { id } = request.params as { id: string };
      const body = asBody(request.body);
      if (!bulbs.some((b) => b.id === id)) return reply.code(404).send({ error: 'no such bulb' });
      if (typeof body.connected === 'boolean') control.setConnected(id, body.connected);
      return control.bulb(id);
    });
    app.post('/_control/revoke-token', async (request, reply) => {
      const token = asBody(request.body).token;
      if (typeof token !== 'string' || !control.revokeToken(token))
        return reply.code(404).send({ error: 'unknown token' });
      return { ok: true };
    });
    app.post('/_control/rate-limit', async (request, reply) => {
      const body = asBody(request.body);
      if (typeof body.max !== 'number' || typeof body.windowMs !== 'number')
        return reply.code(400).send({ error: 'max and windowMs are numbers' });
      control.setRateLimit({ max: body.max, windowMs: body.windowMs });
      return { ok: true };
    });

    app.register(async (api) => {
      const prefixLength = app.prefix.length;
      api.addHook('onResponse', async (request, reply) => {
        log.push({
          method: request.method,
          path: safeDecode(request.url.slice(prefixLength).split('?')[0] ?? ''),
          at: (request as FastifyRequest & { receivedAt?: number }).receivedAt ?? now(),
          status: reply.statusCode,
          body: request.body ?? null,
        });
        if (log.length > 100_000) log.splice(0, 50_000);
      });
      api.addHook('onRequest', async (request, reply) => {
        (request as FastifyRequest & { receivedAt?: number }).receivedAt = now();
        const token = tokenOf(request);
        if (!token || !tokens.has(token)) return reply.code(401).send({ error: 'Invalid credentials' });
        const at = now();
        let window = windows.get(token);
        if (!window || at >= window.resetAtSec * 1000) {
          window = { resetAtSec: Math.ceil((at + limit.windowMs) / 1000), used: 0 };
          windows.set(token, window);
        }
        window.used += 1;
        const remaining = Math.max(0, limit.max - window.used);
        reply.header('X-RateLimit-Limit', String(limit.max));
        reply.header('X-RateLimit-Remaining', String(remaining));
        reply.header('X-RateLimit-Reset', String(window.resetAtSec));
        if (window.used > limit.max)
          return reply.code(429).send({ error: 'Rate limit exceeded. Please slow down.' });
        const failure = failures[0];
        if (failure) {
          failure.remaining -= 1;
          if (failure.remaining <= 0) failures.shift();
          if (failure.status === 'hang') {
            await delay(failure.delayMs ?? 35_000);
            return;
          }
          return reply
            .code(failure.status)
            .send({ error: failure.status >= 500 ? 'Service temporarily unavailable' : 'Request failed' });
        }
      });

      // Wildcards, not `:selector`: a 25-id selector is ~400 characters, beyond Fastify's param limit.
      api.get('/v1/lights/*', async (request, reply) => {
        const match = matchSelector(bulbs, (request.params as { '*': string })['*']);
        if (!match.ok) return reply.code(match.status).send({ error: match.error });
        return match.bulbs.map(apiJson);
      });

      api.get('/v1/color', async (request, reply) => {
        const parsed = parseLifxColor((request.query as Body).string);
        if (!parsed.ok) return unprocessable(reply, 'string', parsed.error);
        const v = parsed.value;
        return {
          hue: v.hue ?? null,
          saturation: v.saturation ?? null,
          brightness: v.brightness ?? null,
          kelvin: v.kelvin ?? null,
        };
      });

      api.put('/v1/lights/states', async (request, reply) => {
        const body = asBody(request.body);
        if (!Array.isArray(body.states) || body.states.length === 0)
          return unprocessable(reply, 'states', 'states is missing');
        if (body.states.length > 50)
          return unprocessable(reply, 'states', 'states must contain at most 50 entries');
        const defaults = asBody(body.defaults);
        const operations: { merged: Body; state: StateChange; bulbs: Bulb[] }[] = [];
        for (const entry of body.states) {
          const merged = { ...defaults, ...asBody(entry) };
          if (typeof merged.selector !== 'string')
            return unprocessable(reply, 'selector', 'selector is missing');
          const checked = validateState(merged);
          if (!checked.ok) return unprocessable(reply, checked.field, checked.error);
          const match = matchSelector(bulbs, merged.selector);
          operations.push({ merged, state: checked.value, bulbs: match.ok ? match.bulbs : [] });
        }
        for (const op of operations) for (const bulb of op.bulbs) applyState(bulb, op.state);
        return reply
          .code(207)
          .send({ results: operations.map((op) => ({ operation: op.merged, results: results(op.bulbs) })) });
      });

      api.put('/v1/lights/*', async (request, reply) => {
        const rest = (request.params as { '*': string })['*'];
        if (!rest.endsWith('/state')) return reply.code(404).send({ error: 'Not found' });
        const match = matchSelector(bulbs, rest.slice(0, -'/state'.length));
        if (!match.ok) return reply.code(match.status).send({ error: match.error });
        const checked = validateState(asBody(request.body));
        if (!checked.ok) return unprocessable(reply, checked.field, checked.error);
        for (const bulb of match.bulbs) applyState(bulb, checked.value);
        if (checked.value.fast) return reply.code(202).send();
        const warnings = Object.keys(checked.warnings).length
          ? { warnings: [{ warning: 'Unknown params', unknown_params: checked.warnings }] }
          : {};
        return reply.code(207).send({ results: results(match.bulbs), ...warnings });
      });

      api.post('/v1/lights/*', async (request, reply) => {
        const rest = /^(.+)\/effects\/([^/]+)$/.exec((request.params as { '*': string })['*']);
        if (!rest) return reply.code(404).send({ error: 'Not found' });
        const [, selector = '', effect = ''] = rest;
        if (effect !== 'pulse' && effect !== 'breathe' && effect !== 'off')
          return reply.code(404).send({ error: `Unknown effect '${effect}'` });
        const match = matchSelector(bulbs, selector);
        if (!match.ok) return reply.code(match.status).send({ error: match.error });
        const body = asBody(request.body);
        if (effect === 'off') {
          for (const bulb of match.bulbs) {
            bulb.effect = null;
            if (body.power_off === true) bulb.power = 'off';
          }
          return reply.code(207).send({ results: results(match.bulbs) });
        }
        const color = parseLifxColor(body.color);
        if (!color.ok) return unprocessable(reply, 'color', color.error);
        const from = body.from_color === undefined ? null : parseLifxColor(body.from_color);
        if (from && !from.ok) return unprocessable(reply, 'from_color', from.error);
        const number = (key: string, fallback: number, min: number, max = Infinity) => {
          const v = body[key] ?? fallback;
          return typeof v === 'number' && v >= min && v <= max ? v : null;
        };
        const period = number('period', 1, 0.001);
        const cycles = number('cycles', 1, 0.001);
        const peak = number('peak', 0.5, 0, 1);
        for (const [key, value] of [
          ['period', period],
          ['cycles', cycles],
          ['peak', peak],
        ] as const)
          if (value === null) return unprocessable(reply, key, `${key} is out of range`);
        for (const key of ['persist', 'power_on'])
          if (body[key] !== undefined && typeof body[key] !== 'boolean')
            return unprocessable(reply, key, `${key} must be a boolean`);
        const known = new Set(['color', 'from_color', 'period', 'cycles', 'persist', 'power_on', 'peak']);
        const unknown = Object.fromEntries(Object.entries(body).filter(([key]) => !known.has(key)));
        for (const bulb of match.bulbs) {
          if (!bulb.connected) continue;
          if (bulb.power === 'off' && body.power_on === false) continue;
          bulb.effect = {
            kind: effect,
            color: full(bulb, color.value),
            from: from?.ok ? full(bulb, from.value) : full(bulb, undefined),
            periodMs: (period ?? 1) * 1000,
            cycles: cycles ?? 1,
            persist: body.persist === true,
            peak: peak ?? 0.5,
            startedAt: now(),
          };
          bulb.power = 'on';
        }
        const warnings = Object.keys(unknown).length
          ? { warnings: [{ warning: 'Unknown params', unknown_params: unknown }] }
          : {};
        return reply.code(207).send({ results: results(match.bulbs), ...warnings });
      });
    });
  }

  return { plugin, control };
}

export interface RunningLifxSim {
  /** Origin; the API is `${url}/v1`, the control routes `${url}/_control`. */
  url: string;
  control: LifxSimControl;
  close(): Promise<void>;
}

/** Runs the LIFX simulator on its own port (tests, bench). */
export async function startLifxSim(
  options: LifxSimOptions & { port?: number } = {},
): Promise<RunningLifxSim> {
  const sim = createLifxSim(options);
  const app = Fastify({ forceCloseConnections: true });
  await app.register(sim.plugin);
  const url = await app.listen({ port: options.port ?? 0, host: '127.0.0.1' });
  return { url, control: sim.control, close: () => app.close() };
}
