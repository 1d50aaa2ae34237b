import { afterAll, beforeEach, describe, expect, test } from 'vitest';
import { startGoveeSim } from './server.js';
import { DEMO_GOVEE_API_KEY } from './state.js';

const sim = await startGoveeSim();
afterAll(() => sim.close());
beforeEach(() => sim.control.reset());

async function call(method: string, path: string, body?: unknown, key = DEMO_GOVEE_API_KEY) {
  const res = await fetch(`${sim.url}${path}`, {
    method,
    headers: { 'Govee-API-Key': key, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
}

const list = () => call('GET', '/router/api/v1/user/devices');
async function firstDevice() {
  const { body } = await list();
  return (body.data as { sku: string; device: string }[])[0]!;
}
const control = (sku: string, device: string, instance: string, value: unknown, type?: string) =>
  call('POST', '/router/api/v1/device/control', {
    requestId: 'req-1',
    payload: {
      sku,
      device,
      capability: {
        type:
          type ??
          (instance === 'powerSwitch'
            ? 'devices.capabilities.on_off'
            : instance === 'brightness'
              ? 'devices.capabilities.range'
              : 'devices.capabilities.color_setting'),
        instance,
        value,
      },
    },
  });

describe('Govee cloud simulator', () => {
  test('lists devices with capabilities; a wrong key gets 401', async () => {
    const res = await list();
    expect(res.status).toBe(200);
    expect(res.body.code).toBe(200);
    const devices = res.body.data as { capabilities: { instance: string }[] }[];
    expect(devices).toHaveLength(6);
    expect(devices[0]!.capabilities.map((c) => c.instance)).toEqual(
      expect.arrayContaining(['powerSwitch', 'brightness', 'colorRgb']),
    );
    expect((await call('GET', '/router/api/v1/user/devices', undefined, 'wrong')).status).toBe(401);
  });

  test('control sets the colour, echoes requestId, and state reads it back', async () => {
    const { sku, device } = await firstDevice();
    const res = await control(sku, device, 'colorRgb', 255 * 65536);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ requestId: 'req-1', code: 200 });
    expect(sim.control.device(device)?.hex).toBe('#ff0000');
    const state = await call('POST', '/router/api/v1/device/state', {
      requestId: 'r2',
      payload: { sku, device },
    });
    expect(state.body.requestId).toBe('r2');
    const caps = (state.body.payload as { capabilities: { instance: string; state: { value: unknown } }[] })
      .capabilities;
    expect(caps.find((c) => c.instance === 'colorRgb')?.state.value).toBe(0xff0000);
  });

  test('capability checks: unknown instance, out of range, unsupported colour temperature', async () => {
    const { body } = await list();
    const devices = body.data as { sku: string; device: string }[];
    const { sku, device } = devices[0]!;
    expect((await control(sku, device, 'brightness', 101)).status).toBe(400);
    expect((await control(sku, device, 'brightness', 50.5)).status).toBe(400);
    expect((await control(sku, device, 'sparkle', 1)).body.code).toBe(400);
    const noWhite = devices[2]!;
    expect((await control(noWhite.sku, noWhite.device, 'colorTemperatureK', 4000)).status).toBe(400);
    expect((await control(sku, device, 'colorTemperatureK', 4000)).status).toBe(200);
  });

  test('colour temperature: the first device starts in white 2700 K; a colour ends the white, a white keeps the colour', async () => {
    const { sku, device } = await firstDevice();
    const read = async () => {
      const state = await call('POST', '/router/api/v1/device/state', {
        requestId: 'r',
        payload: { sku, device },
      });
      const caps = (state.body.payload as { capabilities: { instance: string; state: { value: unknown } }[] })
        .capabilities;
      return Object.fromEntries(caps.map((c) => [c.instance, c.state.value]));
    };
    expect(await read()).toMatchObject({ powerSwitch: 1, brightness: 60, colorTemperatureK: 2700 });
    expect(sim.control.device(device)).toMatchObject({ colorTemK: 2700, hex: '#ffaa62' });
    expect((await control(sku, device, 'colorTemperatureK', 1999)).status).toBe(400);
    expect((await control(sku, device, 'colorRgb', 0xff0000)).status).toBe(200);
    expect(await read()).toMatchObject({ colorRgb: 0xff0000, colorTemperatureK: 0 });
    expect(sim.control.device(device)?.hex).toBe('#ff0000');
    expect((await control(sku, device, 'colorTemperatureK', 6500)).status).toBe(200);
    expect(await read()).toMatchObject({ colorRgb: 0xff0000, colorTemperatureK: 6500 });
    // A model without a white channel starts in plain white and reports no colour temperature.
    const noWhite = sim.control.devices()[2]!;
    expect(noWhite.colorTemK).toBe(0);
  });

  test('10 per device per minute, then 429 with Retry-After; another device still has its own', async () => {
    const { body } = await list();
    const [a, b] = body.data as { sku: string; device: string }[];
    for (let i = 0; i < 10; i += 1)
      expect((await control(a!.sku, a!.device, 'brightness', 10 + i)).status).toBe(200);
    const over = await control(a!.sku, a!.device, 'brightness', 50);
    expect(over.status).toBe(429);
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(over.headers.get('api-ratelimit-remaining')).toBe('0');
    expect((await control(b!.sku, b!.device, 'brightness', 50)).status).toBe(200);
  });

  test('the day budget counts down in X-RateLimit-Remaining and runs out with 429', async () => {
    sim.control.setLimits({ perDay: 3 });
    const { sku, device } = await firstDevice();
    const res = await control(sku, device, 'powerSwitch', 1);
    expect(res.headers.get('x-ratelimit-limit')).toBe('3');
    expect(res.headers.get('x-ratelimit-remaining')).toBe('1');
    await control(sku, device, 'powerSwitch', 1);
    const over = await control(sku, device, 'powerSwitch', 1);
    expect(over.status).toBe(429);
    expect(sim.control.dayRemaining(DEMO_GOVEE_API_KEY)).toBe(0);
  });

  test('faults: rate limit now, down, slow', async () => {
    sim.control.fault({ kind: 'rate-limit', retryAfterS: 7 });
    const limited = await list();
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('7');
    sim.control.fault({ kind: 'down' });
    expect((await list()).status).toBe(503);
    sim.control.fault({ kind: 'slow', delayMs: 150 });
    const started = Date.now();
    expect((await list()).status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
  });

  test('the live page data lists every device', async () => {
    const res = await fetch(`${sim.url}/_control/bulbs`);
    const { bulbs } = (await res.json()) as { bulbs: unknown[] };
    expect(bulbs).toHaveLength(6);
  });
});
