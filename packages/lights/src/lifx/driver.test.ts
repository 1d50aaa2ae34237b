import { COLOR_PRESETS, createLightProgram, type LightStep } from '@flaglight/core';
import { startLifxSim, type RunningLifxSim } from '@flaglight/sims';
import { afterEach, describe, expect, test } from 'vitest';
import { FakeTimers, until } from '../../test/fake-timers.js';
import type { DriverEvent } from '../driver.js';
import { createLifxCloudDriver, type LifxCloudDriverOptions } from './driver.js';
import { parseDeviceIds, toLifxSelectors } from './selector.js';

let sim: RunningLifxSim | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

async function setup(options: Partial<LifxCloudDriverOptions> & { bulbCount?: number; fake?: boolean } = {}) {
  const timers = options.fake ? new FakeTimers(Date.now()) : undefined;
  const sentAt: number[] = [];
  const recording: typeof fetch = (input, init) => {
    sentAt.push(performance.now());
    return fetch(input, init);
  };
  sim = await startLifxSim({ bulbCount: options.bulbCount, ...(timers ? { now: timers.now } : {}) });
  const driver = createLifxCloudDriver({
    baseUrl: `${sim.url}/v1`,
    token: 'demo-token',
    fetch: recording,
    ...(timers ? { timers } : {}),
    ...options,
  });
  const events: DriverEvent[] = [];
  driver.subscribe((event) => events.push(event));
  return { sim, driver, timers: timers!, events, sentAt, ids: sim.control.bulbs().map((b) => b.id) };
}

function step(flag: string, index: number): Exclude<LightStep, { kind: 'restore' }> {
  const result = createLightProgram(flag);
  if (!result.ok) throw new Error(result.warning);
  const found = result.program.steps[index];
  if (!found || found.kind === 'restore') throw new Error('no such step');
  return found;
}

describe('SPEC §7 selector forms', () => {
  test('comma-separated ids, id:-prefixed, bare; anything else is all lights', () => {
    expect(parseDeviceIds('d073d5000001,d073d5000002')).toEqual(['d073d5000001', 'd073d5000002']);
    expect(parseDeviceIds('id:d073d5000001')).toEqual(['d073d5000001']);
    expect(parseDeviceIds('d073d5000001')).toEqual(['d073d5000001']);
    expect(parseDeviceIds(['id:a1', 'b2', 'a1'])).toEqual(['a1', 'b2']);
    for (const other of ['', 'all', 'label:Desk', 'group:Office', null, undefined, []])
      expect(toLifxSelectors(other)).toEqual(['all']);
  });

  test('ids become one id: selector per 25', () => {
    const ids = Array.from({ length: 30 }, (_, i) => `bulb${i}`);
    const selectors = toLifxSelectors(ids);
    expect(selectors).toHaveLength(2);
    expect(selectors[0]!.split(',')).toHaveLength(25);
    expect(selectors[1]).toBe('id:bulb25,id:bulb26,id:bulb27,id:bulb28,id:bulb29');
  });
});

describe('LIFX cloud driver: device list against the simulator', () => {
  test('lists devices in the SPEC §3 shape and connects', async () => {
    const { driver } = await setup();
    const devices = await driver.connect();
    expect(devices).toHaveLength(12);
    expect(devices[0]).toMatchObject({
      id: expect.any(String),
      label: 'Lamp',
      group: { name: 'Living Room' },
    });
    expect(driver.connected).toBe(true);
  });

  test.each([
    ['an array', (list: unknown) => list],
    ['{ data }', (list: unknown) => ({ data: list })],
    ['{ lights }', (list: unknown) => ({ lights: list })],
  ])('GET /lights/all answered as %s', async (_name, wrap) => {
    sim = await startLifxSim();
    const base = sim.url;
    const wrapping: typeof fetch = async (input, init) => {
      const res = await fetch(input, init);
      return new Response(JSON.stringify(wrap(await res.json())), {
        status: res.status,
        headers: res.headers,
      });
    };
    const driver = createLifxCloudDriver({ baseUrl: `${base}/v1`, token: 'demo-token', fetch: wrapping });
    expect(await driver.listDevices()).toHaveLength(12);
  });

  test('a malformed device list is "Failed to connect to LIFX"', async () => {
    const driver = createLifxCloudDriver({
      baseUrl: 'http://lifx.invalid/v1',
      token: 't',
      fetch: async () => new Response(JSON.stringify({ nope: true }), { status: 200 }),
    });
    await expect(driver.listDevices()).rejects.toMatchObject({
      kind: 'server',
      message: 'Failed to connect to LIFX',
    });
  });
});

