import { COLOR_PRESETS, type LightColor } from '@flaglight/core';
import { HOME_ASSISTANT_DEMO_TOKEN, startHomeAssistantSim, type HomeAssistantSim } from '@flaglight/sims';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { paced } from '../../../../../scripts/test-pace.mjs';
import type { DriverEvent, LightStateCommand } from '../../driver.js';
import { createHomeAssistantDriver, type HomeAssistantDriver } from './driver.js';
import { HOME_ASSISTANT_TOKEN_REFUSED, parseHomeAssistantUrl } from './http.js';

const look = (color: LightColor, brightness = 1): LightStateCommand => ({
  on: true,
  color,
  brightness,
  transitionMs: 0,
});
const WAIT = { timeout: paced(15_000), interval: 10 };

let sim: HomeAssistantSim | null = null;
let driver: HomeAssistantDriver | null = null;
afterEach(async () => {
  await driver?.close();
  await sim?.close();
  driver = sim = null;
});

async function start(
  overrides: { token?: string; paceMs?: number; timeoutMs?: number; refreshMs?: number } = {},
) {
  sim = await startHomeAssistantSim();
  const events: DriverEvent[] = [];
  driver = createHomeAssistantDriver({
    url: sim.url,
    token: overrides.token ?? HOME_ASSISTANT_DEMO_TOKEN,
    paceMs: overrides.paceMs ?? 60,
    probeMs: 40,
    probeMaxMs: 200,
    timeoutMs: overrides.timeoutMs ?? 1_000,
    refreshMs: overrides.refreshMs ?? 0,
  });
  driver.subscribe((event) => events.push(event));
  return { sim, driver, events };
}

describe('Home Assistant driver against the simulator: lights and the token', () => {
  test('lists the light entities with their names, areas and reachability; other domains are left out', async () => {
    const { driver } = await start();
    const devices = await driver.connect();
    expect(devices.map((d) => d.id)).toEqual([
      'light.living_room_lamp',
      'light.kitchen_strip',
      'light.office_bulb',
      'light.hallway_ceiling',
      'light.garage_dimmer',
      'light.porch',
    ]);
    expect(devices[0]).toMatchObject({
      label: 'Living room lamp',
      location: { name: 'Living room' },
      connected: true,
    });
    expect(devices[4]).toMatchObject({ label: 'Garage dimmer', location: null, type: 'dimmable' });
    expect(devices[3]!.type).toBe('white (colour temperature)');
    expect(driver.connection()).toBe('connected');
  });

  test('a wrong token is refused at GET /api/: the driver stops and says so', async () => {
    const { driver, events, sim } = await start({ token: 'not-the-token' });
    expect(await driver.connect()).toEqual([]);
    expect(driver.connection()).toBe('token-refused');
    expect(driver.problem()).toBe(HOME_ASSISTANT_TOKEN_REFUSED);
    expect(events).toContainEqual({
      type: 'disconnect',
      error: { kind: 'auth', message: HOME_ASSISTANT_TOKEN_REFUSED },
    });
    await expect(driver.setState([], look(COLOR_PRESETS.red))).rejects.toMatchObject({ kind: 'auth' });
    expect(sim.requests().map((r) => r.path)).toEqual(['/api/']);
  });
});

