import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { TOKEN_CACHE_MARGIN_MS, VALIDATION_MESSAGES } from '@flaglight/core';
import { HUE_ACCESS_TOKEN_TTL_S, startHueSim, type HueSimControl, type RunningHueSim } from '@flaglight/sims';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { paced } from '../../../scripts/test-pace.mjs';
import { bindingCookie, createBrowserBinding } from '../src/hue/browser-binding.js';
import { CALLBACK_SCRIPT_PATH } from '../src/hue/callback-page.js';
import { createSecretBox, resolveAppSecret } from '../src/hue/crypto.js';
import { HUE_LIGHT_LIST_TTL_MS } from '../src/hue/lights-client.js';
import { HUE_MESSAGES, HUE_OAUTH_REASONS, HUE_STATE_TTL_MS } from '../src/hue/service.js';
import { buildTestApp, dialects, type TestApp } from './helper.js';

const STRONG = 'Sunday!Race1';
const START = new Date('2026-11-21T12:00:00.000Z').getTime();

async function signup(t: TestApp, email: string): Promise<{ token: string; userId: string }> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/auth/signup',
    payload: {
      email,
      password: STRONG,
      plan: 'trial',
      turnstileToken: t.context.sims!.turnstile.control.issueToken(),
    },
  });
  expect(res.statusCode).toBe(201);
  return { token: res.json().token, userId: res.json().user.id };
}

function api(t: TestApp, token: string) {
  const headers = { authorization: `Bearer ${token}` };
  return {
    get: (url: string) => t.app.inject({ method: 'GET', url, headers }),
    post: (url: string, payload?: unknown) =>
      t.app.inject({
        method: 'POST',
        url,
        headers,
        ...(payload === undefined ? {} : { payload: payload as object }),
      }),
    put: (url: string, payload: unknown) =>
      t.app.inject({ method: 'PUT', url, headers, payload: payload as object }),
  };
}

/**
 * Plays the user's part on the simulator's authorize page over real HTTP: reads the form, submits
 * Allow (or Deny), and returns where Hue sends the browser back to (the app's callback URL).
 */
async function authorizeOnSim(authUrl: string, simOrigin: string, decision: 'allow' | 'deny'): Promise<URL> {
  const url = new URL(authUrl);
  const page = await fetch(`${simOrigin}${url.pathname}${url.search}`);
  expect(page.status).toBe(200);
  const html = await page.text();
  expect(html).toContain('Allow');
  const action = /<form method="get" action="([^"]+)"/.exec(html)?.[1];
  expect(action).toBe('decision');
  const form = new URLSearchParams();
  for (const m of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g))
    form.set(
      m[1]!,
      m[2]!.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code))),
    );
  form.set('decision', decision);
  const decisionUrl = new URL(action!, `${simOrigin}${url.pathname}`);
  const res = await fetch(`${decisionUrl.toString()}?${form.toString()}`, { redirect: 'manual' });
  expect(res.status).toBe(302);
  return new URL(res.headers.get('location')!);
}

/** `GET /auth/hue/start` as the app's fetch makes it: the authorize URL and the cookie the browser keeps. */
async function startHue(t: TestApp, token: string): Promise<{ authUrl: string; cookie: string }> {
  const res = await api(t, token).get('/auth/hue/start');
  expect(res.statusCode).toBe(200);
  const setCookie = String(res.headers['set-cookie']);
  return { authUrl: res.json().authUrl as string, cookie: setCookie.split(';')[0]! };
}

/** The browser's return from Hue's page to the callback, with the cookie it holds (if any). */
function openCallback(t: TestApp, back: URL | string, cookie?: string) {
  const url = typeof back === 'string' ? back : `${back.pathname}${back.search}`;
  return t.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });
}

/** The server's wait for Hue in these tests (10 s in production). */
const HUE_TEST_TIMEOUT_MS = 2_000;

const callbackData = (html: string) => {
  const el = /<p id="hue-oauth-result"([^>]*)>/.exec(html)?.[1] ?? '';
  const attr = (name: string) => new RegExp(`${name}="([^"]*)"`).exec(el)?.[1] ?? null;
  return {
    type: attr('data-type'),
    error: attr('data-error'),
    origin: attr('data-origin'),
    fallback: attr('data-fallback'),
  };
};

// One app per dialect, shared by every theme below and run in order: later tests build on the
// connection and application key the earlier ones made, and move this clock on.
let clock = START;
let t: TestApp;
let sim: HueSimControl;
let simOrigin: string;
let user: { token: string; userId: string };
let appKey = '';

function useHueApp(dialect: (typeof dialects)[number]) {
  beforeAll(async () => {
    clock = START;
    appKey = '';
    t = await buildTestApp({
      dialect,
      now: () => new Date(clock),
      env: { AUTH_RATE_LIMIT_PER_MINUTE: '1000' },
      hueTimeoutMs: HUE_TEST_TIMEOUT_MS,
    });
    sim = t.context.sims!.hue.control;
    simOrigin = t.context.sims!.origin;
    user = await signup(t, 'hue-fan@example.com');
    // The clock runs weeks ahead (token expiry), past a trial's end: light control is a paid
    // feature (trial-expired.test.ts), so this account has paid.
    await t.context.auth.users.setPlan(user.userId, 'lifetime');
  });
  afterAll(() => t.close());
}

async function connect(token: string): Promise<string> {
  const { authUrl, cookie } = await startHue(t, token);
  const back = await authorizeOnSim(authUrl, simOrigin, 'allow');
  const res = await openCallback(t, back, cookie);
  expect(callbackData(res.body).type).toBe('HUE_OAUTH_SUCCESS');
  return res.body;
}