describe('LIFX cloud driver: request bodies against the simulator', () => {
  test('a red flag on two bulbs: one pulse with the SPEC §7 fields, one state with fast=false', async () => {
    const { sim, driver, ids } = await setup({ gapMs: 0 });
    const pair = ids.slice(0, 2);
    await driver.playStep(pair, step('red', 0));
    await driver.playStep(pair, step('red', 1));
    const log = sim.control.requests();
    expect(log.map((r) => `${r.method} ${r.path}`)).toEqual([
      `POST /v1/lights/id:${pair[0]},id:${pair[1]}/effects/pulse`,
      `PUT /v1/lights/id:${pair[0]},id:${pair[1]}/state`,
    ]);
    expect(log[0]!.body).toEqual({
      power_on: true,
      color: 'hue:0 saturation:1 brightness:1',
      from_color: 'brightness:0',
      period: 0.1,
      cycles: 10,
      mode: 'strobe',
    });
    expect(log[1]!.body).toEqual({
      power: 'on',
      color: 'hue:0 saturation:1',
      brightness: 0.5,
      duration: 0,
      fast: false,
    });
    expect(sim.control.bulb(pair[0]!)?.hex).toBe('#800000');
    expect(sim.control.bulb(ids[2]!)?.hex).not.toBe('#800000');
  });

  test('breathe sends color, cycles, period 0.5, persist false, power_on true', async () => {
    const { sim, driver, ids } = await setup();
    await driver.breathe([ids[0]!], COLOR_PRESETS.green, 2);
    expect(sim.control.requests()[0]).toMatchObject({
      path: `/v1/lights/id:${ids[0]}/effects/breathe`,
      body: { color: 'hue:120 saturation:1', cycles: 2, period: 0.5, persist: false, power_on: true },
    });
  });

  test('50 bulbs: a flag is two pulses (25 ids each) and one batch PUT /lights/states', async () => {
    const { sim, driver, ids } = await setup({ bulbCount: 50, gapMs: 0 });
    await driver.playStep(ids, step('red', 0));
    await driver.playStep(ids, step('red', 1));
    const log = sim.control.requests();
    expect(log.map((r) => `${r.method} ${r.path.split('/').slice(-2).join('/')}`)).toEqual([
      'POST effects/pulse',
      'POST effects/pulse',
      'PUT lights/states',
    ]);
    expect((log[2]!.body as { states: unknown[] }).states).toHaveLength(2);
    expect(sim.control.bulbs().every((b) => b.hex === '#800000')).toBe(true);
  });

  test('an off look (black) switches the bulb off', async () => {
    const { sim, driver, ids } = await setup();
    await driver.setState([ids[0]!], {
      on: true,
      color: COLOR_PRESETS.black,
      brightness: 1,
      transitionMs: 0,
    });
    expect(sim.control.requests()[0]!.body).toEqual({ power: 'off', duration: 0, fast: false });
    expect(sim.control.bulb(ids[0]!)?.on).toBe(false);
  });
});

