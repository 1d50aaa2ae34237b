import { createSocket } from 'node:dgram';
import net from 'node:net';
import { colorToHsbk, decodeLifxPacket, encodeLifxPacket } from '@flaglight/core';
import type { LanSimState } from '@flaglight/sims';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildTestApp, type TestApp } from './helper.js';

// DESIGN §5.5: in demo mode every simulator answers on the app's own origin under /sims/.
describe('demo simulators on the app origin', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  test('LIFX holds 12 bulbs for demo-token and refuses other tokens', async () => {
    const ok = await t.app.inject({
      method: 'GET',
      url: '/sims/lifx/v1/lights/all',
      headers: { authorization: 'Bearer demo-token' },
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toHaveLength(12);
    const bad = await t.app.inject({
      method: 'GET',
      url: '/sims/lifx/v1/lights/all',
      headers: { authorization: 'Bearer nope' },
    });
    expect(bad.statusCode).toBe(401);
  });

  test('the Hue bridge holds 4 lights', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/sims/hue/clip/v2/resource/light',
      headers: { 'hue-application-key': 'demo-hue-application-key' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toHaveLength(4);
  });

  test('the live bulb pages allow their own script by nonce despite the app policy', async () => {
    for (const url of ['/sims/lifx/', '/sims/hue/', '/sims/lan/']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(200);
      const policies = [res.headers['content-security-policy']].flat();
      expect(policies).toHaveLength(1);
      const nonce = /script-src 'nonce-([^']+)'/.exec(String(policies[0]))?.[1];
      expect(nonce).toBeTruthy();
      expect(res.body).toContain(`<script nonce="${nonce}">`);
      // A fresh nonce per page.
      const again = await t.app.inject({ method: 'GET', url });
      expect(again.headers['content-security-policy']).not.toEqual(policies[0]);
    }
  });

  test('caught mail, OpenF1 and the calendar answer too', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/sims/mail/' })).json()).toEqual([]);
    expect(
      (await t.app.inject({ method: 'GET', url: '/sims/openf1/v1/sessions?year=2021' })).statusCode,
    ).toBe(200);
    expect(
      (await t.app.inject({ method: 'GET', url: '/sims/jolpica/ergast/f1/current.json' })).statusCode,
    ).toBe(200);
  });
});

// The simulators send the browser back only to the app's own origin.
describe('no open redirect through the demo simulators', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ env: { PUBLIC_URL: 'https://demo.flaglight.test' } });
  });
  afterAll(() => t.close());

  const hueDecision = (redirectUri: string, host?: string) =>
    t.app.inject({
      method: 'GET',
      url: `/sims/hue/v2/oauth2/decision?decision=allow&client_id=demo-hue-client&state=s1&redirect_uri=${encodeURIComponent(redirectUri)}`,
      ...(host ? { headers: { host } } : {}),
    });

  async function checkoutSession(successUrl: string, cancelUrl: string): Promise<string> {
    const form = new URLSearchParams({
      mode: 'payment',
      'line_items[0][quantity]': '1',
      'line_items[0][price_data][currency]': 'aud',
      'line_items[0][price_data][unit_amount]': '2000',
      success_url: successUrl,
      cancel_url: cancelUrl,
    });
    const res = await t.app.inject({
      method: 'POST',
      url: '/sims/checkout/v1/checkout/sessions',
      headers: {
        authorization: `Bearer ${t.context.sims!.checkout.secretKey}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      payload: form.toString(),
    });
    expect(res.statusCode).toBe(200);
    return res.json<{ id: string }>().id;
  }

  test('the Hue authorize and decision pages refuse https://evil.example with a 400 page', async () => {
    const authorize = await t.app.inject({
      method: 'GET',
      url: `/sims/hue/v2/oauth2/authorize?client_id=demo-hue-client&response_type=code&state=s1&redirect_uri=${encodeURIComponent('https://evil.example/cb')}`,
    });
    expect(authorize.statusCode).toBe(400);
    const decision = await hueDecision('https://evil.example/cb');
    expect(decision.statusCode).toBe(400);
    expect(decision.headers.location).toBeUndefined();
    expect(decision.body).toContain('Redirect refused');
  });

  test("the Hue decision still returns to the app's callback: PUBLIC_URL, or the origin the page was opened on", async () => {
    const viaPublic = await hueDecision('https://demo.flaglight.test/auth/hue/callback');
    expect(viaPublic.statusCode).toBe(302);
    expect(viaPublic.headers.location).toMatch(
      /^https:\/\/demo\.flaglight\.test\/auth\/hue\/callback\?code=/,
    );
    const viaHost = await hueDecision('http://192.168.1.20:3000/auth/hue/callback', '192.168.1.20:3000');
    expect(viaHost.statusCode).toBe(302);
    // A host header cannot whitelist a different origin.
    expect((await hueDecision('http://evil.example/cb', '192.168.1.20:3000')).statusCode).toBe(400);
  });

  test("a page opened from the LAN cannot bounce the browser to that computer's own loopback services", async () => {
    expect((await hueDecision('http://127.0.0.1:9999/admin', '192.168.1.20:3000')).statusCode).toBe(400);
    expect((await hueDecision('http://localhost:9999/cb', '192.168.1.20:3000')).statusCode).toBe(400);
    // On this computer, another loopback port is the app under another name (tests, the companion).
    expect((await hueDecision('http://localhost:9999/cb', '127.0.0.1:3000')).statusCode).toBe(302);
  });

  test('the checkout page refuses to pay or cancel towards https://evil.example, and still returns to the app', async () => {
    const evil = await checkoutSession('https://evil.example/paid', 'https://evil.example/cancelled');
    for (const step of ['complete', 'cancel']) {
      const res = await t.app.inject({ method: 'POST', url: `/sims/checkout/pay/${evil}/${step}` });
      expect(res.statusCode).toBe(400);
      expect(res.headers.location).toBeUndefined();
    }
    expect(t.context.sims!.checkout.control.session(evil)?.payment_status).toBe('unpaid');

    const own = await checkoutSession(
      'https://demo.flaglight.test/#/dashboard?payment=success&session_id={CHECKOUT_SESSION_ID}',
      'https://demo.flaglight.test/#/dashboard?payment=cancelled',
    );
    const paid = await t.app.inject({ method: 'POST', url: `/sims/checkout/pay/${own}/complete` });
    expect(paid.statusCode).toBe(303);
    expect(paid.headers.location).toBe(
      `https://demo.flaglight.test/#/dashboard?payment=success&session_id=${own}`,
    );
  });
});

