import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { startHomeAssistantSim, type HomeAssistantSim } from '@flaglight/sims';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { paced } from '../../../../scripts/test-pace.mjs';
import { startLocalBridge, type LocalBridge } from '../bridge/local-bridge.js';
import { OptionError, resolveHomeAssistant } from '../options.js';
import { createLogger, type Logger } from '../system/log.js';
import { StateFile } from '../system/state-file.js';
import {
  createHomeAssistantSupport,
  type HomeAssistantSupport,
  type HomeAssistantView,
} from './home-assistant-support.js';
import { createLightsHub, type LightsHub } from './lights-hub.js';

// The companion's Home Assistant support through the local bridge, against the simulated Home
// Assistant on 127.0.0.1. The token has short segments, so the log's own redaction (long runs of
// letters) would not hide it: only never writing it does.

const APP = 'http://localhost:3000';
const TOKEN = 'ha.secret-token.7f3a9c';
const WAIT = { timeout: paced(8_000), interval: 25 };

let sim: HomeAssistantSim;
let dir: string;
let store: StateFile;
let log: Logger;
let hub: LightsHub;
let support: HomeAssistantSupport;
let bridge: LocalBridge;
let stop: AbortController;
/** Every /api/status answer the tests read, verbatim. */
let statusAnswers: string[];

async function start(settings: {
  url?: string | null;
  token?: string | null;
  demo?: boolean;
  server?: string;
}) {
  log = createLogger({ console: false, file: path.join(dir, 'companion.log') });
  hub = createLightsHub({ log });
  stop = new AbortController();
  support = createHomeAssistantSupport({
    hub,
    log,
    store,
    server: settings.server ?? 'http://127.0.0.1:1',
    options: {
      demo: settings.demo ?? false,
      homeAssistant: {
        url: settings.url === undefined ? sim.url : settings.url,
        token: settings.token ?? null,
        insecure: false,
      },
    },
    signal: stop.signal,
  });
  bridge = await startLocalBridge({
    port: 0,
    appOrigins: [APP],
    actions: support.withActions({
      status: () => ({ version: '0.1.0', platform: process.platform, linked: true, lights: hub.lights() }),
      test: () => true,
      setPaused: () => undefined,
      rescan: async () => undefined,
      pairHue: async () => ({ ok: false, error: 'no' }),
      pairNanoleaf: async () => ({ ok: false, error: 'no' }),
      forgetNanoleaf: async () => null,
      unlink: async () => undefined,
    }),
  });
}

async function status(): Promise<{
  homeAssistant: HomeAssistantView;
  lights: { id: string; provider: string; reachable: boolean }[];
}> {
  const text = await (await fetch(`${bridge.url}api/status`)).text();
  statusAnswers.push(text);
  return JSON.parse(text) as never;
}

