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
    for (const url of ['/sims/lifx/', '/sims/hue/']) {
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