describe('Home Assistant driver against the simulator: looks and pacing', () => {
  test('each colour mode gets the call it can show', async () => {
    const { driver, sim } = await start();
    await driver.connect();
    await driver.setState([], look(COLOR_PRESETS.red, 0.5));
    const bodies = new Map(
      sim
        .requests()
        .filter((r) => r.path === '/api/services/light/turn_on')
        .map((r) => [r.entityIds[0], r.body as Record<string, unknown>]),
    );
    expect(bodies.get('light.kitchen_strip')).toEqual({
      entity_id: 'light.kitchen_strip',
      rgb_color: [255, 0, 0],
      brightness: 128,
      transition: 0,
    });
    expect(bodies.get('light.office_bulb')).toMatchObject({
      xy_color: [expect.any(Number), expect.any(Number)],
    });
    // White-only: red shows as the warmest white it has, never a meaningless converted temperature.
    expect(bodies.get('light.hallway_ceiling')).toMatchObject({ color_temp_kelvin: 2200, brightness: 128 });
    expect(bodies.get('light.garage_dimmer')).toEqual({ entity_id: 'light.garage_dimmer', brightness: 128 });
    expect(sim.light('light.kitchen_strip')).toMatchObject({ state: 'on', hex: '#800000' });
    expect(sim.light('light.office_bulb')!.hs![0]).toBeLessThan(10);
    await driver.setState(['light.living_room_lamp'], look(COLOR_PRESETS.white));
    expect(sim.light('light.living_room_lamp')).toMatchObject({ kelvin: 5000, hs: null });
    await driver.setState(['light.kitchen_strip'], look(COLOR_PRESETS.black));
    expect(sim.light('light.kitchen_strip')!.state).toBe('off');
  });

  test('one call in flight per entity, paced, and only the newest look is sent after it', async () => {
    const { driver, sim } = await start({ paceMs: 150 });
    await driver.connect();
    const colours = [COLOR_PRESETS.red, COLOR_PRESETS.green, COLOR_PRESETS.blue, COLOR_PRESETS.yellow];
    await Promise.all(colours.map((c) => driver.setState(['light.kitchen_strip'], look(c))));
    const calls = sim.requests().filter((r) => r.entityIds.includes('light.kitchen_strip'));
    expect(calls.map((c) => (c.body as { rgb_color: number[] }).rgb_color)).toEqual([
      [255, 0, 0],
      [255, 255, 0],
    ]);
    expect(calls[1]!.at - calls[0]!.at).toBeGreaterThanOrEqual(140);
    expect(sim.light('light.kitchen_strip')!.maxInFlight).toBe(1);
  });

  test('the pace counts from the answer: a slow call keeps the next one a whole pace behind it', async () => {
    const { driver, sim } = await start({ paceMs: 100 });
    await driver.connect();
    // Home Assistant answers once the device took the call; here that takes 200 ms.
    sim.setFault({ delayMs: 200 });
    await Promise.all([
      driver.setState(['light.kitchen_strip'], look(COLOR_PRESETS.red)),
      driver.setState(['light.kitchen_strip'], look(COLOR_PRESETS.blue)),
    ]);
    await vi.waitFor(() => expect(sim.light('light.kitchen_strip')!.calls).toBe(2), WAIT);
    const calls = sim.requests().filter((r) => r.entityIds.includes('light.kitchen_strip'));
    expect(calls).toHaveLength(2);
    // From the starts alone the second would go 100 ms after the first, as soon as it was answered.
    expect(calls[1]!.at - calls[0]!.at).toBeGreaterThanOrEqual(290);
  });
});