function beforeConnectingTests() {
  test('every Hue route needs the signed-in user', async () => {
    for (const [method, url] of [
      ['GET', '/auth/hue/status'],
      ['GET', '/auth/hue/start'],
      ['POST', '/auth/hue/disconnect'],
      ['GET', '/hue/diagnostics'],
      ['POST', '/hue/create-app-key'],
      ['POST', '/hue/store-app-key'],
      ['GET', '/hue/lights'],
      ['PUT', '/hue/lights/not-an-id/state'],
      ['POST', '/hue/lights/flag'],
    ] as const) {
      const res = await t.app.inject({ method, url, payload: {} });
      expect(res.statusCode, `${method} ${url}`).toBe(401);
      expect(res.json()).toEqual({ error: 'No authentication token found', code: 'unauthenticated' });
    }
  });

  test('before connecting: not connected everywhere, with texts that say so', async () => {
    const a = api(t, user.token);
    expect((await a.get('/auth/hue/status')).json()).toEqual({ connected: false, hasApplicationKey: false });
    const lights = await a.get('/hue/lights');
    expect(lights.statusCode).toBe(403);
    expect(lights.json().error).toBe(HUE_MESSAGES.notConnected);
    expect(lights.json().error).toMatch(/not connected/);
    expect((await a.get('/hue/diagnostics')).json()).toMatchObject({
      connected: false,
      bridges: 0,
      lights: 0,
      reason: 'not_connected',
      message: 'Hue is not connected',
      instructions: expect.stringContaining('Connect Hue'),
      error: 'Hue is not connected',
    });
    expect((await a.post('/hue/create-app-key')).statusCode).toBe(403);
  });

  test('start gives the authorize URL with client id, a fresh state and the app callback', async () => {
    const first = (await api(t, user.token).get('/auth/hue/start')).json().authUrl as string;
    const second = (await api(t, user.token).get('/auth/hue/start')).json().authUrl as string;
    const url = new URL(first);
    // Demo mode: the simulator's authorize page on the app's own origin.
    expect(`${url.origin}${url.pathname}`).toBe('http://localhost/sims/hue/v2/oauth2/authorize');
    expect(url.searchParams.get('client_id')).toBe('demo-hue-client');
    expect(url.searchParams.get('response_type')).toBe('code');
    expect(url.searchParams.get('redirect_uri')).toBe('http://localhost/auth/hue/callback');
    expect(url.searchParams.get('state')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(new URL(second).searchParams.get('state')).not.toBe(url.searchParams.get('state'));
  });
}

function wholeFlowTests() {
  test('the whole flow: authorize on Hue, callback page, connected, app key, lights, pulse, flag', async () => {
    const a = api(t, user.token);
    const { authUrl: start, cookie } = await startHue(t, user.token);
    const back = await authorizeOnSim(start, simOrigin, 'allow');
    expect(back.pathname).toBe('/auth/hue/callback');
    expect(back.searchParams.get('state')).toBe(new URL(start).searchParams.get('state'));
    const page = await openCallback(t, back, cookie);
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    // The CSP blocks inline scripts: the page has none, only the script from our own origin.
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toMatch(/script-src 'self'/);
    expect(csp).not.toContain("unsafe-inline' https://challenges");
    expect(page.body).not.toMatch(/<script>/);
    expect(page.body).toContain(`<script src="${CALLBACK_SCRIPT_PATH}"></script>`);
    // Demo: the authorize page is on our origin, so the popup keeps the app's opener policy.
    expect(page.headers['cross-origin-opener-policy']).toBe('same-origin-allow-popups');
    expect(callbackData(page.body)).toEqual({
      type: 'HUE_OAUTH_SUCCESS',
      error: '',
      origin: 'http://localhost',
      fallback: '/#/settings?hue_success=true',
    });
    expect(page.body).toContain('Hue connected');

    const script = await t.app.inject({ method: 'GET', url: CALLBACK_SCRIPT_PATH });
    expect(script.statusCode).toBe(200);
    expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(script.body).toContain('opener.postMessage(message, origin)');
    expect(script.body).not.toContain("'*'");
    expect(script.body).toContain('window.close()');
    expect(script.body).toContain('window.location.replace(fallback)');

    expect((await a.get('/auth/hue/status')).json()).toEqual({ connected: true, hasApplicationKey: false });
    expect((await a.get('/hue/diagnostics')).json()).toMatchObject({
      connected: false,
      reason: 'no_application_key',
      instructions: expect.stringContaining('Create Application Key'),
    });
    const noKey = await a.get('/hue/lights');
    expect(noKey.statusCode).toBe(409);
    expect(noKey.json()).toEqual({ error: HUE_MESSAGES.noApplicationKey, code: 'hue_no_application_key' });

    // Reference §3.6 step 4: remote link button, then a new whitelist entry.
    sim.resetRequests();
    const created = await a.post('/hue/create-app-key');
    expect(created.statusCode).toBe(200);
    expect(created.json()).toEqual({
      success: true,
      applicationKey: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    appKey = created.json().applicationKey;
    expect(sim.applicationKeys()).toContain(appKey);
    expect(sim.requests().map((r) => `${r.method} ${r.path}`)).toEqual([
      'PUT /route/api/0/config',
      'POST /route/api',
    ]);
    expect(sim.requests()[1]!.body).toEqual({ devicetype: 'flaglight#server' });

    const blank = await a.post('/hue/store-app-key', { applicationKey: '   ' });
    expect(blank.statusCode).toBe(400);
    expect(blank.json()).toEqual({
      error: VALIDATION_MESSAGES.applicationKeyRequired,
      code: 'invalid_input',
    });
    expect((await a.post('/hue/store-app-key')).json()).toEqual({
      error: 'Please enter an application key.',
      code: 'invalid_input',
    });
    const wrong = await a.post('/hue/store-app-key', { applicationKey: 'not-a-key-the-bridge-knows' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({ error: HUE_MESSAGES.applicationKeyInvalid, code: 'invalid_input' });
    expect((await a.post('/hue/store-app-key', { applicationKey: 42 })).statusCode).toBe(400);
    const stored = await a.post('/hue/store-app-key', { applicationKey: ` ${appKey} ` });
    expect(stored.json()).toEqual({ success: true });
    expect((await a.get('/auth/hue/status')).json()).toEqual({ connected: true, hasApplicationKey: true });

    expect((await a.get('/hue/diagnostics')).json()).toEqual({
      connected: true,
      bridges: 1,
      lights: 4,
      reason: null,
      message: 'Found 1 bridge with 4 lights',
      instructions: null,
    });

    sim.setReachable(sim.lights()[3]!.id, false);
    const lights = await a.get('/hue/lights');
    expect(lights.statusCode).toBe(200);
    const list = lights.json().lights as Array<Record<string, unknown>>;
    expect(list).toHaveLength(4);
    expect(list[0]).toEqual({
      id: sim.lights()[0]!.id,
      name: 'Hue Go',
      label: 'Hue Go',
      type: 'light',
      archetype: 'hue_go',
      on: true,
      brightness: 80,
      color: { xy: { x: 0.3227, y: 0.329 } },
      gamut: { red: { x: 0.6915, y: 0.3083 }, green: { x: 0.17, y: 0.7 }, blue: { x: 0.1532, y: 0.0475 } },
      reachable: true,
      connected: true,
    });
    expect(list.map((l) => l.reachable)).toEqual([true, true, true, false]);
    sim.setReachable(sim.lights()[3]!.id, true);

    // SPEC §7 test pulse: on, brightness 100, green xy 0.3/0.6, 1000 ms.
    const [first, second, third] = sim.lights();
    const pulse = await a.put(`/hue/lights/${first!.id}/state`, {
      on: true,
      brightness: 100,
      color: { xy: { x: 0.3, y: 0.6 } },
      duration: 1000,
    });
    expect(pulse.statusCode).toBe(200);
    expect(pulse.json()).toEqual({ success: true });
    expect(sim.light(first!.id)).toMatchObject({
      on: true,
      brightness: 1,
      xy: { x: 0.3, y: 0.6 },
      durationMs: 1000,
    });
    await a.put(`/hue/lights/${first!.id}/state`, { on: false });
    expect(sim.light(first!.id)!.on).toBe(false);

    // The flag plays core's effect through the Hue driver: green at full brightness on both lights.
    sim.resetRequests();
    const flag = await a.post('/hue/lights/flag', {
      lightIds: [second!.id, third!.id],
      flag: 'green',
      duration: 500,
    });
    expect(flag.statusCode).toBe(200);
    expect(flag.json()).toEqual({ success: true, flag: 'green', lights: 2 });
    await vi.waitFor(
      () => {
        for (const light of [second!, third!])
          expect(sim.light(light.id)).toMatchObject({
            on: true,
            brightness: 1,
            xy: { x: 0.17, y: 0.7 },
            durationMs: 200,
          });
      },
      { timeout: paced(5000), interval: 20 },
    );
    expect(sim.light(first!.id)!.on).toBe(false);
    const puts = sim.requests().filter((r) => r.method === 'PUT');
    expect(puts.map((r) => r.path).sort()).toEqual(
      [`/route/clip/v2/resource/light/${second!.id}`, `/route/clip/v2/resource/light/${third!.id}`].sort(),
    );
    // A new flag takes over: checkered is a white/black strobe, then solid white after 3.5 s.
    sim.resetRequests();
    const checkered = await a.post('/hue/lights/flag', { lightIds: [second!.id], flag: 'checkered' });
    expect(checkered.statusCode).toBe(200);
    const white = {
      on: { on: true },
      dimming: { brightness: 100 },
      color: { xy: { x: 0.3227, y: 0.329 } },
      dynamics: { duration: 0 },
    };
    // Waits until the commands stop (the strobe sends one every ≤ 250 ms) on the solid white.
    let seen = -1;
    let quietSince = Date.now();
    await vi.waitFor(
      () => {
        const count = sim.requests().length;
        if (count !== seen) [seen, quietSince] = [count, Date.now()];
        expect(Date.now() - quietSince).toBeGreaterThan(700);
        expect(sim.requests().at(-1)?.body).toEqual(white);
      },
      { timeout: paced(10_000), interval: 50 },
    );
    const strobe = sim.requests().filter((r) => r.method === 'PUT');
    expect(strobe.every((r) => r.path === `/route/clip/v2/resource/light/${second!.id}`)).toBe(true);
    expect(strobe.filter((r) => (r.body as typeof white).on.on === false).length).toBeGreaterThan(3);
    expect(sim.light(second!.id)).toMatchObject({ on: true, brightness: 1, xy: { x: 0.3227, y: 0.329 } });

    // A test (Test your lights) plays red, then hands the light back to the race's flag: white.
    sim.resetRequests();
    const test = await a.post('/hue/lights/flag', { lightIds: [second!.id], flag: 'red', test: true });
    expect(test.statusCode).toBe(200);
    await vi.waitFor(() => expect(sim.light(second!.id)!.xy.x).toBeGreaterThan(0.6), {
      timeout: paced(5000),
      interval: 20,
    });
    await vi.waitFor(
      () =>
        expect(sim.light(second!.id)).toMatchObject({ on: true, brightness: 1, xy: { x: 0.3227, y: 0.329 } }),
      { timeout: paced(10_000), interval: 50 },
    );
    expect(
      (await a.post('/hue/lights/flag', { lightIds: [second!.id], flag: 'red', test: 'yes' })).statusCode,
    ).toBe(400);
  });
}

function inputAndStorageTests() {
  test('an application key with line breaks, NUL or broken Unicode is a 400 before the bridge is asked', async () => {
    const a = api(t, user.token);
    const before = sim.requests().length;
    // Once a 502 carrying the header library's own text: the key goes to the bridge in a header.
    for (const applicationKey of [`${appKey}\r\nX-Injected: 1`, `${appKey}\u0000`, `${appKey}\uD800`]) {
      const res = await a.post('/hue/store-app-key', { applicationKey });
      expect(res.statusCode, JSON.stringify(applicationKey)).toBe(400);
      expect(res.json()).toEqual({ error: expect.stringMatching(/^applicationKey/), code: 'invalid_input' });
    }
    expect(sim.requests()).toHaveLength(before);
    // A key pasted with its line break still works: surrounding white space is trimmed first.
    expect((await a.post('/hue/store-app-key', { applicationKey: `${appKey}\n` })).json()).toEqual({
      success: true,
    });
  });

  test('tokens and the application key are encrypted at rest; the sealed token is the live one', async () => {
    const row = await t.context.db
      .selectFrom('hue_connections')
      .selectAll()
      .where('user_id', '=', user.userId)
      .executeTakeFirstOrThrow();
    const box = createSecretBox(resolveAppSecret(t.config.appSecret, t.config.dataDir));
    const access = box.open(row.access_token!, `${user.userId}:access`);
    const refresh = box.open(row.refresh_token!, `${user.userId}:refresh`);
    expect(box.open(row.application_key!, `${user.userId}:application-key`)).toBe(appKey);
    const raw = JSON.stringify(row);
    for (const secret of [access, refresh, appKey]) expect(raw).not.toContain(secret);
    expect(row.access_token).toMatch(/^v1\./);
    // The decrypted token really is the one Hue issued: the remote API accepts it.
    const res = await fetch(`${simOrigin}/sims/hue/route/clip/v2/resource/light`, {
      headers: { authorization: `Bearer ${access}`, 'hue-application-key': appKey },
    });
    expect(res.status).toBe(200);
    // Another secret, or the value moved to another user or field, does not open.
    expect(() => createSecretBox('y'.repeat(32)).open(row.access_token!, `${user.userId}:access`)).toThrow();
    expect(() => box.open(row.access_token!, `someone-else:access`)).toThrow();
    expect(() => box.open(row.access_token!, `${user.userId}:refresh`)).toThrow();
  });

  test('bad light requests get clear 400s; unknown lights 404', async () => {
    const a = api(t, user.token);
    const id = sim.lights()[0]!.id;
    const cases: Array<[string, unknown, RegExp]> = [
      ['/hue/lights/../../etc/state', { on: true }, /./],
      ['/hue/lights/not-a-light/state', { on: true }, /Invalid light id/],
      [`/hue/lights/${id}/state`, {}, /Send at least one of on, brightness or color/],
      [`/hue/lights/${id}/state`, { brightness: 150 }, /brightness must be from 0 to 100/],
      [`/hue/lights/${id}/state`, { on: 'yes' }, /on must be true or false/],
      [
        `/hue/lights/${id}/state`,
        { color: { xy: { x: 2, y: 0.5 } } },
        /color\.xy\.x must be between 0 and 1/,
      ],
      [`/hue/lights/${id}/state`, { on: true, duration: -1 }, /duration must be from 0 to 60000 ms/],
      [`/hue/lights/${id}/state`, { on: true, duration: 1.5 }, /whole number/],
    ];
    for (const [url, payload, message] of cases) {
      const res = await a.put(url, payload);
      expect(res.statusCode, url).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, url).toBeLessThan(500);
      expect(res.json().error, JSON.stringify(payload)).toMatch(message);
    }
    const unknown = await a.put('/hue/lights/00000000-0000-4000-8000-000000000000/state', { on: true });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ error: HUE_MESSAGES.lightNotFound, code: 'not_found' });

    const flags: Array<[unknown, number, RegExp]> = [
      [{ lightIds: [id], flag: 'blue' }, 400, /Unknown flag: use one of green, red, yellow, checkered/],
      [{ lightIds: [id] }, 400, /Unknown flag/],
      [{ lightIds: [], flag: 'red' }, 400, /Select at least one light/],
      [{ lightIds: 'all', flag: 'red' }, 400, /lightIds must be a list of light ids/],
      [{ lightIds: ['x'], flag: 'red' }, 400, /Invalid light id/],
      [{ lightIds: [id], flag: 'red', duration: 'slow' }, 400, /duration must be a whole number/],
      [{ lightIds: ['00000000-0000-4000-8000-000000000000'], flag: 'red' }, 404, /Hue light not found/],
    ];
    for (const [payload, status, message] of flags) {
      const res = await a.post('/hue/lights/flag', payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(status);
      expect(res.json().error).toMatch(message);
    }
  });
}

function tokenRefreshTests() {
  test('the access token is refreshed before it expires, transparently', async () => {
    const a = api(t, user.token);
    const expiresAt = async () =>
      Date.parse(
        (
          await t.context.db
            .selectFrom('hue_connections')
            .select('access_expires_at')
            .where('user_id', '=', user.userId)
            .executeTakeFirstOrThrow()
        ).access_expires_at!,
      );
    const before = await expiresAt();
    expect(before).toBeGreaterThan(clock);
    sim.resetRequests();
    // Still valid, but inside the 5-minute margin (SPEC §9): refreshed on the way.
    clock = before - TOKEN_CACHE_MARGIN_MS + 1000;
    expect((await a.get('/hue/lights')).statusCode).toBe(200);
    const tokenCalls = sim.requests().filter((r) => r.path === '/v2/oauth2/token');
    expect(tokenCalls).toHaveLength(1);
    expect(tokenCalls[0]!.body).toMatchObject({ grant_type: 'refresh_token' });
    expect(await expiresAt()).toBe(clock + HUE_ACCESS_TOKEN_TTL_S * 1000);
    // The fresh token is used as is: no second refresh.
    clock += 60_000;
    sim.resetRequests();
    expect((await a.get('/hue/lights')).statusCode).toBe(200);
    expect(sim.requests().filter((r) => r.path === '/v2/oauth2/token')).toHaveLength(0);
  });

  test('a token Hue revoked early is refreshed once and the call retried', async () => {
    sim.expireAccessTokens();
    sim.resetRequests();
    const res = await api(t, user.token).get('/hue/lights');
    expect(res.statusCode).toBe(200);
    expect(sim.requests().map((r) => `${r.status} ${r.method} ${r.path}`)).toEqual([
      '401 GET /route/clip/v2/resource/light',
      '200 POST /v2/oauth2/token',
      '200 GET /route/clip/v2/resource/light',
      '200 GET /route/clip/v2/resource/zigbee_connectivity',
    ]);
  });
}

function hueFailureTests() {
  test('a vanished bridge: 502 unreachable, and diagnostics explain it', async () => {
    const a = api(t, user.token);
    sim.setOffline(true);
    try {
      const res = await a.get('/hue/lights');
      expect(res.statusCode).toBe(502);
      expect(res.json().error).toBe(HUE_MESSAGES.unreachable);
      const pulse = await a.put(`/hue/lights/${sim.lights()[0]!.id}/state`, { on: true });
      expect(pulse.statusCode).toBe(502);
      expect((await a.get('/hue/diagnostics')).json()).toMatchObject({
        connected: false,
        reason: 'bridge_unreachable',
        message: 'The Hue bridge could not be reached',
        instructions: expect.stringContaining('powered'),
      });
    } finally {
      sim.setOffline(false);
    }
  });

  test('a failed refresh marks the connection disconnected; reconnecting keeps the key', async () => {
    const a = api(t, user.token);
    // Hue forgets every token (and the keys it paired): the refresh token no longer works.
    sim.reset();
    const res = await a.get('/hue/lights');
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ error: HUE_MESSAGES.expired, code: 'hue_not_connected' });
    expect(res.json().error).toMatch(/not connected/);
    expect((await a.get('/auth/hue/status')).json()).toEqual({ connected: false, hasApplicationKey: false });
    expect((await a.get('/hue/diagnostics')).json()).toMatchObject({
      connected: false,
      reason: 'token_expired',
    });
    const row = await t.context.db
      .selectFrom('hue_connections')
      .selectAll()
      .where('user_id', '=', user.userId)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'expired', access_token: null, refresh_token: null });
    expect(row.application_key).not.toBeNull();

    await connect(user.token);
    expect((await a.get('/auth/hue/status')).json()).toEqual({ connected: true, hasApplicationKey: true });
    // The bridge was reset too, so the kept key is refused: 'unauthorized' tells the client, and
    // the key is forgotten so the status asks for a new one.
    expect((await a.get('/hue/diagnostics')).json()).toMatchObject({ reason: 'application_key_rejected' });
    expect((await a.get('/auth/hue/status')).json()).toEqual({ connected: true, hasApplicationKey: false });
    expect((await a.get('/hue/lights')).json()).toEqual({
      error: HUE_MESSAGES.noApplicationKey,
      code: 'hue_no_application_key',
    });
    expect(
      (await a.post('/hue/store-app-key', { applicationKey: 'demo-hue-application-key' })).json(),
    ).toEqual({
      success: true,
    });
    expect((await a.get('/hue/lights')).statusCode).toBe(200);
  });

  test('a key removed from the bridge: the light call says unauthorized and the key is forgotten', async () => {
    const a = api(t, user.token);
    expect((await a.get('/auth/hue/status')).json()).toEqual({ connected: true, hasApplicationKey: true });
    const revoked = sim.applicationKeys();
    // The test pulse of Settings, after the key was deleted in the Hue app.
    for (const k of revoked) sim.revokeApplicationKey(k);
    const pulse = await a.put(`/hue/lights/${sim.lights()[0]!.id}/state`, {
      on: true,
      brightness: 100,
      color: { xy: { x: 0.3, y: 0.6 } },
      duration: 1000,
    });
    expect(pulse.statusCode).toBe(403);
    expect(pulse.json().error).toBe(HUE_MESSAGES.applicationKeyRefused);
    expect(pulse.json().error).toMatch(/unauthorized/);
    expect((await a.get('/auth/hue/status')).json()).toEqual({ connected: true, hasApplicationKey: false });
    expect(
      (
        await a.post('/hue/lights/flag', { lightIds: [sim.lights()[0]!.id], flag: 'red', duration: 500 })
      ).json(),
    ).toEqual({
      error: HUE_MESSAGES.noApplicationKey,
      code: 'hue_no_application_key',
    });
    // A new key (link button through the remote API) and the lights work again.
    const created = await a.post('/hue/create-app-key');
    expect(created.statusCode).toBe(200);
    expect(revoked).not.toContain(created.json().applicationKey);
    expect((await a.get('/hue/lights')).statusCode).toBe(200);
  });

  test('a 429 storm: the busy text with status 429 (the client backs off), diagnostics say so, then it works', async () => {
    const a = api(t, user.token);
    const id = sim.lights()[0]!.id;
    sim.fault({ kind: 'rate-limit', times: 3, path: '/clip/v2/resource/light' });
    const busy = await a.put(`/hue/lights/${id}/state`, { on: true });
    expect(busy.statusCode).toBe(429);
    expect(busy.json()).toEqual({ error: HUE_MESSAGES.busy, details: 'Too many requests', code: 'hue_busy' });
    expect((await a.get('/hue/lights')).statusCode).toBe(429);
    expect((await a.get('/hue/diagnostics')).json()).toMatchObject({
      connected: false,
      reason: 'bridge_busy',
      message: 'The Hue bridge is busy',
      instructions: expect.stringContaining('Wait a few seconds'),
    });
    expect((await a.put(`/hue/lights/${id}/state`, { on: true })).statusCode).toBe(200);
    // 503, as an overloaded bridge answers, reads the same.
    sim.fault({ kind: 'server-error', times: 1, path: '/clip/v2/resource/light' });
    expect((await a.put(`/hue/lights/${id}/state`, { on: true })).statusCode).toBe(429);
    expect((await a.get('/hue/diagnostics')).json()).toMatchObject({ connected: true, lights: 4 });
  });

  test('a flag played during a 429 storm is resent after the pause and lands', async () => {
    const a = api(t, user.token);
    const id = sim.lights()[1]!.id;
    expect(
      (await a.put(`/hue/lights/${id}/state`, { on: true, color: { xy: { x: 0.17, y: 0.7 } } })).statusCode,
    ).toBe(200);
    sim.resetRequests();
    sim.fault({ kind: 'rate-limit', times: 2, path: '/clip/v2/resource/light/' });
    const flag = await a.post('/hue/lights/flag', { lightIds: [id], flag: 'yellow', duration: 500 });
    expect(flag.statusCode).toBe(200);
    await vi.waitFor(
      () => {
        const puts = sim.requests().filter((r) => r.method === 'PUT');
        expect(puts.slice(0, 3).map((r) => r.status)).toEqual([429, 429, 200]);
        // Yellow: red and green alike, blue far below (it was green before the flag).
        const [r, g, b] = [1, 3, 5].map((i) => parseInt(sim.light(id)!.hex.slice(i, i + 2), 16)) as [
          number,
          number,
          number,
        ];
        expect(Math.abs(r - g)).toBeLessThan(0x30);
        expect(b * 2).toBeLessThan(r);
      },
      { timeout: paced(8_000), interval: 100 },
    );
  });

  test('a 429 on the light list a flag starts with: the flag still plays', async () => {
    const a = api(t, user.token);
    const id = sim.lights()[2]!.id;
    await a.put(`/hue/lights/${id}/state`, { on: true, color: { xy: { x: 0.17, y: 0.7 } } });
    sim.fault({ kind: 'rate-limit', times: 1, path: '/clip/v2/resource/light' });
    const flag = await a.post('/hue/lights/flag', { lightIds: [id], flag: 'red', duration: 500 });
    expect(flag.statusCode).toBe(200);
    await vi.waitFor(() => expect(sim.light(id)!.xy.x).toBeGreaterThan(0.6), {
      timeout: paced(8_000),
      interval: 100,
    });
  });

  test('a Hue that does not answer: 502 unreachable after the time-out, with the reason in details', async () => {
    const a = api(t, user.token);
    sim.fault({
      kind: 'slow',
      delayMs: HUE_TEST_TIMEOUT_MS + 1_500,
      times: 1,
      path: '/clip/v2/resource/light',
    });
    const res = await a.get('/hue/lights');
    expect(res.statusCode).toBe(502);
    expect(res.json()).toEqual({
      error: HUE_MESSAGES.unreachable,
      details: `Hue did not answer within ${HUE_TEST_TIMEOUT_MS / 1000} s`,
      code: 'upstream_unavailable',
    });
    expect((await a.get('/hue/lights')).statusCode).toBe(200);
  });

  test('a cut answer from Hue: 502 unreachable, nothing stored changes', async () => {
    const a = api(t, user.token);
    sim.fault({ kind: 'invalid-json', times: 1, path: '/clip/v2/resource/light' });
    const res = await a.get('/hue/lights');
    expect(res.statusCode).toBe(502);
    expect(res.json().error).toBe(HUE_MESSAGES.unreachable);
    expect((await a.get('/auth/hue/status')).json()).toEqual({ connected: true, hasApplicationKey: true });
  });
}