function post(route: string, body: unknown, origin: string | null = bridge.url.replace(/\/$/, '')) {
  return fetch(`${bridge.url}api/home-assistant/${route}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(origin ? { origin } : {}) },
    body: JSON.stringify(body),
  });
}

const waitForState = (state: HomeAssistantView['state']) =>
  vi.waitFor(async () => expect((await status()).homeAssistant.state).toBe(state), WAIT);

beforeEach(async () => {
  sim = await startHomeAssistantSim({ token: TOKEN });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'flaglight-ha-'));
  store = new StateFile(dir);
  store.load();
  statusAnswers = [];
});

afterEach(async () => {
  // The token was never written anywhere but the state file: not the log, its file, or the page.
  const logText = [
    ...log.recent().map((e) => e.message),
    fs.existsSync(path.join(dir, 'companion.log'))
      ? fs.readFileSync(path.join(dir, 'companion.log'), 'utf8')
      : '',
  ].join('\n');
  expect(logText).not.toContain(TOKEN);
  expect(logText).not.toContain('secret-token');
  for (const answer of statusAnswers) expect(answer).not.toContain('secret-token');
  stop.abort();
  await bridge.close();
  await hub.close();
  await sim.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('Home Assistant in the companion', () => {
  test('a token entered on the status page is checked, kept 0600, never shown again, and the lights follow the flags', async () => {
    await start({});
    expect((await status()).homeAssistant).toMatchObject({ state: 'needs-token', tokenSaved: false });
    const wrong = await post('token', { token: 'not.the.token' });
    expect(wrong.status).toBe(409);
    expect(((await wrong.json()) as { error: string }).error).toMatch(/refused this token/);
    expect(store.get().homeAssistant).toBeUndefined();

    const saved = await post('token', { token: TOKEN });
    expect(saved.status).toBe(200);
    expect(await saved.text()).not.toContain('secret-token');
    await waitForState('connected');
    const view = await status();
    expect(view.homeAssistant).toMatchObject({ tokenSaved: true, tokenFromEnv: false, lights: 6 });
    expect(view.lights.filter((l) => l.provider === 'home_assistant')).toHaveLength(6);
    const file = path.join(dir, 'state.json');
    expect(JSON.parse(fs.readFileSync(file, 'utf8')).homeAssistant).toEqual({ url: sim.url, token: TOKEN });
    if (process.platform !== 'win32') expect(fs.statSync(file).mode & 0o777).toBe(0o600);

    expect(hub.play('green')).toBe(true);
    // Each entity has its own call: one landing says nothing of when the other does.
    await vi.waitFor(() => expect(sim.light('light.kitchen_strip')!.hex).toBe('#00ff00'), WAIT);
    await vi.waitFor(() => expect(sim.light('light.garage_dimmer')!.state).toBe('on'), WAIT);
  });

  test('the token route takes the status page only: not the web app, another site, or a form post', async () => {
    await start({});
    expect((await post('token', { token: TOKEN }, APP)).status).toBe(403);
    expect((await post('token', { token: TOKEN }, 'https://evil.example')).status).toBe(403);
    const form = await fetch(`${bridge.url}api/home-assistant/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.example' },
      body: `token=${TOKEN}`,
    });
    expect(form.status).toBe(403);
    const plain = await fetch(`${bridge.url}api/home-assistant/token`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: JSON.stringify({ token: TOKEN }),
    });
    expect(plain.status).toBe(415);
    const rebound = await new Promise<number>((resolve, reject) => {
      const port = new URL(bridge.url).port;
      const req = http.request(
        {
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: '/api/home-assistant/token',
          headers: { host: `evil.example:${port}`, 'content-type': 'application/json' },
        },
        (res) => resolve(res.statusCode ?? 0),
      );
      req.on('error', reject);
      req.end(JSON.stringify({ token: TOKEN }));
    });
    expect(rebound).toBe(421);
    expect(store.get().homeAssistant).toBeUndefined();
  });

  test('Forget follows the rule of saving: the web app or another site gets 403 and the token stays; the status page forgets it', async () => {
    await start({});
    expect((await post('token', { token: TOKEN })).status).toBe(200);
    await waitForState('connected');
    const fromApp = await post('forget', {}, APP);
    expect(fromApp.status).toBe(403);
    expect(((await fromApp.json()) as { error: string }).error).toMatch(/status page/);
    expect((await post('forget', {}, 'https://evil.example')).status).toBe(403);
    expect(store.get().homeAssistant).toEqual({ url: sim.url, token: TOKEN });
    expect((await status()).homeAssistant).toMatchObject({ state: 'connected', tokenSaved: true });

    expect((await post('forget', {})).status).toBe(200);
    expect(store.get().homeAssistant).toBeUndefined();
    await waitForState('needs-token');
  });

  test('a revoked token stops the lights and the page asks for a new one; Forget drops the saved token', async () => {
    await start({});
    await post('token', { token: TOKEN });
    await waitForState('connected');
    sim.revokeTokens();
    hub.play('yellow');
    await waitForState('token-refused');
    const refused = (await status()).homeAssistant;
    expect(refused.message).toMatch(/refused the access token/);
    const fresh = 'ha.second-token.b41d';
    sim.addToken(fresh);
    expect((await post('token', { token: fresh })).status).toBe(200);
    await waitForState('connected');
    expect((await post('forget', {})).status).toBe(200);
    expect(store.get().homeAssistant).toBeUndefined();
    await waitForState('needs-token');
    expect((await status()).lights.filter((l) => l.provider === 'home_assistant')).toEqual([]);
  });

  test('a token is saved on 200 only: a 307 to a working instance or a 500 refuses it with the status in words, and the redirect is never followed', async () => {
    let answer: { status: number; headers?: Record<string, string> } = {
      status: 307,
      headers: { location: `${sim.url}/api/` },
    };
    const asked: string[] = [];
    const front = http.createServer((request, response) => {
      asked.push(`${request.method} ${request.url}`);
      response.writeHead(answer.status, { 'content-type': 'text/plain', ...answer.headers });
      response.end('elsewhere');
    });
    await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
    try {
      await start({ url: `http://127.0.0.1:${(front.address() as AddressInfo).port}` });
      const redirected = await post('token', { token: TOKEN });
      expect(redirected.status).toBe(409);
      expect(((await redirected.json()) as { error: string }).error).toBe(
        'Home Assistant answered 307 (a redirect): check the URL — use the address Home Assistant itself shows, with http/https as it expects. The token was not saved.',
      );
      answer = { status: 500 };
      const failing = await post('token', { token: TOKEN });
      expect(failing.status).toBe(409);
      expect(((await failing.json()) as { error: string }).error).toMatch(
        /^Home Assistant answered 500 \(a server error\).*The token was not saved\.$/,
      );
      expect(asked).toEqual(['GET /api/', 'GET /api/']);
      // The instance the redirect pointed at (it would take the token) heard nothing.
      expect(sim.requests()).toEqual([]);
      expect(store.get().homeAssistant).toBeUndefined();
      expect((await status()).homeAssistant).toMatchObject({ state: 'needs-token', tokenSaved: false });
    } finally {
      front.closeAllConnections();
      await new Promise((resolve) => front.close(resolve));
    }
  });

  test('the token from FLAGLIGHT_HA_TOKEN is used without being saved; a 400 for one entity is named on the page', async () => {
    await start({ token: TOKEN });
    await waitForState('connected');
    expect((await status()).homeAssistant).toMatchObject({ tokenSaved: false, tokenFromEnv: true });
    expect(store.get().homeAssistant).toBeUndefined();
    sim.setFault({ rejectEntity: 'light.office_bulb' });
    hub.play('green');
    await vi.waitFor(
      async () =>
        expect((await status()).homeAssistant.entityErrors.map((e) => e.entityId)).toEqual([
          'light.office_bulb',
        ]),
      WAIT,
    );
    await vi.waitFor(() => expect(sim.light('light.kitchen_strip')!.hex).toBe('#00ff00'), WAIT);
  });

  test('a saved token is only for the address it was entered for', async () => {
    store.update((s) => ({ ...s, homeAssistant: { url: 'http://127.0.0.1:1', token: TOKEN } }));
    await start({});
    await waitForState('needs-token');
    expect(sim.requests()).toEqual([]);
  });

  test("--demo finds the LAN simulator's Home Assistant and its demo token with no flag", async () => {
    const demo = http.createServer((request, response) => {
      response.writeHead(request.url === '/sims/lan/state' ? 200 : 404, {
        'content-type': 'application/json',
      });
      response.end(JSON.stringify({ homeAssistant: { url: sim.url, token: TOKEN } }));
    });
    await new Promise<void>((resolve) => demo.listen(0, '127.0.0.1', resolve));
    try {
      await start({
        url: null,
        demo: true,
        server: `http://127.0.0.1:${(demo.address() as AddressInfo).port}`,
      });
      await waitForState('connected');
      expect((await status()).homeAssistant.url).toBe(sim.url);
    } finally {
      demo.closeAllConnections();
      await new Promise((resolve) => demo.close(resolve));
    }
  });
});

describe('Home Assistant options', () => {
  test('--home-assistant or FLAGLIGHT_HA_URL, the token only from FLAGLIGHT_HA_TOKEN, insecure only when asked', () => {
    expect(resolveHomeAssistant({}, {})).toEqual({ url: null, token: null, insecure: false });
    expect(
      resolveHomeAssistant(
        { homeAssistant: 'http://homeassistant.local:8123/' },
        { FLAGLIGHT_HA_URL: 'http://other:8123', FLAGLIGHT_HA_TOKEN: ' abc.def ' },
      ),
    ).toEqual({ url: 'http://homeassistant.local:8123', token: 'abc.def', insecure: false });
    expect(
      resolveHomeAssistant({}, { FLAGLIGHT_HA_URL: 'https://ha.example:8123', FLAGLIGHT_HA_INSECURE: '1' }),
    ).toEqual({ url: 'https://ha.example:8123', token: null, insecure: true });
    expect(() => resolveHomeAssistant({ homeAssistant: 'mqtt://ha' }, {})).toThrow(OptionError);
  });
});