describe('Home Assistant driver against the simulator: strobes', () => {
  test("a strobe: one call with flash 'short' where the entity flashes, its halves at the pace elsewhere", async () => {
    const { driver, sim } = await start({ paceMs: 50 });
    await driver.connect();
    const strobe = {
      kind: 'strobe' as const,
      atMs: 0,
      color: COLOR_PRESETS.yellow,
      fromColor: COLOR_PRESETS.black,
      brightness: 1,
      periodMs: 100,
      cycles: 3,
    };
    await driver.playStep(['light.living_room_lamp', 'light.kitchen_strip'], strobe);
    const callsOf = (id: string) => sim.requests().filter((r) => r.entityIds.includes(id));
    const pathsOf = (id: string) => callsOf(id).map((r) => r.path.split('/').pop());
    // Every half, or (on a starved machine) fewer: a half that comes due while the one before is
    // still in flight is replaced by the next, as any newer look replaces a waiting one. Either
    // way the strobe ends on its last half, off, and nothing comes after it.
    await vi.waitFor(() => {
      const strip = callsOf('light.kitchen_strip');
      expect(strip.at(-1)?.path).toMatch(/turn_off$/);
      expect(strip.length === 6 || Date.now() - strip.at(-1)!.at > 600).toBe(true);
    }, WAIT);
    // The lamp lists flash in supported_features: one request, the device blinks by itself.
    expect(callsOf('light.living_room_lamp').map((r) => r.body)).toEqual([
      expect.objectContaining({ flash: 'short', rgb_color: [255, 255, 0] }),
    ]);
    expect(sim.light('light.living_room_lamp')!.lastFlash).toBe('short');
    // The strip does not: yellow and off alternate, 50 ms apart, ending off (the strobe's last half).
    const strip = callsOf('light.kitchen_strip');
    expect(strip.every((r) => !('flash' in (r.body as object)))).toBe(true);
    expect(pathsOf('light.kitchen_strip')[0]).toBe('turn_on');
    if (strip.length < 6) return;
    expect(pathsOf('light.kitchen_strip')).toEqual([
      'turn_on',
      'turn_off',
      'turn_on',
      'turn_off',
      'turn_on',
      'turn_off',
    ]);
    expect(strip.at(-1)!.at - strip[0]!.at).toBeGreaterThanOrEqual(240);
  });

  test('a newer look ends a running strobe: no half of it comes after the look', async () => {
    const { driver, sim } = await start({ paceMs: 40 });
    await driver.connect();
    const strobe = {
      kind: 'strobe' as const,
      atMs: 0,
      color: COLOR_PRESETS.red,
      fromColor: COLOR_PRESETS.black,
      brightness: 1,
      periodMs: 80,
      cycles: 10,
    };
    await driver.playStep(['light.kitchen_strip'], strobe);
    await driver.setState(['light.kitchen_strip'], look(COLOR_PRESETS.green));
    const calls = () => sim.light('light.kitchen_strip')!.calls;
    const settled = calls();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(calls()).toBe(settled);
    expect(sim.light('light.kitchen_strip')!.hex).toBe('#00ff00');
    await expect(driver.playStep([], { ...strobe, cycles: 0 })).rejects.toThrow(/period and cycles/);
  });
});

describe('Home Assistant driver against the simulator: Home Assistant or an entity not answering', () => {
  test('Home Assistant down: unreachable, probed, and the last look is sent again when it is back', async () => {
    const { driver, sim, events } = await start();
    await driver.connect();
    sim.setFault({ down: true });
    await driver.setState(['light.kitchen_strip'], look(COLOR_PRESETS.red));
    expect(driver.connection()).toBe('unreachable');
    expect(events.some((e) => e.type === 'error' && /not answering/.test(e.error.message))).toBe(true);
    expect((await driver.listDevices()).every((d) => !d.connected)).toBe(true);
    // A look while it is down is kept, and it is the one shown once Home Assistant answers.
    await driver.setState(['light.kitchen_strip'], look(COLOR_PRESETS.green));
    sim.setFault({ down: false });
    await vi.waitFor(() => expect(sim.light('light.kitchen_strip')!.hex).toBe('#00ff00'), WAIT);
    expect(driver.connection()).toBe('connected');
  });

  test('a slow Home Assistant times out, then gets the last look once it answers in time', async () => {
    const { driver, sim } = await start({ timeoutMs: 200 });
    await driver.connect();
    sim.setFault({ delayMs: 500 });
    await driver.setState(['light.porch'], look(COLOR_PRESETS.blue));
    expect(driver.connection()).toBe('unreachable');
    expect(driver.problem()).toMatch(/did not answer within/);
    sim.setFault({ delayMs: 0 });
    await vi.waitFor(() => expect(sim.light('light.porch')!.hex).toBe('#0000ff'), WAIT);
  });

  test('an entity that turns unavailable is listed so, and gets its last look when it comes back', async () => {
    const { driver, sim, events } = await start();
    await driver.connect();
    sim.setUnavailable('light.porch', true);
    await driver.discover();
    expect((await driver.listDevices()).find((d) => d.id === 'light.porch')!.connected).toBe(false);
    expect(events.some((e) => e.type === 'warning' && /Porch light is unavailable/.test(e.message))).toBe(
      true,
    );
    await driver.setState([], look(COLOR_PRESETS.yellow));
    expect(sim.light('light.porch')!.calls).toBe(0);
    expect(sim.light('light.kitchen_strip')!.hex).toBe('#ffff00');
    sim.setUnavailable('light.porch', false);
    await driver.discover();
    await vi.waitFor(() => expect(sim.light('light.porch')!.hex).toBe('#ffff00'), WAIT);
  });

  test('the states are read again on a timer: an entity that went unavailable shows without a flag', async () => {
    const { driver, sim } = await start({ refreshMs: 50 });
    await driver.connect();
    sim.setUnavailable('light.garage_dimmer', true);
    await vi.waitFor(
      async () =>
        expect((await driver.listDevices()).find((d) => d.id === 'light.garage_dimmer')!.connected).toBe(
          false,
        ),
      WAIT,
    );
  });
});