function lightListCacheTests() {
  test('flags reuse the light list until it changes: a removed light is found out, an added one fetched', async () => {
    const a = api(t, user.token);
    const listReads = () =>
      sim.requests().filter((r) => r.method === 'GET' && r.path === '/route/clip/v2/resource/light').length;
    const [first, second] = sim.lights();
    // Past the list's time to live: the first flag asks for it, the next ones reuse it.
    clock += HUE_LIGHT_LIST_TTL_MS;
    sim.resetRequests();
    for (const flag of ['green', 'yellow', 'red'])
      expect((await a.post('/hue/lights/flag', { lightIds: [first!.id], flag })).statusCode).toBe(200);
    expect(listReads()).toBe(1);
    await vi.waitFor(() => expect(sim.light(first!.id)!.xy.x).toBeGreaterThan(0.6), {
      timeout: paced(5_000),
      interval: 50,
    });

    // Removed in the Hue app: the cached list still names it, so the flag is taken, but the
    // bridge's 404 drops the list and the next flag finds the light gone.
    sim.removeLight(second!.id);
    expect((await a.post('/hue/lights/flag', { lightIds: [second!.id], flag: 'green' })).statusCode).toBe(
      200,
    );
    await vi.waitFor(
      () => expect(sim.requests().some((r) => r.method === 'PUT' && r.status === 404)).toBe(true),
      { timeout: paced(5_000), interval: 50 },
    );
    expect(listReads()).toBe(1);
    const gone = await a.post('/hue/lights/flag', { lightIds: [second!.id], flag: 'green' });
    expect(gone.statusCode).toBe(404);
    expect(gone.json()).toEqual({ error: `${HUE_MESSAGES.lightNotFound}: ${second!.id}`, code: 'not_found' });
    expect(listReads()).toBe(2);

    // Newly paired: a light the cached list lacks is looked up once, then the list serves again.
    const added = sim.addLight();
    for (const flag of ['green', 'red'])
      expect((await a.post('/hue/lights/flag', { lightIds: [added.id], flag })).statusCode).toBe(200);
    expect(listReads()).toBe(3);
    await vi.waitFor(() => expect(sim.light(added.id)!.xy.x).toBeGreaterThan(0.6), {
      timeout: paced(5_000),
      interval: 50,
    });
    // A test pulse on the removed light drops the list too.
    expect((await a.put(`/hue/lights/${second!.id}/state`, { on: true })).statusCode).toBe(404);
    expect((await a.post('/hue/lights/flag', { lightIds: [added.id], flag: 'green' })).statusCode).toBe(200);
    expect(listReads()).toBe(4);
  });

  test('one refresh path: a flag, the diagnostics and the light list near expiry share one refresh', async () => {
    const a = api(t, user.token);
    const id = sim.lights()[0]!.id;
    const row = await t.context.db
      .selectFrom('hue_connections')
      .select('access_expires_at')
      .where('user_id', '=', user.userId)
      .executeTakeFirstOrThrow();
    clock = Date.parse(row.access_expires_at!) - TOKEN_CACHE_MARGIN_MS + 1000;
    sim.resetRequests();
    const [flag, diagnostics, lights] = await Promise.all([
      a.post('/hue/lights/flag', { lightIds: [id], flag: 'green' }),
      a.get('/hue/diagnostics'),
      a.get('/hue/lights'),
    ]);
    expect(flag.statusCode).toBe(200);
    expect(diagnostics.json()).toMatchObject({ connected: true });
    expect(lights.statusCode).toBe(200);
    await vi.waitFor(() => expect(sim.light(id)!.xy.y).toBeGreaterThan(0.5), {
      timeout: paced(5_000),
      interval: 50,
    });
    expect(sim.requests().filter((r) => r.path === '/v2/oauth2/token')).toHaveLength(1);

    // Revoked early (401 on a token still in date). The diagnostics' first request is held while
    // the flag's light command meets the refusal and refreshes; the diagnostics' own refusal, seen
    // later with the old token, takes the token that refresh stored instead of refreshing again.
    sim.expireAccessTokens();
    sim.resetRequests();
    sim.fault({ kind: 'slow', delayMs: 600, times: 1, path: '/clip/v2/resource/light' });
    const diagnosing = a.get('/hue/diagnostics');
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect((await a.post('/hue/lights/flag', { lightIds: [id], flag: 'red' })).statusCode).toBe(200);
    expect((await diagnosing).json()).toMatchObject({ connected: true });
    await vi.waitFor(() => expect(sim.light(id)!.xy.x).toBeGreaterThan(0.6), {
      timeout: paced(5_000),
      interval: 50,
    });
    const refreshes = sim.requests().filter((r) => r.path === '/v2/oauth2/token');
    expect(refreshes).toHaveLength(1);
    expect(refreshes[0]).toMatchObject({ status: 200, body: { grant_type: 'refresh_token' } });
    expect((await a.get('/auth/hue/status')).json()).toEqual({ connected: true, hasApplicationKey: true });
  });
}

