import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { startNanoleafSim, type NanoleafSimDevice } from '@flaglight/sims';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { paced, pollUntil } from '../../../../scripts/test-pace.mjs';
import { startLocalBridge, type LocalBridge } from '../bridge/local-bridge.js';
import { createLogger, type Logger } from '../system/log.js';
import { StateFile } from '../system/state-file.js';
import { createLightsHub, type LightsHub } from './lights-hub.js';
import { createNanoleafSupport, NANOLEAF_PAIR_STEPS, type NanoleafSupport } from './nanoleaf-support.js';

// The companion's Nanoleaf pairing, through the local bridge, against a simulated controller on
// 127.0.0.1 (no mDNS: `mdns: false`).

const APP = 'http://localhost:3000';
let device: NanoleafSimDevice;
let dir: string;
let store: StateFile;
let hub: LightsHub;
let support: NanoleafSupport;
let bridge: LocalBridge;
let log: Logger;

function start() {
  hub = createLightsHub({ log: createLogger({ console: false }) });
  log = createLogger({ console: false });
  support = createNanoleafSupport({
    hub,
    log,
    store,
    mdns: false,
    // Short, for the test, and stretched as a ceiling is: on a loaded host the first poll alone
    // once took longer than 400 ms, and the pairing was reported as a controller that never
    // answered; the button is also held while this pairing still waits.
    pairingTimeoutMs: paced(400),
    pollMs: 25,
  });
}

beforeEach(async () => {
  device = await startNanoleafSim({ name: 'Shapes Den', serialNo: 'S1924COMP01', panelCount: 4 });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'flaglight-nanoleaf-'));
  store = new StateFile(dir);
  store.load();
  start();
  bridge = await startLocalBridge({
    port: 0,
    appOrigins: [APP],
    actions: {
      status: () => ({
        version: '0.1.0',
        platform: process.platform,
        linked: true,
        nanoleaf: support.view(),
      }),
      test: () => true,
      setPaused: () => undefined,
      rescan: async () => undefined,
      pairHue: async () => ({ ok: false, error: 'no' }),
      pairNanoleaf: (address) => support.pair(address),
      forgetNanoleaf: (id) => support.forget(id),
      unlink: async () => undefined,
    },
  });
});
afterEach(async () => {
  await bridge.close();
  await support.close();
  await hub.close();
  await device.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const pair = (body: unknown, origin?: string) =>
  fetch(`${bridge.url}api/nanoleaf/pair`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(origin ? { origin } : {}) },
    body: JSON.stringify(body),
  });

const waitFor = (check: () => boolean, ms = 3_000) => pollUntil(check, ms);

