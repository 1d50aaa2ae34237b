import https from 'node:https';
import type { PeerCertificate, TLSSocket } from 'node:tls';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type LocalHueBridge, startLocalHueBridge } from './hue-bridge.js';

/** An agent that trusts only this certificate and checks its CN against the bridge id (lan-lights.md §2.6). */
function pinnedAgent(certificatePem: string, bridgeId: string) {
  return new https.Agent({
    ca: certificatePem,
    checkServerIdentity: (_host: string, cert: PeerCertificate) =>
      cert.subject.CN === bridgeId
        ? undefined
        : new Error(`certificate CN ${String(cert.subject.CN)} is not ${bridgeId}`),
  });
}

function call(
  agent: https.Agent,
  url: string,
  method: string,
  body?: unknown,
  key?: string,
): Promise<{ status: number; json: unknown; cert: PeerCertificate }> {
  return new Promise((resolve, reject) => {
    const request = https.request(
      url,
      {
        method,
        agent,
        headers: {
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...(key ? { 'hue-application-key': key } : {}),
        },
      },
      (response) => {
        const cert = (response.socket as TLSSocket).getPeerCertificate();
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, json: JSON.parse(text), cert }));
      },
    );
    request.on('error', reject);
    request.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

let bridge: LocalHueBridge;
let agent: https.Agent;
beforeAll(async () => {
  bridge = await startLocalHueBridge();
  agent = pinnedAgent(bridge.certificatePem, bridge.id);
});
afterAll(async () => {
  agent.destroy();
  await bridge.close();
});