function callbackStateTests() {
  test('the callback refuses a missing, unknown, reused or expired state, a denial and a bad code', async () => {
    const reasonOf = async (url: string, cookie?: string) => {
      const res = await openCallback(t, url, cookie);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      const data = callbackData(res.body);
      expect(data.type).toBe('HUE_OAUTH_ERROR');
      expect(data.origin).toBe('http://localhost');
      expect(data.fallback).toBe(`/#/settings?hue_error=${encodeURIComponent(data.error!)}`);
      expect(res.body).toContain(`Hue authorization failed: ${data.error}`);
      return data.error;
    };
    expect(await reasonOf('/auth/hue/callback')).toBe(HUE_OAUTH_REASONS.missingState);
    expect(await reasonOf('/auth/hue/callback?code=abc&state=made-up')).toBe(HUE_OAUTH_REASONS.badState);
    expect(await reasonOf('/auth/hue/callback?code=a&code=b&state=x&state=y')).toBe(
      HUE_OAUTH_REASONS.badState,
    );
    expect(await reasonOf(`/auth/hue/callback?state=${'s'.repeat(5000)}`)).toBe(HUE_OAUTH_REASONS.badState);

    const a = api(t, user.token);
    // Reused: the same answer twice.
    const first = await startHue(t, user.token);
    const back = await authorizeOnSim(first.authUrl, simOrigin, 'allow');
    expect(callbackData((await openCallback(t, back, first.cookie)).body).type).toBe('HUE_OAUTH_SUCCESS');
    expect(await reasonOf(`${back.pathname}${back.search}`, first.cookie)).toBe(HUE_OAUTH_REASONS.badState);

    // Denied on Hue's page.
    const deny = await startHue(t, user.token);
    const denied = await authorizeOnSim(deny.authUrl, simOrigin, 'deny');
    expect(denied.searchParams.get('error')).toBe('access_denied');
    expect(await reasonOf(`${denied.pathname}${denied.search}`, deny.cookie)).toBe(HUE_OAUTH_REASONS.denied);

    // A good state with a code Hue never issued.
    const forged = await startHue(t, user.token);
    const state = new URL(forged.authUrl).searchParams.get('state')!;
    expect(await reasonOf(`/auth/hue/callback?code=forged&state=${state}`, forged.cookie)).toBe(
      HUE_OAUTH_REASONS.codeRefused,
    );
    const noCodeStart = await startHue(t, user.token);
    const noCode = new URL(noCodeStart.authUrl).searchParams.get('state')!;
    expect(await reasonOf(`/auth/hue/callback?state=${noCode}`, noCodeStart.cookie)).toBe(
      HUE_OAUTH_REASONS.missingCode,
    );

    // Expired: answered after the state's 10 minutes.
    const late = await startHue(t, user.token);
    const lateBack = await authorizeOnSim(late.authUrl, simOrigin, 'allow');
    clock += HUE_STATE_TTL_MS + 1000;
    expect(await reasonOf(`${lateBack.pathname}${lateBack.search}`, late.cookie)).toBe(
      HUE_OAUTH_REASONS.badState,
    );
    // The failures did not disturb the working connection.
    expect((await a.get('/auth/hue/status')).json().connected).toBe(true);
  });

  test('a flow finished in another browser is refused: the starter is not connected and the link is spent', async () => {
    const starter = await signup(t, 'starter@example.com');
    const started = await startHue(t, starter.token);
    // The start sets the binding cookie: HttpOnly, Lax, only for the callback, as long as the state.
    const setCookie = String((await api(t, starter.token).get('/auth/hue/start')).headers['set-cookie']);
    expect(setCookie).toMatch(
      /^flaglight_hue_oauth=\d+\.[\w-]{43}; Path=\/auth\/hue\/callback; Max-Age=600; HttpOnly; SameSite=Lax$/,
    );
    const attacker = await signup(t, 'attacker@example.com');
    const attackerOwn = await startHue(t, attacker.token);
    const back = await authorizeOnSim(started.authUrl, simOrigin, 'allow');

    // No cookie, the cookie of another flow, a forged or altered one: each refused with a clear page.
    const attempts = [
      undefined,
      attackerOwn.cookie,
      'flaglight_hue_oauth=9999999999.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
      `${started.cookie.slice(0, -2)}xx`,
      'other=1',
    ];
    for (const cookie of attempts) {
      const fresh = await startHue(t, starter.token);
      const freshBack = await authorizeOnSim(fresh.authUrl, simOrigin, 'allow');
      const page = await openCallback(t, freshBack, cookie);
      expect(page.statusCode).toBe(200);
      const data = callbackData(page.body);
      expect(data.type, String(cookie)).toBe('HUE_OAUTH_ERROR');
      expect(data.error).toBe(HUE_OAUTH_REASONS.otherBrowser);
      expect(data.fallback).toBe(
        `/#/settings?hue_error=${encodeURIComponent(HUE_OAUTH_REASONS.otherBrowser)}`,
      );
      expect(page.body).toContain(`Hue authorization failed: ${HUE_OAUTH_REASONS.otherBrowser}`);
      // Spent by the refused attempt: the starter's own browser cannot use that link any more.
      expect(callbackData((await openCallback(t, freshBack, fresh.cookie)).body).error).toBe(
        HUE_OAUTH_REASONS.badState,
      );
    }
    const hijack = await openCallback(t, back);
    expect(callbackData(hijack.body).error).toBe(HUE_OAUTH_REASONS.otherBrowser);
    expect((await api(t, starter.token).get('/auth/hue/status')).json()).toEqual({
      connected: false,
      hasApplicationKey: false,
    });
    const rows = await t.context.db
      .selectFrom('hue_connections')
      .select('user_id')
      .where('user_id', '=', starter.userId)
      .execute();
    expect(rows).toEqual([]);
    // Single use: the callback clears the cookie, and the state is gone even for its own browser.
    expect(String(hijack.headers['set-cookie'])).toMatch(
      /^flaglight_hue_oauth=; Path=\/auth\/hue\/callback; Max-Age=0;/,
    );
    expect(callbackData((await openCallback(t, back, started.cookie)).body).error).toBe(
      HUE_OAUTH_REASONS.badState,
    );

    // The starter's own browser, with its cookie, connects as before.
    const own = await startHue(t, starter.token);
    const ownBack = await authorizeOnSim(own.authUrl, simOrigin, 'allow');
    expect(callbackData((await openCallback(t, ownBack, own.cookie)).body).type).toBe('HUE_OAUTH_SUCCESS');
    expect((await api(t, starter.token).get('/auth/hue/status')).json().connected).toBe(true);
    await api(t, starter.token).post('/auth/hue/disconnect');
  });

  test('the binding cookie is Secure when the callback is https, and expires with the state', () => {
    expect(bindingCookie('v', { maxAgeS: 600, secure: true })).toBe(
      'flaglight_hue_oauth=v; Path=/auth/hue/callback; Max-Age=600; HttpOnly; SameSite=Lax; Secure',
    );
    const binding = createBrowserBinding('x'.repeat(32));
    const issuedAt = new Date(START);
    const value = binding.issue('the-state', new Date(START + HUE_STATE_TTL_MS));
    expect(binding.check([value], 'the-state', issuedAt)).toBe('ok');
    expect(binding.check([value], 'another-state', issuedAt)).toBe('mismatch');
    expect(binding.check([value], 'the-state', new Date(START + HUE_STATE_TTL_MS))).toBe('expired');
    expect(binding.check([], 'the-state', issuedAt)).toBe('missing');
    // Signed with another server's secret: worthless here.
    expect(createBrowserBinding('y'.repeat(32)).check([value], 'the-state', issuedAt)).toBe('mismatch');
  });

  test("a state is bound to the user who started: another user's session gains nothing", async () => {
    const other = await signup(t, 'other-fan@example.com');
    const { authUrl, cookie } = await startHue(t, other.token);
    const back = await authorizeOnSim(authUrl, simOrigin, 'allow');
    await openCallback(t, back, cookie);
    expect((await api(t, other.token).get('/auth/hue/status')).json()).toEqual({
      connected: true,
      hasApplicationKey: false,
    });
    // The first user's connection is untouched and still has its key.
    expect((await api(t, user.token).get('/auth/hue/status')).json()).toEqual({
      connected: true,
      hasApplicationKey: true,
    });
    const disconnected = await api(t, other.token).post('/auth/hue/disconnect');
    expect(disconnected.json()).toEqual({ success: true });
  });
}

