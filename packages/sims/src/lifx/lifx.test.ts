import { afterAll, beforeEach, describe, expect, test } from 'vitest';
import { parseLifxColor } from './colors.js';
import { startLifxSim, type RunningLifxSim } from './server.js';

const auth = { Authorization: 'Bearer demo-token' };
const json = { ...auth, 'Content-Type': 'application/json' };

async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = json) {
  const res = await fetch(`${sim.url}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? (JSON.parse(text) as unknown) : null };
}

const sim: RunningLifxSim = await startLifxSim();
afterAll(() => sim.close());
beforeEach(() => sim.control.reset());

describe('LIFX simulator: lights and selectors', () => {
  test('12 bulbs with the real object shape', async () => {
    const res = await call('GET', '/v1/lights/all', undefined, auth);
    expect(res.status).toBe(200);
    const lights = res.body as Record<string, unknown>[];
    expect(lights).toHaveLength(12);
    expect(lights[0]).toMatchObject({
      id: expect.stringMatching(/^d073d5[0-9a-f]{6}$/),
      uuid: expect.any(String),
      label: 'Lamp',
      connected: true,
      power: 'on',
      color: { hue: expect.any(Number), saturation: expect.any(Number), kelvin: 3500 },
      brightness: expect.any(Number),
      group: { id: expect.any(String), name: 'Living Room' },
      location: { id: expect.any(String), name: 'Home' },
      product: { name: expect.any(String), capabilities: { has_color: true } },
    });
  });

  test('selectors: id list, label, group, random; no match is 404; more than 25 parts is 422', async () => {
    const [a, b] = sim.control.bulbs();
    const list = await call('GET', `/v1/lights/id:${a!.id},id:${b!.id}`, undefined, auth);
    expect((list.body as { id: string }[]).map((l) => l.id)).toEqual([a!.id, b!.id]);
    expect((await call('GET', '/v1/lights/label:Desk', undefined, auth)).body).toHaveLength(1);
    expect((await call('GET', '/v1/lights/group:Office', undefined, auth)).body).toHaveLength(3);
    expect((await call('GET', '/v1/lights/all:random', undefined, auth)).body).toHaveLength(1);
    const missing = await call('GET', '/v1/lights/id:ffffffffffff', undefined, auth);
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ error: expect.stringContaining('Could not find light') });
    const many = Array.from({ length: 26 }, () => `id:${a!.id}`).join(',');
    expect((await call('GET', `/v1/lights/${many}`, undefined, auth)).status).toBe(422);
  });

  test('401 for a missing or wrong token; Basic auth with the token as user name works', async () => {
    expect((await call('GET', '/v1/lights/all', undefined, {})).status).toBe(401);
    expect((await call('GET', '/v1/lights/all', undefined, { Authorization: 'Bearer nope' })).status).toBe(
      401,
    );
    const basic = { Authorization: `Basic ${Buffer.from('demo-token:').toString('base64')}` };
    expect((await call('GET', '/v1/lights/all', undefined, basic)).status).toBe(200);
  });
});

describe('LIFX simulator: state and effects', () => {
  test('PUT state answers 207 per light and the state reads back', async () => {
    const [bulb] = sim.control.bulbs();
    const res = await call('PUT', `/v1/lights/id:${bulb!.id}/state`, {
      power: 'on',
      color: 'hue:120 saturation:1',
      brightness: 0.5,
      duration: 0.2,
      fast: false,
    });
    expect(res.status).toBe(207);
    expect(res.body).toEqual({ results: [{ id: bulb!.id, label: 'Lamp', status: 'ok' }] });
    expect(sim.control.bulb(bulb!.id)).toMatchObject({
      power: 'on',
      color: { hue: 120, saturation: 1 },
      brightness: 0.5,
      hex: '#008000',
    });
  });

  test('fast=true answers 202 with no body; unknown params give warnings', async () => {
    const [bulb] = sim.control.bulbs();
    expect((await call('PUT', `/v1/lights/id:${bulb!.id}/state`, { power: 'off', fast: true })).status).toBe(
      202,
    );
    expect(sim.control.bulb(bulb!.id)?.on).toBe(false);
    const res = await call('PUT', `/v1/lights/id:${bulb!.id}/state`, { power: 'on', foo: 'bar' });
    expect(res.body).toMatchObject({
      warnings: [{ warning: 'Unknown params', unknown_params: { foo: 'bar' } }],
    });
  });

  test('a bad colour is 422 with {error, errors}', async () => {
    const res = await call('PUT', '/v1/lights/all/state', { color: 'mauve' });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      error: 'Unable to parse color: mauve',
      errors: [{ field: 'color', message: ['Unable to parse color: mauve'] }],
    });
    expect((await call('PUT', '/v1/lights/all/state', { brightness: 2 })).status).toBe(422);
  });

  test('an offline bulb reports offline in the multi-status', async () => {
    const [a, b] = sim.control.bulbs();
    sim.control.setConnected(b!.id, false);
    const res = await call('PUT', `/v1/lights/id:${a!.id},id:${b!.id}/state`, { power: 'on' });
    expect((res.body as { results: { status: string }[] }).results.map((r) => r.status)).toEqual([
      'ok',
      'offline',
    ]);
  });

  test('batch PUT /lights/states merges defaults and answers 207 per operation', async () => {
    const [a, b] = sim.control.bulbs();
    const res = await call('PUT', '/v1/lights/states', {
      states: [{ selector: `id:${a!.id}`, color: 'red' }, { selector: `id:${b!.id}` }],
      defaults: { power: 'on', color: 'yellow', brightness: 1 },
    });
    expect(res.status).toBe(207);
    expect(res.body).toMatchObject({
      results: [
        { operation: { selector: `id:${a!.id}`, color: 'red' }, results: [{ id: a!.id, status: 'ok' }] },
        { operation: { color: 'yellow' }, results: [{ id: b!.id, status: 'ok' }] },
      ],
    });
    expect(sim.control.bulb(a!.id)?.hex).toBe('#ff0000');
    expect(sim.control.bulb(b!.id)?.hex).toBe('#ffff00');
    expect((await call('PUT', '/v1/lights/states', {})).status).toBe(422);
  });

  test('pulse runs as an effect and needs a colour; off stops it', async () => {
    const [bulb] = sim.control.bulbs();
    const body = {
      power_on: true,
      color: 'red',
      from_color: 'brightness:0',
      period: 10,
      cycles: 2,
      mode: 'strobe',
    };
    const res = await call('POST', `/v1/lights/id:${bulb!.id}/effects/pulse`, body);
    expect(res.status).toBe(207);
    expect(res.body).toMatchObject({ warnings: [{ unknown_params: { mode: 'strobe' } }] });
    expect(sim.control.bulb(bulb!.id)?.effect).toBe('pulse');
    const missing = await call('POST', `/v1/lights/id:${bulb!.id}/effects/breathe`, { period: 1 });
    expect(missing).toMatchObject({ status: 422, body: { error: 'color is missing' } });
    await call('POST', `/v1/lights/id:${bulb!.id}/effects/off`, {});
    expect(sim.control.bulb(bulb!.id)?.effect).toBeNull();
  });
});

describe('LIFX simulator: rate limit, log, control', () => {
  test('X-RateLimit headers on every answer; 429 once the budget is spent', async () => {
    sim.control.setRateLimit({ max: 3, windowMs: 60_000 });
    const seen: (string | null)[] = [];
    for (let i = 0; i < 3; i += 1) {
      const res = await call('GET', '/v1/lights/all', undefined, auth);
      expect(res.status).toBe(200);
      seen.push(res.headers.get('x-ratelimit-remaining'));
    }
    expect(seen).toEqual(['2', '1', '0']);
    const over = await call('GET', '/v1/lights/all', undefined, auth);
    expect(over.status).toBe(429);
    expect(over.headers.get('x-ratelimit-limit')).toBe('3');
    expect(Number(over.headers.get('x-ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000);
  });

  test('the request log has timestamps; control routes and the page are not logged', async () => {
    await call('GET', '/v1/lights/all', undefined, auth);
    const page = await fetch(`${sim.url}/`);
    expect(await page.text()).toContain('LIFX simulator');
    const bulbs = await call('GET', '/_control/bulbs', undefined, {});
    expect((bulbs.body as { bulbs: unknown[] }).bulbs).toHaveLength(12);
    const log = sim.control.requests();
    expect(log).toEqual([
      { method: 'GET', path: '/v1/lights/all', at: expect.any(Number), status: 200, body: null },
    ]);
  });

  test('failNext makes the next requests fail with a status', async () => {
    sim.control.failNext({ status: 503, times: 2 });
    expect((await call('GET', '/v1/lights/all', undefined, auth)).status).toBe(503);
    expect((await call('GET', '/v1/lights/all', undefined, auth)).status).toBe(503);
    expect((await call('GET', '/v1/lights/all', undefined, auth)).status).toBe(200);
  });
});

describe('LIFX colour strings (reference §2.3)', () => {
  test.each([
    ['red', { hue: 0, saturation: 1 }],
    ['white', { saturation: 0 }],
    ['hue:120 saturation:1.0 brightness:0.5', { hue: 120, saturation: 1, brightness: 0.5 }],
    ['kelvin:2700', { kelvin: 2700, saturation: 0 }],
    ['#ff0000', { hue: 0, saturation: 1, brightness: 1 }],
    ['rgb:255,255,0', { hue: 60, saturation: 1, brightness: 1 }],
    ['red brightness:1', { hue: 0, saturation: 1, brightness: 1 }],
  ])('%s', (input, expected) => {
    expect(parseLifxColor(input)).toEqual({ ok: true, value: expected });
  });

  test.each(['', 'mauve', 'hue:400', 'saturation:2', 'kelvin:100', 'rgb:1,2', '#12345'])(
    'rejects %j',
    (input) => {
      expect(parseLifxColor(input).ok).toBe(false);
    },
  );

  test('a revoked token gets 401 until reset', async () => {
    const revoke = await fetch(`${sim.url}/_control/revoke-token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ token: 'demo-token' }),
    });
    expect(revoke.status).toBe(200);
    expect((await fetch(`${sim.url}/v1/lights/all`, { headers: auth })).status).toBe(401);
    sim.control.reset();
    expect((await fetch(`${sim.url}/v1/lights/all`, { headers: auth })).status).toBe(200);
  });
});
