import { createServer, type IncomingMessage, type Server } from 'node:http';
import { COLOR_PRESETS, HUE_GAMUTS } from '@flaglight/core';
import { DEMO_HUE_APPLICATION_KEY, startHueSim, type RunningHueSim } from '@flaglight/sims';
import { afterEach, describe, expect, test } from 'vitest';
import type { DriverEvent } from '../driver.js';
import { createEffectPlayer } from '../player/player.js';
import { createHueDriver, isHueDisconnectError, toHueCommand } from './driver.js';
import { createHueBridgeTransport, createHueRemoteTransport } from './transports.js';

let sim: RunningHueSim | undefined;
let server: Server | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  server = undefined;
});

async function bridge(
  applicationKey = DEMO_HUE_APPLICATION_KEY,
  tuning: { timeoutMs?: number; retryBaseDelayMs?: number } = {},
) {
  sim = await startHueSim();
  const sentAt: number[] = [];
  const transport = createHueBridgeTransport({
    baseUrl: `${sim.url}/clip/v2/resource`,
    applicationKey,
    ...(tuning.timeoutMs === undefined ? {} : { timeoutMs: tuning.timeoutMs }),
    fetch: (input, init) => {
      sentAt.push(performance.now());
      return fetch(input, init);
    },
  });
  const driver = createHueDriver({
    transport,
    ...(tuning.retryBaseDelayMs === undefined ? {} : { retryBaseDelayMs: tuning.retryBaseDelayMs }),
  });
  const events: DriverEvent[] = [];
  driver.subscribe((e) => events.push(e));
  return { sim, driver, events, sentAt, ids: sim.control.lights().map((l) => l.id) };
}

const red = { on: true, color: COLOR_PRESETS.red, brightness: 1, transitionMs: 200 };

describe('Hue CLIP v2 body', () => {
  test('on, dimming %, xy clamped into the bulb gamut, dynamics.duration', () => {
    expect(toHueCommand(red, { gamut: HUE_GAMUTS.C })).toEqual({
      on: { on: true },
      dimming: { brightness: 100 },
      color: { xy: { x: 0.6915, y: 0.3083 } },
      dynamics: { duration: 200 },
    });
    expect(toHueCommand({ ...red, color: COLOR_PRESETS.black })).toEqual({
      on: { on: false },
      dynamics: { duration: 200 },
    });
  });

  test('SPEC §8: "not connected" and "unauthorized" errors disconnect, by kind', () => {
    expect(isHueDisconnectError({ kind: 'network', message: 'Hue bridge not connected' })).toBe(true);
    expect(isHueDisconnectError({ kind: 'auth', message: 'Hue bridge unauthorized' })).toBe(true);
    expect(isHueDisconnectError({ kind: 'server', message: 'Failed to fetch lights' })).toBe(false);
    // A message that merely contains the words does not decide anything.
    expect(isHueDisconnectError({ kind: 'bad-request', message: 'user is unauthorized to pay' })).toBe(false);
  });

  test("the app server's codes decide: hue_not_connected disconnects, a trial 403 does not", async () => {
    const answer = (status: number, body: object) => async () =>
      new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
    const refused = createHueRemoteTransport({
      apiBaseUrl: 'http://127.0.0.1:9',
      token: 't',
      fetch: answer(403, { error: 'Hue is not connected.', code: 'hue_not_connected' }),
    });
    await expect(refused.listLights()).rejects.toMatchObject({ kind: 'auth' });
    const paywalled = createHueRemoteTransport({
      apiBaseUrl: 'http://127.0.0.1:9',
      token: 't',
      fetch: answer(403, { error: 'Your trial has ended', code: 'trial_expired' }),
    });
    await expect(paywalled.listLights()).rejects.toMatchObject({ kind: 'bad-request' });
  });
});