function disconnectTests() {
  test('disconnect removes the tokens and the application key', async () => {
    const a = api(t, user.token);
    expect((await a.post('/auth/hue/disconnect')).json()).toEqual({ success: true });
    expect((await a.get('/auth/hue/status')).json()).toEqual({ connected: false, hasApplicationKey: false });
    const rows = await t.context.db.selectFrom('hue_connections').selectAll().execute();
    expect(rows).toEqual([]);
    const lights = await a.get('/hue/lights');
    expect(lights.statusCode).toBe(403);
    expect(lights.json()).toEqual({ error: HUE_MESSAGES.notConnected, code: 'hue_not_connected' });
    // Disconnecting twice is harmless.
    expect((await a.post('/auth/hue/disconnect')).statusCode).toBe(200);
  });
}

describe.each(dialects)('Hue remote API (%s)', (dialect) => {
  useHueApp(dialect);
  describe('before connecting', beforeConnectingTests);
  describe('the whole flow', wholeFlowTests);
  describe('input checks and storage at rest', inputAndStorageTests);
  describe('token refresh', tokenRefreshTests);
  describe('when Hue fails', hueFailureTests);
  describe('the light list cache and one refresh path', lightListCacheTests);
  describe('the callback and its state', callbackStateTests);
  describe('disconnect', disconnectTests);
});