describe('Home Assistant driver against the simulator: refusals and retries', () => {
  test('a token revoked while driving: 401 stops the driver and asks for a new token', async () => {
    const { driver, sim, events } = await start();
    await driver.connect();
    sim.revokeTokens();
    await driver.setState(['light.kitchen_strip'], look(COLOR_PRESETS.red));
    expect(driver.connection()).toBe('token-refused');
    expect(events.filter((e) => e.type === 'disconnect')).toHaveLength(1);
    const before = sim.requests().length;
    await expect(driver.setState([], look(COLOR_PRESETS.green))).rejects.toMatchObject({ kind: 'auth' });
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(sim.requests().length).toBe(before);
  });

  test('a 400 for one entity names it, and the others keep following', async () => {
    const { driver, sim, events } = await start();
    await driver.connect();
    sim.setFault({ rejectEntity: 'light.office_bulb' });
    await driver.setState([], look(COLOR_PRESETS.green));
    expect(driver.entityErrors()).toEqual([
      expect.objectContaining({ entityId: 'light.office_bulb', name: 'Office bulb' }),
    ]);
    expect(
      events.some(
        (e) => e.type === 'error' && /Office bulb \(light\.office_bulb\): HTTP 400/.test(e.error.message),
      ),
    ).toBe(true);
    expect(sim.light('light.kitchen_strip')!.hex).toBe('#00ff00');
    expect(driver.connection()).toBe('connected');
    sim.setFault({ rejectEntity: null });
    await driver.setState([], look(COLOR_PRESETS.blue));
    expect(driver.entityErrors()).toEqual([]);
  });

  test('a 5xx is tried once more before it is reported', async () => {
    const { driver, sim } = await start();
    await driver.connect();
    sim.failNextServiceCalls(500, 1);
    await driver.setState(['light.kitchen_strip'], look(COLOR_PRESETS.red));
    expect(sim.light('light.kitchen_strip')).toMatchObject({ calls: 2, hex: '#ff0000' });
    expect(driver.entityErrors()).toEqual([]);
  });
});

describe('Home Assistant addresses', () => {
  test('http and https with a port and a path; other schemes, credentials and queries are refused', () => {
    expect(parseHomeAssistantUrl('http://homeassistant.local:8123/')).toBe('http://homeassistant.local:8123');
    expect(parseHomeAssistantUrl('https://ha.example.com/base/')).toBe('https://ha.example.com/base');
    expect(() => parseHomeAssistantUrl('ftp://ha')).toThrow(/http/);
    expect(() => parseHomeAssistantUrl('http://user:pw@ha:8123')).toThrow(/user name/);
    expect(() => parseHomeAssistantUrl('http://ha:8123/?x=1')).toThrow(/query/);
    expect(() => parseHomeAssistantUrl('homeassistant')).toThrow(/Not a Home Assistant address/);
  });
});
