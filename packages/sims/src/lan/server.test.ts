import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type RunningLanSim, startLanSimServer } from './server.js';

let lan: RunningLanSim;
beforeAll(async () => {
  lan = await startLanSimServer();
});
afterAll(async () => {
  await lan?.close();
});

const post = (route: string, body: unknown) =>
  fetch(`${lan.url}/sims/lan${route}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

describe('the LAN simulator on a port of its own', () => {
  test('serves its state under /sims/lan, as a demo server does', async () => {
    const state = (await (await fetch(`${lan.url}/sims/lan/state`)).json()) as {
      hueBridge: { url: string };
      lifx: { discoveryPort: number };
    };
    expect(state.hueBridge.url).toBe(lan.sim.hueBridge.url);
    expect(state.lifx.discoveryPort).toBe(lan.sim.lifx.discoveryPort);
  });

  test('moves its Hue bridge to another port on request, and refuses a port that is not one', async () => {
    const before = lan.sim.hueBridge.url;
    const moved = await post('/_control/hue/move', {});
    expect(moved.status).toBe(200);
    const { hueBridge } = (await moved.json()) as { hueBridge: { url: string } };
    expect(hueBridge.url).not.toBe(before);
    const state = (await (await fetch(`${lan.url}/sims/lan/state`)).json()) as { hueBridge: { url: string } };
    expect(state.hueBridge.url).toBe(hueBridge.url);
    for (const port of [-1, 70_000, 1.5, '443'])
      expect((await post('/_control/hue/move', { port })).status).toBe(400);
    for (const silentMs of [-1, 0.5, '10', 700_000])
      expect((await post('/_control/hue/move', { silentMs })).status).toBe(400);
  });
});