describe('Hue driver against the bridge simulator', () => {
  test('lists the 4 lights and sets a look the bridge reads back', async () => {
    const { sim, driver, ids } = await bridge();
    const devices = await driver.connect();
    expect(devices.map((d) => d.label)).toEqual([
      'Hue Go',
      'Living Room Lamp',
      'Hue Play Left',
      'Hue Play Right',
    ]);
    expect(driver.connected).toBe(true);
    await driver.setState([ids[0]!], { ...red, brightness: 0.5 });
    expect(sim.control.light(ids[0]!)).toMatchObject({ on: true, brightness: 0.5, durationMs: 200 });
    expect(sim.control.light(ids[0]!)!.xy.x).toBeCloseTo(0.6915, 4);
    expect(sim.control.requests().at(-1)).toMatchObject({
      method: 'PUT',
      path: `/clip/v2/resource/light/${ids[0]}`,
      body: { on: { on: true }, dimming: { brightness: 50 }, color: { xy: { x: 0.6915, y: 0.3083 } } },
    });
  });

  test('paces light commands about 10 per second', async () => {
    const { driver, ids, sentAt } = await bridge();
    await driver.connect();
    sentAt.length = 0;
    await driver.setState(ids, red);
    expect(sentAt).toHaveLength(4);
    for (let i = 1; i < 4; i += 1) expect(sentAt[i]! - sentAt[i - 1]!).toBeGreaterThanOrEqual(95);
  });

  test('a newer command for a light replaces its queued one (no strobe backlog)', async () => {
    const { sim, driver, ids } = await bridge();
    await driver.connect();
    sim.control.resetRequests();
    const id = ids[0]!;
    await Promise.all([
      driver.setState([ids[1]!], red),
      driver.setState([id], red),
      driver.setState([id], { ...red, color: COLOR_PRESETS.green }),
    ]);
    expect(sim.control.requests()).toHaveLength(2);
    expect(sim.control.light(id)!.hex).toMatch(/^#[0-9a-f]{2}ff/);
  });

  test('a wrong application key: "Hue bridge unauthorized"', async () => {
    const { driver } = await bridge('wrong');
    await expect(driver.connect()).rejects.toMatchObject({
      kind: 'auth',
      message: 'Hue bridge unauthorized',
    });
  });

  test('a bridge that vanishes: "Hue bridge not connected", the provider disconnects, and recovers', async () => {
    const { sim, driver, ids, events } = await bridge();
    await driver.connect();
    sim.control.setOffline(true);
    await expect(driver.setState([ids[0]!], red)).rejects.toMatchObject({
      message: 'Hue bridge not connected',
    });
    expect(driver.connected).toBe(false);
    expect(events).toContainEqual({
      type: 'disconnect',
      error: { kind: 'network', message: 'Hue bridge not connected' },
    });
    sim.control.setOffline(false);
    expect(await driver.connect()).toHaveLength(4);
  });

  test('a 429 storm: the queue pauses 1×, 2× the base, then the command lands', async () => {
    const { sim, driver, ids, events } = await bridge(DEMO_HUE_APPLICATION_KEY, { retryBaseDelayMs: 150 });
    await driver.connect();
    sim.control.resetRequests();
    sim.control.fault({ kind: 'rate-limit', times: 2, path: '/clip/v2/resource/light/' });
    await driver.setState([ids[0]!], red);
    const puts = sim.control.requests().filter((r) => r.method === 'PUT');
    expect(puts.map((r) => r.status)).toEqual([429, 429, 200]);
    expect(puts[1]!.at - puts[0]!.at).toBeGreaterThanOrEqual(140);
    expect(puts[2]!.at - puts[1]!.at).toBeGreaterThanOrEqual(290);
    expect(sim.control.light(ids[0]!)!.hex).toMatch(/^#ff/);
    expect(events.filter((e) => e.type === 'error' || e.type === 'disconnect')).toEqual([]);
  });

  test('a bridge that stays busy (503): "Failed to set flag" after 3 retries, still connected', async () => {
    const { sim, driver, ids, events } = await bridge(DEMO_HUE_APPLICATION_KEY, { retryBaseDelayMs: 20 });
    await driver.connect();
    sim.control.resetRequests();
    sim.control.fault({ kind: 'server-error', path: '/clip/v2/resource/light/' });
    await expect(driver.setState([ids[0]!], red)).rejects.toMatchObject({
      kind: 'rate-limit',
      message: 'Failed to set flag',
    });
    expect(sim.control.requests().filter((r) => r.method === 'PUT')).toHaveLength(4);
    expect(driver.connected).toBe(true);
    expect(events).toContainEqual({
      type: 'error',
      error: { kind: 'rate-limit', message: 'Failed to set flag' },
    });
    sim.control.clearFaults();
    await driver.setState([ids[0]!], red);
    expect(sim.control.light(ids[0]!)!.hex).toMatch(/^#ff/);
  });

  test('while paused, a newer command for the light replaces the one waiting to retry', async () => {
    const { sim, driver, ids } = await bridge(DEMO_HUE_APPLICATION_KEY, { retryBaseDelayMs: 200 });
    await driver.connect();
    sim.control.resetRequests();
    sim.control.fault({ kind: 'rate-limit', times: 1, path: '/clip/v2/resource/light/' });
    const first = driver.setState([ids[0]!], red);
    await new Promise((resolve) => setTimeout(resolve, 80));
    const green = { ...red, color: COLOR_PRESETS.green };
    await Promise.all([first, driver.setState([ids[0]!], green)]);
    const puts = sim.control.requests().filter((r) => r.method === 'PUT');
    expect(puts.map((r) => r.status)).toEqual([429, 200]);
    expect(sim.control.light(ids[0]!)!.hex).toMatch(/^#[0-9a-f]{2}ff/);
  });

  test('a slow bridge: the command times out with "Failed to set flag", the next one works', async () => {
    const { sim, driver, ids } = await bridge(DEMO_HUE_APPLICATION_KEY, { timeoutMs: 200 });
    await driver.connect();
    sim.control.fault({ kind: 'slow', delayMs: 1_000, times: 1, path: '/clip/v2/resource/light/' });
    await expect(driver.setState([ids[0]!], red)).rejects.toMatchObject({
      kind: 'timeout',
      message: 'Failed to set flag',
    });
    expect(driver.connected).toBe(true);
    await driver.setState([ids[0]!], red);
    expect(sim.control.light(ids[0]!)!.hex).toMatch(/^#ff/);
  });

  test('a slow or cut light list: "Failed to fetch lights"', async () => {
    const { sim, driver } = await bridge(DEMO_HUE_APPLICATION_KEY, { timeoutMs: 200 });
    sim.control.fault({ kind: 'slow', delayMs: 1_000, times: 1 });
    await expect(driver.connect()).rejects.toMatchObject({
      kind: 'timeout',
      message: 'Failed to fetch lights',
    });
    sim.control.fault({ kind: 'invalid-json', times: 1 });
    await expect(driver.connect()).rejects.toMatchObject({ message: 'Failed to fetch lights' });
    expect(await driver.connect()).toHaveLength(4);
  });

  test('a key removed from the bridge mid-session: "Hue bridge unauthorized" disconnects', async () => {
    const { sim, driver, ids, events } = await bridge();
    await driver.connect();
    sim.control.revokeApplicationKey(DEMO_HUE_APPLICATION_KEY);
    await expect(driver.setState([ids[0]!], red)).rejects.toMatchObject({ kind: 'auth' });
    expect(driver.connected).toBe(false);
    expect(events).toContainEqual({
      type: 'disconnect',
      error: { kind: 'auth', message: 'Hue bridge unauthorized' },
    });
  });

  test('a malformed light list: "Failed to fetch lights"', async () => {
    const transport = createHueBridgeTransport({
      address: '192.168.1.2',
      applicationKey: 'k',
      fetch: async () => new Response(JSON.stringify({ nope: 1 }), { status: 200 }),
    });
    await expect(createHueDriver({ transport }).listDevices()).rejects.toMatchObject({
      message: 'Failed to fetch lights',
    });
  });

  test('the player stretches a red strobe to the bridge pace and ends on solid red', async () => {
    const { sim, driver, ids } = await bridge();
    await driver.connect();
    sim.control.resetRequests();
    const player = createEffectPlayer({ driver, devices: () => [ids[0]!] });
    player.play('red');
    await new Promise((resolve) => setTimeout(resolve, 1800));
    const puts = sim.control.requests();
    expect(puts.length).toBeGreaterThanOrEqual(6);
    expect(puts.length).toBeLessThanOrEqual(11);
    expect(sim.control.light(ids[0]!)).toMatchObject({ on: true, brightness: 0.5 });
    player.dispose();
  });
});

describe('Hue driver through the app server (remote transport)', () => {
  test('calls PUT /hue/lights/{id}/state and POST /hue/lights/flag with the bearer token', async () => {
    const seen: { method: string; url: string; auth: string; body: unknown }[] = [];
    server = createServer((req: IncomingMessage, res) => {
      let raw = '';
      req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
      req.on('end', () => {
        seen.push({
          method: req.method!,
          url: req.url!,
          auth: req.headers.authorization ?? '',
          body: raw ? JSON.parse(raw) : null,
        });
        res.setHeader('Content-Type', 'application/json');
        if (req.url === '/hue/lights')
          res.end(JSON.stringify({ lights: [{ id: 'l1', name: 'Desk', type: 'light' }] }));
        else if (req.headers.authorization !== 'Bearer app-token') {
          res.statusCode = 401;
          res.end(JSON.stringify({ error: 'Hue not connected' }));
        } else res.end('{}');
      });
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    let token = 'app-token';
    const transport = createHueRemoteTransport({
      apiBaseUrl: `http://127.0.0.1:${port}`,
      token: () => token,
    });
    const driver = createHueDriver({ transport });
    expect(await driver.connect()).toEqual([
      { id: 'l1', label: 'Desk', name: 'Desk', type: 'light', connected: true },
    ]);
    await driver.setState(['l1'], red);
    await transport.sendFlag(['l1'], 'red');
    expect(seen.slice(1)).toEqual([
      {
        method: 'PUT',
        url: '/hue/lights/l1/state',
        auth: 'Bearer app-token',
        body: { on: true, brightness: 100, color: { xy: { x: 0.6915, y: 0.3083 } }, duration: 200 },
      },
      {
        method: 'POST',
        url: '/hue/lights/flag',
        auth: 'Bearer app-token',
        body: { lightIds: ['l1'], flag: 'red', duration: 500 },
      },
    ]);
    token = 'revoked';
    await expect(driver.setState(['l1'], red)).rejects.toMatchObject({ message: 'Hue bridge unauthorized' });
    expect(driver.connected).toBe(false);
  });
});