describe('local Hue bridge over HTTPS on 127.0.0.1', () => {
  test('listens on loopback with a certificate named after the bridge id', async () => {
    expect(bridge.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    expect(bridge.id).toMatch(/^[0-9a-f]{6}fffe[0-9a-f]{6}$/);
    const res = await call(agent, `${bridge.url}/api/0/config`, 'GET');
    expect(res.status).toBe(200);
    expect(res.cert.subject.CN).toBe(bridge.id);
    expect(res.cert.fingerprint256).toBe(bridge.fingerprint256);
    expect(res.cert.subjectaltname).toBeUndefined();
    expect(res.json).toMatchObject({
      bridgeid: bridge.id.toUpperCase(),
      modelid: 'BSB002',
      factorynew: false,
    });
  });

  test('a client pinned to another bridge id refuses the connection', async () => {
    const wrong = pinnedAgent(bridge.certificatePem, '001788fffe000000');
    await expect(call(wrong, `${bridge.url}/api/0/config`, 'GET')).rejects.toThrow(/is not 001788fffe000000/);
    wrong.destroy();
  });

  test('pairing answers 101 until the link button is pressed, then a key that opens CLIP v2', async () => {
    const ask = () =>
      call(agent, `${bridge.url}/api`, 'POST', { devicetype: 'flaglight#test', generateclientkey: true });
    const before = await ask();
    expect(before.status).toBe(200);
    expect(before.json).toEqual([
      { error: { type: 101, address: '', description: 'link button not pressed' } },
    ]);
    bridge.pressLinkButton();
    expect(bridge.view().linkButton).toBe(true);
    const after = await ask();
    const [{ success }] = after.json as [{ success: { username: string; clientkey: string } }];
    expect(success.username).toHaveLength(40);
    expect(success.clientkey).toMatch(/^[0-9A-F]{32}$/);

    const list = await call(
      agent,
      `${bridge.url}/clip/v2/resource/light`,
      'GET',
      undefined,
      success.username,
    );
    expect(list.status).toBe(200);
    const lights = (list.json as { data: { id: string; signaling?: unknown; color: unknown }[] }).data;
    expect(lights).toHaveLength(4);
    expect(lights.filter((l) => l.signaling === undefined)).toHaveLength(1);

    const wrongKey = await call(agent, `${bridge.url}/clip/v2/resource/light`, 'GET', undefined, 'not-a-key');
    expect(wrongKey.status).toBe(403);
    expect((await call(agent, `${bridge.url}/clip/v2/resource/light`, 'GET')).status).toBe(403);

    const [first, , , plain] = lights;
    const set = await call(
      agent,
      `${bridge.url}/clip/v2/resource/light/${first!.id}`,
      'PUT',
      {
        on: { on: true },
        dimming: { brightness: 100 },
        color: { xy: { x: 0.6915, y: 0.3083 } },
        dynamics: { duration: 0 },
      },
      success.username,
    );
    expect(set.json).toEqual({ errors: [], data: [{ rid: first!.id, rtype: 'light' }] });
    expect(bridge.view().lights[0]).toMatchObject({
      on: true,
      brightness: 100,
      xy: { x: 0.6915, y: 0.3083 },
    });

    const signal = await call(
      agent,
      `${bridge.url}/clip/v2/resource/light/${first!.id}`,
      'PUT',
      { signaling: { signal: 'on_off_color', duration: 5000, colors: [{ xy: { x: 0.4334, y: 0.5022 } }] } },
      success.username,
    );
    expect(signal.status).toBe(200);
    expect(bridge.view().lights[0]!.lastSignal).toMatchObject({
      signal: 'on_off_color',
      durationMs: 5000,
      colors: [{ x: 0.4334, y: 0.5022 }],
    });
    const refused = await call(
      agent,
      `${bridge.url}/clip/v2/resource/light/${plain!.id}`,
      'PUT',
      { signaling: { signal: 'on_off', duration: 2000 } },
      success.username,
    );
    expect(refused.status).toBe(400);
    const missing = await call(
      agent,
      `${bridge.url}/clip/v2/resource/light/nope`,
      'PUT',
      { on: { on: false } },
      success.username,
    );
    expect(missing.status).toBe(404);
    expect(bridge.view().commands.total).toBe(3);
    expect(bridge.commands().map((c) => c.status)).toEqual([200, 200, 400, 404]);

    // An overloaded bridge: the next light command is answered 503 and changes nothing.
    bridge.failNextLightCommands(1);
    const put = () =>
      call(
        agent,
        `${bridge.url}/clip/v2/resource/light/${first!.id}`,
        'PUT',
        { on: { on: false } },
        success.username,
      );
    const busy = await put();
    expect(busy.status).toBe(503);
    expect(busy.json).toMatchObject({ errors: [{ description: 'service unavailable' }] });
    expect(bridge.view().lights[0]!.on).toBe(true);
    expect((await put()).status).toBe(200);
    expect(bridge.view().lights[0]!.on).toBe(false);
  });

  test('a bridge that moves goes silent at its old port and answers at the new one as itself, keys and all', async () => {
    bridge.pressLinkButton();
    const paired = await call(agent, `${bridge.url}/api`, 'POST', { devicetype: 'flaglight#move' });
    const [{ success }] = paired.json as [{ success: { username: string } }];
    const before = bridge.url;
    const moved = await bridge.move();
    expect(moved.url).not.toBe(before);
    expect(bridge.url).toBe(moved.url);
    expect(bridge.view().url).toBe(moved.url);
    // Another agent: the first one's kept-alive connection was cut with the old address.
    const fresh = pinnedAgent(bridge.certificatePem, bridge.id);
    await expect(call(fresh, `${before}/api/0/config`, 'GET')).rejects.toThrow(/ECONNREFUSED/);
    const list = await call(fresh, `${moved.url}/clip/v2/resource/light`, 'GET', undefined, success.username);
    expect(list.status).toBe(200);
    expect(list.cert.fingerprint256).toBe(bridge.fingerprint256);

    // A move with a silence: nothing answers anywhere until it is over.
    const silent = bridge.move(0, { silentMs: 300 });
    await new Promise((resolve) => setTimeout(resolve, 50));
    await expect(call(fresh, `${moved.url}/api/0/config`, 'GET')).rejects.toThrow(/ECONNREFUSED/);
    const back = await silent;
    expect((await call(fresh, `${back.url}/api/0/config`, 'GET')).status).toBe(200);
    fresh.destroy();
  });
});