describe('LIFX cloud driver: queue pacing against the simulator', () => {
  test('requests are queued at least 300 ms apart', async () => {
    const { sim, driver, ids, sentAt: at } = await setup();
    const look = { on: true, color: COLOR_PRESETS.green, brightness: 1, transitionMs: 0 };
    await Promise.all(ids.slice(0, 3).map((id) => driver.setState([id], look)));
    expect(sim.control.requests()).toHaveLength(3);
    expect(at[1]! - at[0]!).toBeGreaterThanOrEqual(295);
    expect(at[2]! - at[1]!).toBeGreaterThanOrEqual(295);
  });

  test('per device: states at least 100 ms apart, flags at least 500 ms apart', async () => {
    const { sim, driver, ids, sentAt: at } = await setup({ gapMs: 0 });
    const look = { on: true, color: COLOR_PRESETS.green, brightness: 1, transitionMs: 0 };
    await Promise.all([driver.setState([ids[0]!], look), driver.setState([ids[0]!], look)]);
    await Promise.all([
      driver.playStep([ids[1]!], step('red', 0)),
      driver.playStep([ids[1]!], step('red', 0)),
    ]);
    expect(sim.control.requests()).toHaveLength(4);
    expect(at[1]! - at[0]!).toBeGreaterThanOrEqual(95);
    expect(at[3]! - at[2]!).toBeGreaterThanOrEqual(495);
  });
});

describe('LIFX cloud driver: retries, time-outs and token failures against the simulator', () => {
  test('a 5xx is retried up to 3 times with back-off 2 s, 4 s, 8 s, then "Failed to set flag"', async () => {
    const { sim, driver, ids, timers, events } = await setup({ fake: true });
    sim.control.failNext({ status: 503, times: 4 });
    const result = driver.playStep([ids[0]!], step('green', 0)).catch((error: unknown) => error);
    for (const [attempt, backoff] of [
      [1, 2000],
      [2, 4000],
      [3, 8000],
    ] as const) {
      await until(() => sim.control.requests().length === attempt && timers.pending().includes(backoff));
      await timers.advance(backoff);
    }
    await until(() => sim.control.requests().length === 4);
    expect(await result).toMatchObject({ kind: 'server', message: 'Failed to set flag' });
    expect(events).toContainEqual({
      type: 'error',
      error: { kind: 'server', message: 'Failed to set flag' },
    });
  });

  test('a retry that succeeds resolves', async () => {
    const { sim, driver, timers } = await setup({ fake: true });
    sim.control.failNext({ status: 500, times: 1 });
    const list = driver.listDevices();
    await until(() => sim.control.requests().length === 1 && timers.pending().includes(2000));
    await timers.advance(2000);
    expect(await list).toHaveLength(12);
  });

  test('401: "Invalid LIFX API token", no retry, the provider disconnects', async () => {
    sim = await startLifxSim();
    const driver = createLifxCloudDriver({ baseUrl: `${sim.url}/v1`, token: 'wrong' });
    const events: DriverEvent[] = [];
    driver.subscribe((e) => events.push(e));
    await expect(driver.connect()).rejects.toMatchObject({ kind: 'auth', message: 'Invalid LIFX API token' });
    expect(sim.control.requests()).toHaveLength(1);
    expect(events).toEqual([
      { type: 'disconnect', error: { kind: 'auth', message: 'Invalid LIFX API token' } },
    ]);
    expect(driver.hasToken).toBe(false);
    await expect(driver.listDevices()).rejects.toMatchObject({ message: 'LIFX API token not set' });
    driver.setToken('demo-token');
    expect(await driver.connect()).toHaveLength(12);
  });

  test('no token: "LIFX API token not set" without a request', async () => {
    const { sim, driver } = await setup({ token: '  ' });
    await expect(driver.listDevices()).rejects.toMatchObject({
      kind: 'not-configured',
      message: 'LIFX API token not set',
    });
    expect(sim.control.requests()).toHaveLength(0);
  });

  test('time-outs after 30 s: "Connection timed out" on connect, "LIFX API request timed out" on a command', async () => {
    const { sim, driver, timers, ids } = await setup({ fake: true, maxRetries: 0 });
    sim.control.failNext({ status: 'hang', delayMs: 300, times: 2 });
    const connecting = driver.connect().catch((error: unknown) => error);
    await until(() => timers.pending().includes(30_000));
    await timers.advance(30_000);
    expect(await connecting).toMatchObject({ kind: 'timeout', message: 'Connection timed out' });
    const setting = driver.playStep([ids[0]!], step('green', 0)).catch((error: unknown) => error);
    await until(() => timers.pending().includes(30_000));
    await timers.advance(30_000);
    expect(await setting).toMatchObject({ kind: 'timeout', message: 'LIFX API request timed out' });
  });

  test('an unreachable API: "Failed to connect to LIFX"', async () => {
    const driver = createLifxCloudDriver({ baseUrl: 'http://127.0.0.1:9/v1', token: 't', maxRetries: 0 });
    await expect(driver.connect()).rejects.toMatchObject({
      kind: 'network',
      message: 'Failed to connect to LIFX',
    });
  });
});

