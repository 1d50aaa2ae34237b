import http from 'node:http';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import {
  PortInUseError,
  probeCompanion,
  startLocalBridge,
  type BridgeActions,
  type LocalBridge,
} from './local-bridge.js';

const APP = 'http://localhost:3000';

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

function request(
  port: number,
  options: { method?: string; path?: string; headers?: Record<string, string>; body?: string },
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method: options.method ?? 'GET',
        path: options.path ?? '/api/status',
        headers: options.headers ?? {},
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    if (options.body !== undefined) req.write(options.body);
    req.end();
  });
}

let bridge: LocalBridge;
let played: string[];
let unlinked: number;
let forgotten: string[];

beforeEach(async () => {
  played = [];
  unlinked = 0;
  forgotten = [];
  const actions: BridgeActions = {
    status: () => ({ version: '0.1.0', platform: process.platform, linked: true, lights: [] }),
    test: (state) => {
      if (!['green', 'yellow', 'red'].includes(state)) return false;
      played.push(state);
      return true;
    },
    setPaused: () => undefined,
    rescan: async () => undefined,
    pairHue: async () => ({ ok: false, error: 'No Hue bridge found.' }),
    pairNanoleaf: async (address) =>
      address === '127.0.0.1:16021'
        ? { ok: true, name: 'Shapes' }
        : { ok: false, error: 'No Nanoleaf controller found.' },
    forgetNanoleaf: async (id) => {
      if (id !== 's1924comp01' || forgotten.includes(id)) return null;
      forgotten.push(id);
      return { name: 'Shapes' };
    },
    unlink: async () => {
      unlinked += 1;
    },
  };
  bridge = await startLocalBridge({ port: 0, appOrigins: [APP, 'http://127.0.0.1:3000'], actions });
});
afterEach(async () => {
  await bridge.close();
});

const host = () => ({ host: `127.0.0.1:${bridge.port}` });
const json = { 'content-type': 'application/json' };

