import { DEMO_GOVEE_API_KEY, type GoveeSimControl, type HueSimControl } from '@flaglight/sims';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { paced } from '../../../scripts/test-pace.mjs';
import { HUE_LIGHT_GONE } from '../src/hue/room-states.js';
import { buildTestApp, dialects, type TestApp } from './helper.js';

// "As it was" for the cloud lights the server plays: each light read before a session changes it
// and given back afterwards, against the Hue (remote API) and Govee cloud simulators over HTTP.

/** The user's part on the Hue simulator's authorize page: Allow, then where Hue sends the browser. */
async function authorizeOnSim(authUrl: string, simOrigin: string): Promise<string> {
  const url = new URL(authUrl);
  const html = await (await fetch(`${simOrigin}${url.pathname}${url.search}`)).text();
  const form = new URLSearchParams();
  for (const m of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g))
    form.set(
      m[1]!,
      m[2]!.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code))),
    );
  form.set('decision', 'allow');
  const decisionUrl = new URL('decision', `${simOrigin}${url.pathname}`);
  const res = await fetch(`${decisionUrl.toString()}?${form.toString()}`, { redirect: 'manual' });
  const back = new URL(res.headers.get('location')!);
  return `${back.pathname}${back.search}`;
}

describe.each(dialects)('cloud lights given back as they were (%s)', (dialect) => {
  let t: TestApp;
  let hue: HueSimControl;
  let govee: GoveeSimControl;
  let token = '';

  const call = (method: 'GET' | 'POST', url: string, payload?: object, headers: object = {}) =>
    t.app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${token}`, ...headers },
      ...(payload ? { payload } : {}),
    });

  beforeAll(async () => {
    t = await buildTestApp({ dialect, env: { AUTH_RATE_LIMIT_PER_MINUTE: '1000' } });
    hue = t.context.sims!.hue.control;
    govee = t.context.sims!.govee.control;
    const signup = await t.app.inject({
      method: 'POST',
      url: '/auth/signup',
      payload: {
        email: `room-${dialect}@example.com`,
        password: 'Sunday!Race1',
        plan: 'trial',
        turnstileToken: t.context.sims!.turnstile.control.issueToken(),
      },
    });
    token = signup.json().token as string;
    // Hue: OAuth through the simulator's page, then an application key.
    const start = await call('GET', '/auth/hue/start');
    const cookie = String(start.headers['set-cookie']).split(';')[0]!;
    const back = await authorizeOnSim(start.json().authUrl as string, t.context.sims!.origin);
    await t.app.inject({ method: 'GET', url: back, headers: { cookie } });
    expect((await call('POST', '/hue/create-app-key')).statusCode).toBe(200);
    expect((await call('POST', '/api/govee/connect', { apiKey: DEMO_GOVEE_API_KEY })).statusCode).toBe(200);
  });
  afterAll(() => t.close());

  test('Hue: each light read (one off, one dimmed), changed by a flag, and put back as it was', async () => {
    const lights = hue.lights();
    const ids = lights.map((l) => l.id);
    const before = lights.map(({ on, brightness, xy }) => ({ on, brightness, xy }));
    expect(before.some((l) => !l.on)).toBe(true);

    const read = await call('POST', '/hue/lights/read-states', { lightIds: ids });
    expect(read.statusCode).toBe(200);
    const saved = read.json().lights as Record<string, { readable: true; on: boolean; state: object }>;
    expect(saved[ids[1]!]).toEqual({
      readable: true,
      on: false,
      // The simulator's view says 0–1; CLIP v2 says percent.
      state: { on: false, brightness: before[1]!.brightness * 100, xy: before[1]!.xy },
    });

    expect((await call('POST', '/hue/lights/flag', { lightIds: ids, flag: 'green' })).statusCode).toBe(200);
    await vi.waitFor(() => expect(hue.lights().every((l) => l.on)).toBe(true), { timeout: paced(5000) });

    const restored = await call('POST', '/hue/lights/restore-states', {
      lights: ids.map((id) => ({ id, state: saved[id]!.state })),
    });
    expect(restored.json()).toEqual({ restored: ids, left: [] });
    // Green's own steps are over or stopped: nothing undoes the give-back a moment later.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const after = hue.lights().map(({ on, brightness, xy }) => ({ on, brightness, xy }));
    for (const [i, was] of before.entries()) {
      expect(after[i]!.on).toBe(was.on);
      if (!was.on) continue;
      expect(after[i]!.brightness).toBeCloseTo(was.brightness, 1);
      expect(after[i]!.xy.x).toBeCloseTo(was.xy.x, 2);
      expect(after[i]!.xy.y).toBeCloseTo(was.xy.y, 2);
    }
  });

  test('Hue: a light the bridge no longer lists cannot be read; a bad saved state is a 400', async () => {
    const [first] = hue.lights();
    hue.removeLight(first!.id);
    const unknown = '00000000-0000-4000-8000-000000000000';
    const read = await call('POST', '/hue/lights/read-states', { lightIds: [unknown] });
    expect(read.json().lights[unknown]).toEqual({ readable: false, reason: HUE_LIGHT_GONE });
    const bad = await call('POST', '/hue/lights/restore-states', {
      lights: [{ id: unknown, state: { on: true, brightness: 140 } }],
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('brightness must be from 0 to 100');
  });

  test('Govee: each device read with one state call, and given back (power, colour or white, brightness) after a flag', async () => {
    const devices = govee.devices().slice(0, 4);
    const ids = devices.map((d) => d.device);
    const before = ids.map((id) => govee.device(id)!);
    expect(before.some((d) => !d.on)).toBe(true);
    govee.resetRequests();

    const read = await call('POST', '/api/govee/lights/read-states', { lightIds: ids });
    expect(read.statusCode).toBe(200);
    const saved = read.json().lights as Record<string, { readable: true; on: boolean; state: object }>;
    expect(govee.requests().filter((r) => r.path.endsWith('/device/state'))).toHaveLength(4);
    expect(saved[ids[1]!]).toMatchObject({ readable: true, on: false });

    await call('POST', '/api/govee/lights/flag', { lightIds: ids, flag: 'red' });
    await vi.waitFor(() => expect(ids.every((id) => govee.device(id)!.hex === '#ff0000')).toBe(true), {
      timeout: paced(8000),
    });

    const restored = await call('POST', '/api/govee/lights/restore-states', {
      lights: ids.map((id) => ({ id, state: saved[id]!.state })),
    });
    expect(restored.json()).toEqual({ restored: ids, left: [] });
    await vi.waitFor(
      () =>
        expect(ids.map((id) => govee.device(id)!)).toEqual(
          before.map((was) =>
            expect.objectContaining(
              was.on ? { on: true, hex: was.hex, brightness: was.brightness } : { on: false },
            ),
          ),
        ),
      { timeout: paced(8000) },
    );
  });

  test('Govee: a device in white 2700 K is read as its white, driven red, and given back in white at 2700 K', async () => {
    const white = govee.devices()[0]!;
    expect(white).toMatchObject({ on: true, colorTemK: 2700, brightness: 60 });
    const id = white.device;
    const read = await call('POST', '/api/govee/lights/read-states', { lightIds: [id] });
    expect(read.json().lights[id]).toEqual({
      readable: true,
      on: true,
      state: { on: true, kelvin: 2700, brightness: 60 },
    });

    await call('POST', '/api/govee/lights/flag', { lightIds: [id], flag: 'red' });
    await vi.waitFor(() => expect(govee.device(id)).toMatchObject({ colorTemK: 0, hex: '#ff0000' }), {
      timeout: paced(8000),
    });

    govee.resetRequests();
    const restored = await call('POST', '/api/govee/lights/restore-states', {
      lights: [{ id, state: read.json().lights[id].state }],
    });
    expect(restored.json()).toEqual({ restored: [id], left: [] });
    await vi.waitFor(
      () =>
        expect(govee.device(id)).toMatchObject({ on: true, colorTemK: 2700, brightness: 60, hex: white.hex }),
      { timeout: paced(8000) },
    );
    const sent = govee
      .requests()
      .filter((r) => r.path.endsWith('/device/control'))
      .map(
        (r) =>
          (r.body as { payload: { capability: { instance: string; value: number } } }).payload.capability,
      );
    expect(sent).toContainEqual(expect.objectContaining({ instance: 'colorTemperatureK', value: 2700 }));
    expect(sent.map((c) => c.instance)).not.toContain('colorRgb');
  });

  test('Govee: a saved white outside what a device takes is a 400', async () => {
    const id = govee.devices()[0]!.device;
    const bad = await call('POST', '/api/govee/lights/restore-states', {
      lights: [{ id, state: { on: true, kelvin: 50_000 } }],
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('kelvin must be a whole number from 1000 to 10000');
  });

  test('Govee: an offline device cannot be read and says so', async () => {
    const id = govee.devices()[2]!.device;
    govee.setOnline(id, false);
    const read = await call('POST', '/api/govee/lights/read-states', { lightIds: [id] });
    expect(read.json().lights[id]).toMatchObject({
      readable: false,
      reason: expect.stringContaining('offline'),
    });
    govee.setOnline(id, true);
  });
});