describe('LIFX cloud driver: rate limits against the simulator', () => {
  test('X-RateLimit-Remaining 0 holds the queue until X-RateLimit-Reset', async () => {
    const { sim, driver, timers, ids } = await setup({ fake: true, gapMs: 0 });
    sim.control.setRateLimit({ max: 2, windowMs: 10_000 });
    const look = { on: true, color: COLOR_PRESETS.green, brightness: 1, transitionMs: 0 };
    const sends = ids.slice(0, 3).map((id) => driver.setState([id], look));
    await until(() => sim.control.requests().length === 2);
    await until(
      () => driver.rateLimit()?.remaining === 0 && timers.pending().some((ms) => ms > 9000 && ms < 11_000),
    );
    expect(driver.rateLimit()).toMatchObject({ limit: 2, remaining: 0 });
    await timers.advance(9000);
    expect(sim.control.requests()).toHaveLength(2);
    await timers.advance(2000);
    await Promise.all(sends);
    expect(sim.control.requests().map((r) => r.status)).toEqual([207, 207, 207]);
  });

  test('a 429 waits for the reset and retries', async () => {
    const { sim, driver, timers } = await setup({ fake: true });
    sim.control.setRateLimit({ max: 0, windowMs: 5_000 });
    const list = driver.listDevices();
    await until(
      () => sim.control.requests().length === 1 && timers.pending().some((ms) => ms >= 4000 && ms <= 6000),
    );
    expect(sim.control.requests()[0]!.status).toBe(429);
    sim.control.setRateLimit({ max: 10, windowMs: 5_000 });
    await timers.advance(6000);
    expect(await list).toHaveLength(12);
  });

  test('a 429 while the budget still has room only backs off (2 s, 4 s), not a whole window', async () => {
    const { sim, driver, timers, ids } = await setup({ fake: true });
    await driver.connect();
    sim.control.resetRequests();
    sim.control.failNext({ status: 429, times: 2 });
    const red = driver.setState([ids[0]!], {
      on: true,
      color: COLOR_PRESETS.red,
      brightness: 1,
      transitionMs: 0,
    });
    await timers.advance(300); // the 300 ms gap after connect's request
    // Wait for the back-off itself: the request's 30 s time-out is also pending while it is in flight.
    await until(() => sim.control.requests().length === 1 && timers.pending().includes(2_000));
    expect(driver.rateLimit()!.remaining).toBeGreaterThan(0);
    await timers.advance(2_000);
    await until(() => sim.control.requests().length === 2 && timers.pending().includes(4_000));
    await timers.advance(4_000);
    await red;
    expect(sim.control.requests().map((r) => r.status)).toEqual([429, 429, 207]);
  });
});

describe('LIFX cloud driver: skips, token switch and disconnect against the simulator', () => {
  test('a 404 selector is a warning and a skip', async () => {
    const { driver, events } = await setup();
    await driver.setState(['ffffffffffff'], {
      on: true,
      color: COLOR_PRESETS.red,
      brightness: 1,
      transitionMs: 0,
    });
    expect(events).toContainEqual({ type: 'warning', message: expect.stringContaining('No LIFX devices') });
  });

  test('token switch and disconnect drop queued requests and throttles', async () => {
    const { sim, driver, ids, events } = await setup();
    const look = { on: true, color: COLOR_PRESETS.green, brightness: 1, transitionMs: 0 };
    const sends = ids.slice(0, 4).map((id) => driver.setState([id], look));
    await until(() => sim.control.requests().length === 1);
    driver.setToken('another-token');
    await Promise.all(sends);
    expect(driver.pendingCount()).toBe(0);
    expect(events).toContainEqual({ type: 'reset' });
    driver.disconnect();
    expect(driver.connected).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(sim.control.requests().length).toBeLessThanOrEqual(2);
  });
});
