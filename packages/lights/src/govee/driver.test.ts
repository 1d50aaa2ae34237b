import { COLOR_PRESETS } from '@flaglight/core';
import { describe, expect, test } from 'vitest';
import { createEffectPlayer } from '../player/player.js';
import { createGoveeCloudDriver, toGoveeStateBody } from './driver.js';

/** The app server's Govee routes as a fetch: records each call, answers from `reply`. */
function fakeServer(reply: (path: string, body: unknown) => { status: number; body: unknown }) {
  const calls: { path: string; body: unknown; auth: string | null }[] = [];
  const fetch = (async (input: string | URL | Request, init?: RequestInit) => {
    const path = input instanceof Request ? input.url : input.toString();
    const body: unknown = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    calls.push({ path, body, auth: new Headers(init?.headers).get('authorization') });
    const answer = reply(path, body);
    return new Response(JSON.stringify(answer.body), { status: answer.status });
  }) as typeof globalThis.fetch;
  return { calls, fetch };
}

const LIGHTS = [{ id: 'AA:01', label: 'Strip', name: 'Strip', type: 'H6159', connected: true }];

describe('Govee cloud driver (through the app server)', () => {
  test('lists lights and sends flags with the session token, never a Govee key', async () => {
    const server = fakeServer((path) =>
      path.endsWith('/lights')
        ? { status: 200, body: { lights: LIGHTS } }
        : { status: 200, body: { success: true, sent: true, mode: 'normal', note: 'solid red' } },
    );
    const driver = createGoveeCloudDriver({ token: 'session-1', fetch: server.fetch });
    expect(await driver.connect()).toEqual(LIGHTS);
    expect(await driver.sendFlag(['AA:01'], 'red')).toEqual({
      sent: true,
      mode: 'normal',
      note: 'solid red',
    });
    expect(server.calls.map((c) => c.path)).toEqual(['/api/govee/lights', '/api/govee/lights/flag']);
    expect(server.calls.every((c) => c.auth === 'Bearer session-1')).toBe(true);
  });

  test('a strobe step shows its colour once: the player does not expand it for the cloud', async () => {
    const server = fakeServer(() => ({ status: 200, body: { success: true, lights: 1 } }));
    const driver = createGoveeCloudDriver({ token: 'session-1', fetch: server.fetch });
    const player = createEffectPlayer({ driver, devices: () => ['AA:01'] });
    player.play('red');
    await new Promise((resolve) => setTimeout(resolve, 50));
    player.dispose();
    expect(server.calls).toHaveLength(1);
    expect(server.calls[0]?.body).toEqual({
      lightIds: ['AA:01'],
      on: true,
      color: { r: 255, g: 0, b: 0 },
      brightness: 100,
    });
  });

  test('black switches off; brightness is 1-100 %', () => {
    expect(
      toGoveeStateBody(['x'], { on: true, color: COLOR_PRESETS.black, brightness: 1, transitionMs: 0 }),
    ).toEqual({
      lightIds: ['x'],
      on: false,
    });
    expect(
      toGoveeStateBody(['x'], { on: true, color: COLOR_PRESETS.orange, brightness: 0.5, transitionMs: 0 }),
    ).toMatchObject({ color: { r: 255, g: 128, b: 0 }, brightness: 50 });
  });

  test('a refused key disconnects with the server’s words; a 429 is a rate limit', async () => {
    let answer = { status: 200, body: { lights: LIGHTS } as unknown };
    const server = fakeServer(() => answer);
    const driver = createGoveeCloudDriver({ token: 'session-1', fetch: server.fetch });
    const events: string[] = [];
    driver.subscribe((event) => events.push(event.type));
    await driver.connect();
    answer = { status: 429, body: { error: 'Govee is rate limiting this key', code: 'rate_limited' } };
    await expect(driver.sendFlag(['AA:01'], 'red')).rejects.toMatchObject({ kind: 'rate-limit' });
    answer = {
      status: 403,
      body: { error: 'Govee no longer accepts the stored API key.', code: 'govee_key_refused' },
    };
    await expect(driver.sendFlag(['AA:01'], 'red')).rejects.toMatchObject({
      kind: 'auth',
      message: 'Govee no longer accepts the stored API key.',
    });
    expect(events).toEqual(['error', 'disconnect']);
    expect(driver.connected).toBe(false);
  });
});