describe('Hue outside demo defaults', () => {
  let t: TestApp;
  let external: RunningHueSim;
  let misconfigured: TestApp;
  beforeAll(async () => {
    // A Hue service of its own on another origin, as api.meethue.com is in live mode.
    external = await startHueSim({ clientId: 'real-client', clientSecret: 'real-secret' });
    t = await buildTestApp({
      env: { HUE_API_URL: external.url, HUE_CLIENT_ID: 'real-client', HUE_CLIENT_SECRET: 'real-secret' },
    });
    misconfigured = await buildTestApp({ env: { HUE_API_URL: external.url } });
  });
  afterAll(async () => {
    await t.close();
    await misconfigured.close();
    await external.close();
  });

  test("the authorize page is Hue's own; the callback lets the popup keep its opener", async () => {
    const { token } = await signup(t, 'live@example.com');
    const { authUrl: start, cookie } = await startHue(t, token);
    expect(start.startsWith(`${external.url}/v2/oauth2/authorize?client_id=real-client&`)).toBe(true);
    const back = await authorizeOnSim(start, external.url, 'allow');
    const page = await openCallback(t, back, cookie);
    expect(callbackData(page.body).type).toBe('HUE_OAUTH_SUCCESS');
    // Coming back from a cross-origin page, a stricter policy would cut window.opener.
    expect(page.headers['cross-origin-opener-policy']).toBe('unsafe-none');
    expect((await api(t, token).post('/hue/create-app-key')).statusCode).toBe(200);
    expect((await api(t, token).get('/hue/lights')).json().lights).toHaveLength(4);
  });

  test('without Hue client credentials: start fails saying Hue is not configured', async () => {
    const { token } = await signup(misconfigured, 'nohue@example.com');
    const res = await api(misconfigured, token).get('/auth/hue/start');
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ error: HUE_MESSAGES.notConfigured, code: 'hue_not_configured' });
    expect(res.json().error).toMatch(/Hue is not configured/);
    expect((await api(misconfigured, token).get('/hue/diagnostics')).json()).toMatchObject({
      connected: false,
      reason: 'not_configured',
    });
    const callback = await misconfigured.app.inject({
      method: 'GET',
      url: '/auth/hue/callback?code=x&state=y',
    });
    expect(callback.statusCode).toBe(200);
    expect(callbackData(callback.body).type).toBe('HUE_OAUTH_ERROR');
  });
});

describe('the demo app secret', () => {
  test('generated once into DATA_DIR/app-secret and reused, so sealed tokens survive a restart', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'flaglight-secret-'));
    try {
      const first = resolveAppSecret(undefined, dir);
      expect(first).toMatch(/^[0-9a-f]{64}$/);
      expect(fs.statSync(path.join(dir, 'app-secret')).mode & 0o777).toBe(0o600);
      const sealed = createSecretBox(first).seal('token', 'u:access');
      const again = resolveAppSecret(undefined, dir);
      expect(again).toBe(first);
      expect(createSecretBox(again).open(sealed, 'u:access')).toBe('token');
      // APP_SECRET, when set, wins over the file.
      expect(resolveAppSecret('z'.repeat(32), dir)).toBe('z'.repeat(32));
      fs.writeFileSync(path.join(dir, 'app-secret'), 'short');
      expect(() => resolveAppSecret(undefined, dir)).toThrow(/32\+ characters/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
