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
