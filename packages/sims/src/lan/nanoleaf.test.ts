import Fastify from 'fastify';
import { afterEach, describe, expect, test } from 'vitest';
import {
  NANOLEAF_SIM_PAIRING_WINDOW_MS,
  parseAnimData,
  startNanoleafSim,
  type NanoleafSimDevice,
} from './nanoleaf.js';
import { startLanSim } from './sim.js';

let clock = 1_700_000_000_000;
const devices: NanoleafSimDevice[] = [];
afterEach(async () => {
  await Promise.all(devices.splice(0).map((d) => d.close()));
});

async function start(options: Parameters<typeof startNanoleafSim>[0] = {}) {
  const device = await startNanoleafSim({ now: () => clock, serialNo: 'S1924SIM001', ...options });
  devices.push(device);
  return device;
}

async function call(device: NanoleafSimDevice, method: string, path: string, body?: unknown) {
  const response = await fetch(`${device.url}${path}`, {
    method,
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, json: text ? (JSON.parse(text) as unknown) : null };
}

async function pair(device: NanoleafSimDevice) {
  device.holdButton();
  const { json } = await call(device, 'POST', '/api/v1/new');
  return (json as { auth_token: string }).auth_token;
}

describe('Nanoleaf simulator: pairing and tokens', () => {
  test('pairing is closed until the button is held, then open for 30 s', async () => {
    const device = await start();
    expect(device.host).toBe('127.0.0.1');
    expect((await call(device, 'POST', '/api/v1/new')).status).toBe(403);
    device.holdButton();
    const first = await call(device, 'POST', '/api/v1/new');
    expect(first.status).toBe(200);
    expect((first.json as { auth_token: string }).auth_token).toMatch(/^[A-Za-z0-9]{32}$/);
    const second = await call(device, 'POST', '/api/v1/new');
    expect(device.view().tokens).toBe(2);
    clock += NANOLEAF_SIM_PAIRING_WINDOW_MS + 1;
    expect((await call(device, 'POST', '/api/v1/new')).status).toBe(403);
    // Several tokens work side by side; DELETE revokes one; an unknown token gets 401.
    const a = (first.json as { auth_token: string }).auth_token;
    const b = (second.json as { auth_token: string }).auth_token;
    expect((await call(device, 'DELETE', `/api/v1/${a}`)).status).toBe(204);
    expect((await call(device, 'GET', `/api/v1/${a}/`)).status).toBe(401);
    expect((await call(device, 'GET', `/api/v1/${b}/`)).status).toBe(200);
  });

  test('GET / and its leaves: state with ranges, effects, a layout with an LED-less controller', async () => {
    const device = await start({ name: 'Shapes Sim', panelCount: 3 });
    const token = await pair(device);
    const { json } = await call(device, 'GET', `/api/v1/${token}/`);
    expect(json).toMatchObject({
      name: 'Shapes Sim',
      serialNo: 'S1924SIM001',
      model: 'NL42',
      state: { brightness: { min: 0, max: 100 }, colorMode: 'hs' },
      effects: { select: '*Solid*' },
      panelLayout: { layout: { numPanels: 4 } },
    });
    const layout = (await call(device, 'GET', `/api/v1/${token}/panelLayout/layout`)).json as {
      positionData: { shapeType: number }[];
    };
    expect(layout.positionData.map((p) => p.shapeType)).toEqual([12, 7, 7, 7]);
    expect((await call(device, 'GET', `/api/v1/${token}/state/colorMode`)).json).toBe('hs');
    expect((await call(device, 'GET', `/api/v1/${token}/state/nothing`)).status).toBe(404);
    const essentials = await start({ panelCount: 0, model: 'NL72K' });
    const t2 = await pair(essentials);
    expect((await call(essentials, 'GET', `/api/v1/${t2}/`)).json).not.toHaveProperty('panelLayout');
  });
});

describe('Nanoleaf simulator: /state and /effects', () => {
  test('PUT /state applies valid keys and refuses bad bodies with 400', async () => {
    const device = await start();
    const token = await pair(device);
    const put = (body: unknown) => call(device, 'PUT', `/api/v1/${token}/state`, body);
    expect(
      (await put({ hue: { value: 120 }, sat: { value: 100 }, brightness: { value: 80, duration: 1 } }))
        .status,
    ).toBe(204);
    // The brightness ramps from 60 to 80 over the second (`duration`) on the virtual clock.
    expect(device.view()).toMatchObject({
      hue: 120,
      sat: 100,
      brightness: 60,
      colorMode: 'hs',
      select: '*Solid*',
    });
    clock += 500;
    expect(device.view().brightness).toBe(70);
    clock += 500;
    expect(device.view().brightness).toBe(80);
    expect((await put({ brightness: { increment: 50 } })).status).toBe(204);
    expect(device.view().brightness).toBe(100);
    expect((await put({ ct: { value: 6500 } })).status).toBe(204);
    expect(device.view().colorMode).toBe('ct');
    for (const bad of [
      '{not json',
      [],
      {},
      { hue: { value: 400 } },
      { sat: { value: 50.5 } },
      { on: { value: 'yes' } },
      { colour: { value: 1 } },
      { hue: 120 },
      { brightness: {} },
    ]) {
      const answer = await put(bad);
      expect(answer.status, JSON.stringify(bad)).toBe(400);
      expect(answer.json).toHaveProperty('error');
    }
    // A refused body changes nothing.
    expect(device.view()).toMatchObject({ hue: 120, brightness: 100 });
  });

  test('custom effects: strict animData, unlisted panels dark, loop frames on the virtual clock', async () => {
    const device = await start({ panelCount: 3 });
    const token = await pair(device);
    const [p1, p2, p3] = device.view().panels.map((p) => p.panelId);
    const write = (animData: string, extra: Record<string, unknown> = {}) =>
      call(device, 'PUT', `/api/v1/${token}/effects`, {
        write: { command: 'display', animType: 'custom', animData, loop: true, palette: [], ...extra },
      });
    await call(device, 'PUT', `/api/v1/${token}/state`, { brightness: { value: 100 } });
    expect((await write(`2 ${p1} 2 255 0 0 0 1 0 0 0 0 1 ${p2} 1 0 0 255 0 1`)).status).toBe(204);
    expect(device.view()).toMatchObject({ colorMode: 'effect', select: '*Dynamic*' });
    const hexes = () => device.view().panels.map((p) => p.hex);
    expect(hexes()).toEqual(['#ff0000', '#0000ff', '#000000']);
    clock += 100;
    expect(hexes()).toEqual(['#000000', '#0000ff', '#000000']);
    clock += 100;
    expect(hexes()[0]).toBe('#ff0000');
    for (const bad of [
      `1 ${p1} 1 255 0 0 0`,
      `1 ${p1} 1 256 0 0 0 1`,
      `1 0 1 255 0 0 0 1`,
      `1 ${p3} 1 255 0 0 0 1 9`,
      `1 ${p3} 1 255 -1 0 0 1`,
      `2 ${p3} 1 255 0 0 0 1`,
      '',
    ])
      expect((await write(bad)).status, bad).toBe(400);
    expect(
      (
        await call(device, 'PUT', `/api/v1/${token}/effects`, {
          write: { command: 'display', animType: 'flow' },
        })
      ).status,
    ).toBe(400);
    expect((await call(device, 'PUT', `/api/v1/${token}/effects`, { select: 'Flames' })).status).toBe(204);
    expect((await call(device, 'PUT', `/api/v1/${token}/effects`, { select: 'Nope' })).status).toBe(404);
    expect(parseAnimData('1 5 1 1 2 3 0 1', new Set([5]))).toEqual({
      ok: true,
      frames: { 5: [[1, 2, 3, 1]] },
    });
  });

  test('static and displayTemp: shown, then the previous look comes back', async () => {
    const device = await start({ panelCount: 2 });
    const token = await pair(device);
    const [p1, p2] = device.view().panels.map((p) => p.panelId);
    await call(device, 'PUT', `/api/v1/${token}/state`, {
      hue: { value: 120 },
      sat: { value: 100 },
      brightness: { value: 100 },
    });
    const temp = await call(device, 'PUT', `/api/v1/${token}/effects`, {
      write: {
        command: 'displayTemp',
        duration: 2,
        animType: 'static',
        animData: `2 ${p1} 1 255 0 0 0 1 ${p2} 1 255 0 0 0 1`,
        loop: false,
      },
    });
    expect(temp.status).toBe(204);
    expect(device.view()).toMatchObject({ select: '*Static*' });
    expect(device.view().panels.map((p) => p.hex)).toEqual(['#ff0000', '#ff0000']);
    clock += 2_000;
    expect(device.view()).toMatchObject({ colorMode: 'hs', hue: 120 });
    expect(device.view().panels[0]!.hex).toBe('#00ff00');
    expect((await call(device, 'PUT', `/api/v1/${token}/identify`, {})).status).toBe(204);
    expect(device.view().identifiedAt).toBe(clock);
  });
});

describe('Nanoleaf simulator: faults', () => {
  test('slow answers, dropped connections and offline', async () => {
    const draws = [0, 0.99];
    const device = await start({ random: () => draws.shift() ?? 0.99 });
    const token = await pair(device);
    device.setFault({ delayMs: 120 });
    const started = Date.now();
    expect((await call(device, 'GET', `/api/v1/${token}/state/on`)).status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(100);
    device.setFault({ delayMs: 0, dropPercent: 50 });
    await expect(call(device, 'GET', `/api/v1/${token}/`)).rejects.toThrow();
    expect((await call(device, 'GET', `/api/v1/${token}/`)).status).toBe(200);
    device.setFault({ dropPercent: 0, offline: true });
    await expect(call(device, 'GET', `/api/v1/${token}/`)).rejects.toThrow();
    device.setFault({ offline: false });
    expect((await call(device, 'GET', `/api/v1/${token}/`)).status).toBe(200);
    device.setFault({ serialNo: 'S0THER00001' });
    expect((await call(device, 'GET', `/api/v1/${token}/`)).json).toMatchObject({
      serialNo: 'S0THER00001',
    });
    device.setFault({ serialNo: null });
    expect((await call(device, 'GET', `/api/v1/${token}/`)).json).toMatchObject({
      serialNo: device.view().serialNo,
    });
    device.revokeTokens();
    expect((await call(device, 'GET', `/api/v1/${token}/`)).status).toBe(401);
  });
});

describe('LAN simulator: Nanoleaf controllers beside LIFX and Hue', () => {
  test('state lists them; control routes hold the button, set faults, and show their panels', async () => {
    const lan = await startLanSim({ now: () => clock, lifxCount: 1 });
    const app = Fastify();
    await app.register(lan.plugin);
    try {
      const state = (await app.inject({ url: '/state' })).json<{
        nanoleaf: { devices: { url: string; id: string }[] };
      }>();
      expect(state.nanoleaf.devices).toHaveLength(3);
      expect(state.nanoleaf.devices.every((d) => d.url.startsWith('http://127.0.0.1:'))).toBe(true);
      const id = state.nanoleaf.devices[0]!.id;
      expect(
        (await app.inject({ method: 'POST', url: '/_control/nanoleaf/button', payload: { id } })).json(),
      ).toEqual({ pairing: [id] });
      expect(lan.nanoleaf[0]!.view().pairing).toBe(true);
      expect(lan.nanoleaf[1]!.view().pairing).toBe(false);
      const fault = await app.inject({
        method: 'POST',
        url: '/_control/nanoleaf/fault',
        payload: { id, delayMs: 50, revokeTokens: true },
      });
      expect(fault.statusCode).toBe(200);
      expect(lan.nanoleaf[0]!.view().fault.delayMs).toBe(50);
      const serial = { method: 'POST' as const, url: '/_control/nanoleaf/fault' };
      expect((await app.inject({ ...serial, payload: { id, serialNo: 'S0THER1' } })).statusCode).toBe(200);
      expect(lan.nanoleaf[0]!.view().fault.serialNo).toBe('S0THER1');
      expect((await app.inject({ ...serial, payload: { id, serialNo: 'a b' } })).statusCode).toBe(400);
      expect(
        (await app.inject({ method: 'POST', url: '/_control/nanoleaf/fault', payload: { offline: 'yes' } }))
          .statusCode,
      ).toBe(400);
      expect(
        (await app.inject({ method: 'POST', url: '/_control/nanoleaf/button', payload: { id: 'nope' } }))
          .statusCode,
      ).toBe(404);
      const bulbs = (await app.inject({ url: '/_control/bulbs' })).json<{
        bulbs: { label: string; panels?: string[] }[];
      }>();
      const shapes = bulbs.bulbs.find((b) => b.label.startsWith('Nanoleaf Shapes Living room'));
      expect(shapes?.panels).toHaveLength(7);
      expect((await app.inject({ url: `/_control/nanoleaf/${id}/log` })).json()).toEqual({ requests: [] });
    } finally {
      await app.close();
      await lan.close();
    }
  });
});
