import Fastify from 'fastify';
import { afterEach, describe, expect, test } from 'vitest';
import { HOME_ASSISTANT_DEMO_TOKEN, startHomeAssistantSim, type HomeAssistantSim } from './home-assistant.js';
import { startLanSim } from './sim.js';

let sim: HomeAssistantSim | null = null;
afterEach(async () => {
  await sim?.close();
  sim = null;
});

async function call(method: string, path: string, body?: unknown, token = HOME_ASSISTANT_DEMO_TOKEN) {
  const response = await fetch(`${sim!.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = null;
  }
  return { status: response.status, text, json };
}

describe('simulated Home Assistant REST API', () => {
  test('a token is needed everywhere: none or a wrong one is 401 "401: Unauthorized"', async () => {
    sim = await startHomeAssistantSim();
    expect(await call('GET', '/api/')).toMatchObject({ status: 200, json: { message: 'API running.' } });
    expect(await call('GET', '/api/', undefined, 'wrong')).toMatchObject({
      status: 401,
      text: '401: Unauthorized',
    });
    expect(await call('GET', '/api/states', undefined, 'wrong')).toMatchObject({ status: 401 });
  });

  test('states list six lights of mixed colour modes among other entities; the template gives their areas', async () => {
    sim = await startHomeAssistantSim();
    const states = (await call('GET', '/api/states')).json as {
      entity_id: string;
      attributes: Record<string, unknown>;
    }[];
    const lights = states.filter((s) => s.entity_id.startsWith('light.'));
    expect(lights).toHaveLength(6);
    expect(states.length).toBeGreaterThan(6);
    expect(lights.find((l) => l.entity_id === 'light.hallway_ceiling')!.attributes).toMatchObject({
      supported_color_modes: ['color_temp'],
      min_color_temp_kelvin: 2200,
      max_color_temp_kelvin: 6500,
    });
    const template = await call('POST', '/api/template', { template: '{{ area_name("light.x") }}' });
    expect(JSON.parse(template.text)).toContainEqual(['light.garage_dimmer', null]);
    expect(JSON.parse(template.text)).toContainEqual(['light.kitchen_strip', 'Kitchen']);
    expect((await call('GET', '/api/states/light.nope')).status).toBe(404);
  });

  test("service calls follow HA's schema and conversions", async () => {
    sim = await startHomeAssistantSim();
    const on = (body: unknown) => call('POST', '/api/services/light/turn_on', body);
    expect(
      (await on({ entity_id: 'light.kitchen_strip', rgb_color: [255, 0, 0], hs_color: [0, 100] })).status,
    ).toBe(400);
    expect((await on({ entity_id: 'light.kitchen_strip', color_temp: 300 })).status).toBe(400);
    expect((await on({ entity_id: 'light.kitchen_strip', kelvin: 3000 })).status).toBe(400);
    expect((await call('POST', '/api/services/light/turn_on', '{not json')).json).toEqual({
      message: 'Data should be valid JSON.',
    });
    expect((await call('POST', '/api/services/light/blink', { entity_id: 'light.porch' })).status).toBe(400);
    // Unknown entity: logged by HA, answered 200 with nothing changed.
    expect(await on({ entity_id: 'light.nope', brightness: 10 })).toMatchObject({ status: 200, json: [] });
    const answer = await on({
      entity_id: 'light.kitchen_strip',
      rgb_color: [0, 255, 0],
      brightness: 128,
      flash: 'short',
    });
    expect(answer.status).toBe(200);
    expect(sim.light('light.kitchen_strip')).toMatchObject({
      state: 'on',
      brightness: 128,
      hex: '#008000',
      lastFlash: null,
    });
    // Colour-temperature only: a colour becomes a (meaningless) temperature, never an error.
    await on({ entity_id: 'light.hallway_ceiling', rgb_color: [255, 0, 0] });
    const kelvin = sim.light('light.hallway_ceiling')!.kelvin!;
    expect(kelvin).not.toBe(4000);
    expect(kelvin).toBeGreaterThanOrEqual(2200);
    expect(kelvin).toBeLessThanOrEqual(6500);
    // Brightness only: the colour is dropped.
    await on({ entity_id: 'light.garage_dimmer', rgb_color: [255, 0, 0], brightness: 40 });
    expect(sim.light('light.garage_dimmer')).toMatchObject({ state: 'on', brightness: 40, hs: null });
    await call('POST', '/api/services/light/turn_off', { entity_id: ['light.garage_dimmer'], transition: 0 });
    expect(sim.light('light.garage_dimmer')!.state).toBe('off');
  });
});

describe('LAN simulator: Home Assistant beside the other brands', () => {
  test('state names its URL and demo token; control routes set its faults', async () => {
    const lan = await startLanSim({ lifxCount: 1, nanoleafCount: 0 });
    const app = Fastify();
    await app.register(lan.plugin);
    try {
      const state = (await app.inject({ url: '/state' })).json<{
        homeAssistant: { url: string; token: string };
      }>();
      expect(state.homeAssistant.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(state.homeAssistant.token).toBe(HOME_ASSISTANT_DEMO_TOKEN);
      const inject = (url: string, payload: unknown) =>
        app.inject({ method: 'POST', url, payload: payload as object });
      expect((await inject('/_control/home-assistant/fault', { down: true, delayMs: 20 })).statusCode).toBe(
        200,
      );
      expect(lan.homeAssistant.view().fault).toMatchObject({ down: true, delayMs: 20 });
      expect((await inject('/_control/home-assistant/fault', { down: 'yes' })).statusCode).toBe(400);
      await inject('/_control/home-assistant/fault', { down: false, delayMs: 0 });
      expect(
        (await inject('/_control/home-assistant/unavailable', { unavailable: true })).json(),
      ).toMatchObject({
        light: { entityId: 'light.porch', state: 'unavailable' },
      });
      await inject('/_control/home-assistant/revoke-token', {});
      const revoked = await fetch(`${state.homeAssistant.url}/api/`, {
        headers: { authorization: `Bearer ${HOME_ASSISTANT_DEMO_TOKEN}` },
      });
      expect(revoked.status).toBe(401);
      await inject('/_control/home-assistant/restore-token', {});
      const bulbs = (await app.inject({ url: '/_control/bulbs' })).json<{
        bulbs: { label: string; effect: string | null }[];
      }>();
      expect(bulbs.bulbs.find((b) => b.label.startsWith('Home Assistant Porch light'))?.effect).toBe(
        'unavailable',
      );
    } finally {
      await app.close();
      await lan.close();
    }
  });
});