describe('Nanoleaf pairing through the local bridge', () => {
  test('times out with what to do; after the button is held a retry pairs, keeps the token and drives it', async () => {
    const address = `127.0.0.1:${device.port}`;
    await support.start([{ host: '127.0.0.1', port: device.port }], null);
    expect(support.view()).toMatchObject({
      devices: [{ address, paired: false }],
      steps: NANOLEAF_PAIR_STEPS,
    });
    expect(NANOLEAF_PAIR_STEPS).toMatch(/Hold the power button .* 5–7 seconds until the lights flash/);

    const timedOut = await pair({ address }, APP);
    expect(timedOut.status).toBe(409);
    expect(((await timedOut.json()) as { error: string }).error).toMatch(
      /did not enter pairing mode in time.*try again/,
    );

    expect(support.view().pairing).toMatch(/did not enter pairing mode in time/);

    // While it polls, the status page says the controller is not in pairing mode yet.
    const waiting = pair({}, `http://127.0.0.1:${bridge.port}`);
    await waitFor(() => /not in pairing mode yet/.test(support.view().pairing ?? ''));
    device.holdButton();
    const ok = await waiting;
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ success: true, name: 'Shapes Den' });
    expect(store.get().nanoleafDevices).toEqual([
      expect.objectContaining({
        host: '127.0.0.1',
        port: device.port,
        id: 's1924comp01',
        name: 'Shapes Den',
      }),
    ]);
    expect(new StateFile(dir).load().state.nanoleafDevices[0]!.token).toMatch(/^\w{32}$/);
    expect(support.view().devices).toEqual([
      { address, name: 'Shapes Den', paired: true, id: 's1924comp01' },
    ]);
    expect(hub.lights()).toMatchObject([
      { provider: 'nanoleaf', id: 's1924comp01', reachable: true, driven: true },
    ]);

    hub.play('green');
    await waitFor(() => device.view().hue === 120);
    expect(device.view()).toMatchObject({ sat: 100, brightness: 100, on: true });
  });

  test('a restart drives the stored controller without pairing; a revoked token is offered for pairing again', async () => {
    device.holdButton();
    await support.start([{ host: '127.0.0.1', port: device.port }], null);
    expect((await support.pair(`127.0.0.1:${device.port}`)).ok).toBe(true);
    await hub.close();
    start();
    await support.start([], null);
    expect(hub.lights()).toMatchObject([{ provider: 'nanoleaf', reachable: true }]);
    hub.play('red');
    await waitFor(() => device.view().colorMode === 'effect');

    device.revokeTokens();
    hub.play('green');
    await waitFor(() => store.get().nanoleafDevices.length === 0);
    expect(support.view().devices).toEqual([
      { address: `127.0.0.1:${device.port}`, name: 'Shapes Den', paired: false },
    ]);
    expect(support.view().pairing).toMatch(/pair it again/);
    await waitFor(() => hub.lights().length === 0);
  });

  test('Forget drops the token here and on the controller, stops driving it and offers it for pairing again', async () => {
    device.holdButton();
    await support.start([{ host: '127.0.0.1', port: device.port }], null);
    expect((await support.pair(`127.0.0.1:${device.port}`)).ok).toBe(true);
    expect(device.view().tokens).toBe(1);
    const forget = (id: string, origin?: string) =>
      fetch(`${bridge.url}api/nanoleaf/forget`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(origin ? { origin } : {}) },
        body: JSON.stringify({ id }),
      });

    expect((await forget('s1924comp01', 'https://evil.example')).status).toBe(403);
    expect(store.get().nanoleafDevices).toHaveLength(1);

    const ok = await forget('s1924comp01', APP);
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ success: true, name: 'Shapes Den' });
    expect(store.get().nanoleafDevices).toEqual([]);
    expect(new StateFile(dir).load().state.nanoleafDevices).toEqual([]);
    expect(hub.lights()).toEqual([]);
    expect(device.view().tokens).toBe(0);
    expect(support.view().devices).toEqual([
      { address: `127.0.0.1:${device.port}`, name: 'Shapes Den', paired: false },
    ]);
    expect((await forget('s1924comp01', APP)).status).toBe(404);
  });

  test('another serial number at a paired address: driven no more, the status page asks to pair again, Forget sends it no token', async () => {
    device.holdButton();
    await support.start([{ host: '127.0.0.1', port: device.port }], null);
    expect((await support.pair(`127.0.0.1:${device.port}`)).ok).toBe(true);
    hub.play('green');
    await waitFor(() => device.view().hue === 120);

    // Another controller at the paired one's host:port, taking its token (the documented limit).
    device.setFault({ serialNo: 'S5555OTHER1' });
    const before = device.requests().length;
    await hub.rescan();
    await waitFor(() => hub.lights().length === 0);
    hub.play('red');
    const status = (await (await fetch(`${bridge.url}api/status`)).json()) as {
      nanoleaf: ReturnType<NanoleafSupport['view']>;
    };
    expect(status.nanoleaf.devices).toEqual([
      {
        address: `127.0.0.1:${device.port}`,
        name: 'Shapes Den',
        paired: true,
        id: 's1924comp01',
        needsPairing: true,
      },
    ]);
    expect(status.nanoleaf.pairing).toMatch(
      /^Shapes Den: the controller at 127\.0\.0\.1:\d+ answers with another serial number, so Flaglight sends it nothing more\..*Pair it again/,
    );
    expect(log.recent()).toContainEqual(
      expect.objectContaining({ level: 'warn', message: expect.stringMatching(/another serial number/) }),
    );

    const forgotten = await fetch(`${bridge.url}api/nanoleaf/forget`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: APP },
      body: JSON.stringify({ id: 's1924comp01' }),
    });
    expect(forgotten.status).toBe(200);
    await new Promise((r) => setTimeout(r, 300));
    // The one read that showed the other serial number; no look, no health read, no revoke.
    expect(
      device
        .requests()
        .slice(before)
        .map((r) => `${r.method} ${r.path}`),
    ).toEqual(['GET /api/v1/<token>/']);
    expect(device.view().tokens).toBe(1);
    expect(store.get().nanoleafDevices).toEqual([]);
  });

  test('bad input and foreign pages are refused', async () => {
    expect((await pair({ address: 'https://evil/x y' }, APP)).status).toBe(400);
    expect((await pair({ address: 42 }, APP)).status).toBe(400);
    expect((await pair({ address: '127.0.0.1:1' }, 'https://evil.example')).status).toBe(403);
    const none = await pair({}, APP);
    expect(none.status).toBe(409);
    expect(((await none.json()) as { error: string }).error).toMatch(/No Nanoleaf controller found/);
  });
});

describe('Nanoleaf in demo mode', () => {
  test("pairs the demo server's controllers by pressing their button through the simulator's control route", async () => {
    const second = await startNanoleafSim({ name: 'Lines Desk', serialNo: 'S1924COMP02', panelCount: 3 });
    // The demo server's `/sims/lan/_control/nanoleaf/button`, standing alone.
    const pressed: string[] = [];
    const demo = http.createServer((request, response) => {
      pressed.push(`${request.method} ${request.url}`);
      if (request.url === '/sims/lan/_control/nanoleaf/button') {
        device.holdButton();
        second.holdButton();
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
    await new Promise<void>((resolve) => demo.listen(0, '127.0.0.1', resolve));
    const server = `http://127.0.0.1:${(demo.address() as AddressInfo).port}`;
    try {
      await support.start(
        [
          { host: '127.0.0.1', port: device.port },
          { host: '127.0.0.1', port: second.port },
        ],
        server,
      );
      expect(pressed).toContain('POST /sims/lan/_control/nanoleaf/button');
      expect(
        store
          .get()
          .nanoleafDevices.map((d) => d.name)
          .sort(),
      ).toEqual(['Lines Desk', 'Shapes Den']);
      expect(hub.lights().filter((l) => l.reachable)).toHaveLength(2);
      // A restarted demo server forgets its tokens: the controller is paired again on its own.
      device.revokeTokens();
      hub.play('yellow');
      await waitFor(() => store.get().nanoleafDevices.length === 2 && device.view().tokens === 1, 5_000);
      await waitFor(() => hub.lights().filter((l) => l.reachable).length === 2, 5_000);
    } finally {
      await new Promise<void>((resolve) => demo.close(() => resolve()));
      await second.close();
    }
  });
});