describe('the local bridge', () => {
  test('answers its status to 127.0.0.1 and localhost, and nothing to another host name (DNS rebinding)', async () => {
    expect((await request(bridge.port, { headers: host() })).status).toBe(200);
    expect((await request(bridge.port, { headers: { host: `localhost:${bridge.port}` } })).status).toBe(200);
    const rebound = await request(bridge.port, { headers: { host: `attacker.example:${bridge.port}` } });
    expect(rebound.status).toBe(421);
    expect(rebound.body).not.toContain('version');
    expect((await request(bridge.port, { headers: { host: `127.0.0.1:${bridge.port + 1}` } })).status).toBe(
      421,
    );
  });

  test("lets the app's origin read it (CORS) and no other origin", async () => {
    const fromApp = await request(bridge.port, { headers: { ...host(), origin: APP } });
    expect(fromApp.headers['access-control-allow-origin']).toBe(APP);
    const fromOther = await request(bridge.port, { headers: { ...host(), origin: 'https://evil.example' } });
    expect(fromOther.headers['access-control-allow-origin']).toBeUndefined();
  });

  test('answers the private-network preflight for the app only', async () => {
    const preflight = {
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'content-type',
      'access-control-request-private-network': 'true',
    };
    const ok = await request(bridge.port, {
      method: 'OPTIONS',
      path: '/api/test',
      headers: { ...host(), origin: APP, ...preflight },
    });
    expect(ok.status).toBe(204);
    expect(ok.headers['access-control-allow-private-network']).toBe('true');
    expect(ok.headers['access-control-allow-origin']).toBe(APP);
    const refused = await request(bridge.port, {
      method: 'OPTIONS',
      path: '/api/test',
      headers: { ...host(), origin: 'https://evil.example', ...preflight },
    });
    expect(refused.status).toBe(403);
    expect(refused.headers['access-control-allow-private-network']).toBeUndefined();
  });

  test('plays a test flag for the app, the status page and local programs, never for another site', async () => {
    const body = JSON.stringify({ state: 'yellow' });
    expect(
      (
        await request(bridge.port, {
          method: 'POST',
          path: '/api/test',
          headers: { ...host(), ...json, origin: APP },
          body,
        })
      ).status,
    ).toBe(200);
    const self = `http://127.0.0.1:${bridge.port}`;
    expect(
      (
        await request(bridge.port, {
          method: 'POST',
          path: '/api/test',
          headers: { ...host(), ...json, origin: self },
          body,
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await request(bridge.port, {
          method: 'POST',
          path: '/api/test',
          headers: { ...host(), ...json },
          body,
        })
      ).status,
    ).toBe(200);
    const evil = await request(bridge.port, {
      method: 'POST',
      path: '/api/test',
      headers: { ...host(), ...json, origin: 'https://evil.example' },
      body,
    });
    expect(evil.status).toBe(403);
    // A form post (no preflight) from any page is refused by its content type.
    const form = await request(bridge.port, {
      method: 'POST',
      path: '/api/test',
      headers: { ...host(), 'content-type': 'text/plain', origin: 'null' },
      body,
    });
    expect(form.status).toBe(403);
    const plain = await request(bridge.port, {
      method: 'POST',
      path: '/api/test',
      headers: { ...host(), 'content-type': 'text/plain' },
      body,
    });
    expect(plain.status).toBe(415);
    expect(played).toEqual(['yellow', 'yellow', 'yellow']);
  });

  test('bad input gets a clear 4xx and plays nothing', async () => {
    const post = (body: string) =>
      request(bridge.port, { method: 'POST', path: '/api/test', headers: { ...host(), ...json }, body });
    expect((await post('{"state":')).status).toBe(400);
    expect((await post('[]')).status).toBe(400);
    expect((await post('{"state":42}')).status).toBe(400);
    const unknown = await post('{"state":"purple-rain"}');
    expect(unknown.status).toBe(400);
    expect(JSON.parse(unknown.body)).toMatchObject({ code: 'invalid_input' });
    expect((await post(JSON.stringify({ state: 'x'.repeat(10_000) }))).status).toBe(413);
    expect(
      (
        await request(bridge.port, {
          method: 'POST',
          path: '/api/nope',
          headers: { ...host(), ...json },
          body: '{}',
        })
      ).status,
    ).toBe(404);
    expect(played).toEqual([]);
  });

  test('a web page cannot unlink the companion; a program on this computer can', async () => {
    const fromApp = await request(bridge.port, {
      method: 'POST',
      path: '/api/unlink',
      headers: { ...host(), ...json, origin: APP },
      body: '{}',
    });
    expect(fromApp.status).toBe(403);
    expect(unlinked).toBe(0);
    expect(
      (
        await request(bridge.port, {
          method: 'POST',
          path: '/api/unlink',
          headers: { ...host(), ...json },
          body: '{}',
        })
      ).status,
    ).toBe(200);
    expect(unlinked).toBe(1);
  });

  test('forgets a paired Nanoleaf for the app and local programs; 404 for an unknown id; never for another site', async () => {
    const forget = (body: string, headers: Record<string, string> = {}) =>
      request(bridge.port, {
        method: 'POST',
        path: '/api/nanoleaf/forget',
        headers: { ...host(), ...json, ...headers },
        body,
      });
    const evil = await forget('{"id":"s1924comp01"}', { origin: 'https://evil.example' });
    expect(evil.status).toBe(403);
    expect(
      (
        await request(bridge.port, {
          method: 'POST',
          path: '/api/nanoleaf/forget',
          headers: { ...host(), 'content-type': 'text/plain' },
          body: '{"id":"s1924comp01"}',
        })
      ).status,
    ).toBe(415);
    for (const bad of ['{}', '{"id":42}', '{"id":""}', JSON.stringify({ id: 'x'.repeat(101) })])
      expect((await forget(bad, { origin: APP })).status).toBe(400);
    expect(forgotten).toEqual([]);

    const ok = await forget('{"id":"s1924comp01"}', { origin: APP });
    expect(ok.status).toBe(200);
    expect(ok.headers['access-control-allow-origin']).toBe(APP);
    expect(JSON.parse(ok.body)).toEqual({ success: true, name: 'Shapes' });
    const again = await forget('{"id":"s1924comp01"}');
    expect(again.status).toBe(404);
    expect(JSON.parse(again.body)).toMatchObject({
      code: 'not_found',
      error: expect.stringMatching(/Nanoleaf/),
    });
    expect(forgotten).toEqual(['s1924comp01']);
  });

  test('the status page is served with a strict content policy', async () => {
    const page = await request(bridge.port, { path: '/', headers: host() });
    expect(page.status).toBe(200);
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.headers['x-frame-options']).toBe('DENY');
    expect(page.body).toContain('Flaglight Companion');
    expect((await request(bridge.port, { path: '/status.js', headers: host() })).status).toBe(200);
  });

  test('a second companion on the same port finds the first instead of failing', async () => {
    await expect(
      startLocalBridge({ port: bridge.port, appOrigins: [APP], actions: {} as BridgeActions }),
    ).rejects.toBeInstanceOf(PortInUseError);
    expect(await probeCompanion(bridge.port)).toMatchObject({ version: '0.1.0', linked: true });
  });
});
