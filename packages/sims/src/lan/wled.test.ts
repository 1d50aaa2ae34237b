import Fastify from 'fastify';
import { afterEach, describe, expect, test } from 'vitest';
import { startLanSim } from './sim.js';
import { WLED_SIM_EFFECTS } from './wled-effects.js';
import { startWledSim, type WledSimDevice } from './wled.js';

let clock = 1_700_000_000_000;
const devices: WledSimDevice[] = [];
afterEach(async () => {
  await Promise.all(devices.splice(0).map((d) => d.close()));
});

async function device(options: Parameters<typeof startWledSim>[0] = {}) {
  const started = await startWledSim({ now: () => clock, name: 'Desk', ...options });
  devices.push(started);
  return started;
}

async function call(
  d: WledSimDevice,
  method: string,
  path: string,
  body?: unknown,
  type = 'application/json',
) {
  const response = await fetch(`${d.url}${path}`, {
    method,
    ...(body === undefined
      ? {}
      : { body: typeof body === 'string' ? body : JSON.stringify(body), headers: { 'content-type': type } }),
  });
  const text = await response.text();
  let json: unknown = text;
  try {
    json = JSON.parse(text) as unknown;
  } catch {
    // HTML (the 404 page).
  }
  return { status: response.status, json, headers: response.headers };
}

describe('WLED simulator', () => {
  test('info, the 187 effects of 0.15 and the state, as WLED answers them', async () => {
    const d = await device({ mac: 'A0B765000001', ledCount: 30, white: true });
    expect(WLED_SIM_EFFECTS).toHaveLength(187);
    expect((await call(d, 'GET', '/json/info')).json).toMatchObject({
      name: 'Desk',
      ver: '0.15.3',
      mac: 'a0b765000001',
      leds: { count: 30, lc: 3 },
      fxcount: 187,
    });
    expect((await call(d, 'GET', '/json/effects')).json).toEqual(WLED_SIM_EFFECTS);
    expect((await call(d, 'GET', '/json/eff')).json).toEqual(WLED_SIM_EFFECTS);
    expect((await call(d, 'GET', '/json/state')).json).toMatchObject({
      on: true,
      bri: 128,
      seg: [{ id: 0 }],
    });
    expect((await call(d, 'GET', '/json/nope')).json).toEqual({ error: 4 });
    expect((await call(d, 'GET', '/json/nope')).status).toBe(501);
  });

  test('POST /json/state applies on, bri and the segment; Blink alternates on the clock', async () => {
    const d = await device();
    const body = {
      on: true,
      bri: 255,
      transition: 0,
      seg: {
        fx: 1,
        sx: 247,
        ix: 128,
        col: [
          [255, 0, 0],
          [0, 0, 0],
        ],
      },
    };
    expect((await call(d, 'POST', '/json/state', body)).json).toEqual({ success: true });
    expect(d.view()).toMatchObject({ effect: 'Blink', hex: '#ff0000', state: { bri: 255, transition: 0 } });
    clock += 120;
    expect(d.view().hex).toBe('#000000');
    expect((await call(d, 'POST', '/json/state', { bri: 128, seg: { fx: 0 }, v: true })).json).toMatchObject({
      bri: 128,
      seg: [{ fx: 0 }],
    });
    expect(d.view().hex).toBe('#800000');
    expect((await call(d, 'POST', '/json/state', { on: false })).status).toBe(200);
    expect(d.view().hex).toBe('#000000');
  });

  test('errors as WLED gives them: bad JSON, another content type, out of range, busy', async () => {
    const d = await device();
    expect(await call(d, 'POST', '/json/state', '{"on":')).toMatchObject({ status: 400, json: { error: 9 } });
    expect((await call(d, 'POST', '/json/state', { on: false }, 'text/plain')).status).toBe(404);
    expect((await call(d, 'POST', '/json/state', { bri: 300 })).status).toBe(400);
    expect(d.view().state.on).toBe(true);
    d.setFault({ failNext: 1 });
    const busy = await call(d, 'POST', '/json/state', { on: false });
    expect(busy).toMatchObject({ status: 503, json: { error: 3 } });
    expect(busy.headers.get('retry-after')).toBe('1');
    expect(d.view().state.on).toBe(true);
    expect((await call(d, 'POST', '/json/state', { on: false })).status).toBe(200);
  });

  test('offline closes every connection; the log records what was asked', async () => {
    const d = await device();
    d.setFault({ offline: true });
    await expect(call(d, 'GET', '/json/info')).rejects.toThrow();
    d.setFault({ offline: false });
    expect((await call(d, 'GET', '/json/info')).status).toBe(200);
    expect(d.requests().map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual(['GET /json/info 200']);
  });
});

describe('LAN simulator: WLED devices beside the other brands', () => {
  test('state lists 2; the fault route sets offline, slow and 503; swatches show them', async () => {
    const lan = await startLanSim({ now: () => clock, lifxCount: 1, nanoleafCount: 1 });
    const app = Fastify();
    await app.register(lan.plugin);
    try {
      const state = (await app.inject({ url: '/state' })).json<{
        wled: { devices: { id: string; host: string; port: number; name: string }[] };
      }>();
      expect(state.wled.devices.map((d) => [d.name, d.host])).toEqual([
        ['Desk strip', '127.0.0.1'],
        ['Shelf', '127.0.0.1'],
      ]);
      const id = state.wled.devices[1]!.id;
      const fault = await app.inject({
        method: 'POST',
        url: '/_control/wled/fault',
        payload: { id, delayMs: 50, busy: true },
      });
      expect(fault.statusCode).toBe(200);
      expect(lan.wled[1]!.view().fault).toMatchObject({ delayMs: 50, busy: true, offline: false });
      expect(lan.wled[0]!.view().fault.busy).toBe(false);
      // The first device claims to be the second: its info names the second's MAC.
      const claim = { method: 'POST' as const, url: '/_control/wled/fault' };
      const first = lan.wled[0]!.id;
      expect((await app.inject({ ...claim, payload: { id: first, mac: id.toUpperCase() } })).statusCode).toBe(
        200,
      );
      expect((await call(lan.wled[0]!, 'GET', '/json/info')).json).toMatchObject({ mac: id });
      expect((await app.inject({ ...claim, payload: { id: first, mac: 'not-a-mac' } })).statusCode).toBe(400);
      expect((await app.inject({ ...claim, payload: { id: first, mac: null } })).statusCode).toBe(200);
      expect((await call(lan.wled[0]!, 'GET', '/json/info')).json).toMatchObject({ mac: first });
      expect(
        (await app.inject({ method: 'POST', url: '/_control/wled/fault', payload: { offline: 'yes' } }))
          .statusCode,
      ).toBe(400);
      expect(
        (
          await app.inject({
            method: 'POST',
            url: '/_control/wled/fault',
            payload: { id: 'nope', busy: true },
          })
        ).statusCode,
      ).toBe(404);
      const bulbs = (await app.inject({ url: '/_control/bulbs' })).json<{
        bulbs: { label: string; effect: string | null }[];
      }>();
      expect(bulbs.bulbs.find((b) => b.label.startsWith('WLED Shelf'))?.effect).toBe('busy (503)');
      expect((await app.inject({ url: `/_control/wled/${id}/log` })).json()).toEqual({ requests: [] });
      await app.inject({ method: 'POST', url: '/_control/reset' });
      expect(lan.wled[1]!.view().fault.busy).toBe(false);
    } finally {
      await app.close();
      await lan.close();
    }
  });
});