// The LAN simulator of demo mode, on 127.0.0.1 only, seen at /sims/lan/.
describe('the LAN simulator in demo mode', () => {
  test('virtual LIFX bulbs and the Hue bridge listen on 127.0.0.1 and their state follows UDP writes', async () => {
    const t = await buildTestApp();
    try {
      const state = () =>
        t.app.inject({ method: 'GET', url: '/sims/lan/state' }).then((r) => r.json<LanSimState>());
      const before = await state();
      expect(before.lifx.host).toBe('127.0.0.1');
      expect(before.lifx.bulbs).toHaveLength(6);
      for (const bulb of before.lifx.bulbs) expect(bulb.address).toBe('127.0.0.1');
      expect(before.hueBridge.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      expect(before.hueBridge.lights).toHaveLength(4);
      expect(before.nanoleaf.devices.map((d) => d.url)).toEqual([
        expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/),
        expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/),
        expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/),
      ]);

      const [bulb] = before.lifx.bulbs;
      const red = colorToHsbk({ hue: 0, saturation: 1, brightness: 1 });
      const socket = createSocket('udp4');
      await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
      const acked = new Promise<number>((resolve) =>
        socket.once('message', (datagram) =>
          resolve(decodeLifxPacket(new Uint8Array(datagram)).header.sequence),
        ),
      );
      const bytes = encodeLifxPacket(
        { tagged: false, source: 42, target: bulb!.id, ackRequired: true, resRequired: false, sequence: 5 },
        { type: 'LightSetColor', color: red, durationMs: 0 },
      );
      socket.send(bytes, bulb!.port, '127.0.0.1');
      expect(await acked).toBe(5);
      await new Promise<void>((resolve) => socket.close(() => resolve()));
      expect((await state()).lifx.bulbs[0]).toMatchObject({ id: bulb!.id, color: red, on: true });

      const pressed = await t.app.inject({ method: 'POST', url: '/sims/lan/_control/hue/link-button' });
      expect(pressed.statusCode).toBe(200);
      expect((await state()).hueBridge.linkButton).toBe(true);
      const fault = await t.app.inject({
        method: 'POST',
        url: '/sims/lan/_control/lifx/fault',
        payload: { id: bulb!.id, offline: true, dropPercent: 50 },
      });
      expect(fault.statusCode).toBe(200);
      expect((await state()).lifx.bulbs[0]!.fault).toEqual({ offline: true, dropPercent: 50, delayMs: 0 });
      const log = await t.app.inject({ method: 'GET', url: `/sims/lan/_control/lifx/${bulb!.id}/log` });
      expect(log.json<{ received: { type: string }[] }>().received.map((r) => r.type)).toEqual([
        'LightSetColor',
      ]);
      const swatches = await t.app.inject({ method: 'GET', url: '/sims/lan/_control/bulbs' });
      // 6 LIFX bulbs, 4 Hue lights, 3 Govee devices, 3 Nanoleaf controllers, 2 WLED devices and
      // Home Assistant's 6 lights.
      expect(swatches.json<{ bulbs: unknown[] }>().bulbs).toHaveLength(24);
    } finally {
      await t.close();
    }
  });

  test('three virtual Govee devices: their scan target and ports in the state, faults and reboots by control', async () => {
    const t = await buildTestApp();
    try {
      const state = () =>
        t.app.inject({ method: 'GET', url: '/sims/lan/state' }).then((r) => r.json<LanSimState>());
      const { govee } = await state();
      expect(govee).toMatchObject({ host: '127.0.0.1', commandPort: null });
      expect(govee.scanPort).toBeGreaterThan(0);
      expect(govee.replyPort).toBeGreaterThan(0);
      expect(govee.devices.map((d) => d.sku)).toEqual(['H6159', 'H6008', 'H6076']);
      expect(govee.devices.map((d) => d.omitsIp)).toEqual([false, false, true]);
      const [device] = govee.devices;
      const post = (url: string, payload: object) =>
        t.app.inject({ method: 'POST', url: `/sims/lan/_control/govee/${url}`, payload });
      expect((await post('fault', { id: device!.id, lossPercent: 'many' })).statusCode).toBe(400);
      expect(
        (await post('fault', { id: device!.id, lossPercent: 30, ignoreCommands: true })).statusCode,
      ).toBe(200);
      expect((await post('lan-control', { id: device!.id, on: false })).statusCode).toBe(200);
      expect((await state()).govee.devices[0]).toMatchObject({
        lanControl: false,
        fault: { lossPercent: 30, ignoreCommands: true },
      });
      const rebooted = await post('reboot', { id: device!.id });
      expect(rebooted.json<{ device: { commandPort: number } }>().device.commandPort).not.toBe(
        device!.commandPort,
      );
      expect((await post('reboot', { id: 'nope' })).statusCode).toBe(404);
      const swatches = await t.app.inject({ method: 'GET', url: '/sims/lan/_control/bulbs' });
      expect(
        swatches
          .json<{ bulbs: { id: string; effect: string | null }[] }>()
          .bulbs.find((b) => b.id === device!.id),
      ).toMatchObject({ effect: 'LAN Control off' });
    } finally {
      await t.close();
    }
  });

  test('closing the app frees every LAN simulator port', async () => {
    const t = await buildTestApp();
    const { lifx, hueBridge, govee } = await t.app
      .inject({ method: 'GET', url: '/sims/lan/state' })
      .then((r) => r.json<LanSimState>());
    await t.close();
    for (const port of [
      lifx.discoveryPort,
      ...lifx.bulbs.map((b) => b.port),
      govee.scanPort,
      ...govee.devices.map((d) => d.commandPort),
    ]) {
      const socket = createSocket('udp4');
      await new Promise<void>((resolve) => socket.bind(port, '127.0.0.1', resolve));
      await new Promise<void>((resolve) => socket.close(() => resolve()));
    }
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(hueBridge.port, '127.0.0.1', resolve));
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  test('DEMO_LIFX_LAN_PORT and DEMO_HUE_BRIDGE_PORT fix the ports', async () => {
    // Free ports, found by binding and letting go.
    const udp = createSocket('udp4');
    await new Promise<void>((resolve) => udp.bind(0, '127.0.0.1', resolve));
    const lifxPort = udp.address().port;
    await new Promise<void>((resolve) => udp.close(() => resolve()));
    const tcp = net.createServer();
    await new Promise<void>((resolve) => tcp.listen(0, '127.0.0.1', resolve));
    const huePort = (tcp.address() as net.AddressInfo).port;
    await new Promise<void>((resolve) => tcp.close(() => resolve()));

    const t = await buildTestApp({
      env: { DEMO_LIFX_LAN_PORT: String(lifxPort), DEMO_HUE_BRIDGE_PORT: String(huePort) },
    });
    try {
      const state = await t.app
        .inject({ method: 'GET', url: '/sims/lan/state' })
        .then((r) => r.json<LanSimState>());
      expect(state.lifx.discoveryPort).toBe(lifxPort);
      expect(state.hueBridge.url).toBe(`https://127.0.0.1:${huePort}`);
    } finally {
      await t.close();
    }
  });
});
