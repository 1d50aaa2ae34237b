import { type FastifyInstance, type FastifyReply } from 'fastify';
import { type Clock } from '../shared/clock.js';
import { type Bulb, matchSelector, settleEffect } from './bulbs.js';
import { parseLifxColor } from './colors.js';
import { applyState, fillHsbk, type StateChange, validateState } from './state-change.js';
import { asBody, type LifxState } from './state.js';

type Body = Record<string, unknown>;

function toApiBulb(bulb: Bulb, now: Clock) {
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

/** The `/v1` routes of the LIFX HTTP API (reference §2); register after `registerLifxApiGuard`. */
export function registerLifxApiRoutes(api: FastifyInstance, state: LifxState, now: Clock): void {
  // Wildcards, not `:selector`: a 25-id selector is ~400 characters, beyond Fastify's param limit.
  api.get('/v1/lights/*', async (request, reply) => {
    const match = matchSelector(state.bulbs, (request.params as { '*': string })['*']);
    if (!match.ok) return reply.code(match.status).send({ error: match.error });
    return match.bulbs.map((bulb) => toApiBulb(bulb, now));
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
      if (typeof merged.selector !== 'string') return unprocessable(reply, 'selector', 'selector is missing');
      const checked = validateState(merged);
      if (!checked.ok) return unprocessable(reply, checked.field, checked.error);
      const match = matchSelector(state.bulbs, merged.selector);
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
    const match = matchSelector(state.bulbs, rest.slice(0, -'/state'.length));
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
    const match = matchSelector(state.bulbs, selector);
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
        color: fillHsbk(bulb, color.value),
        from: from?.ok ? fillHsbk(bulb, from.value) : fillHsbk(bulb, undefined),
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
}
