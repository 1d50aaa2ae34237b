import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, test } from 'vitest';
import { paced } from '../../../../scripts/test-pace.mjs';
import {
  call,
  setDemoRace,
  setDemoRaceSpeed,
  signUp,
  startDemoServer,
  startLinkedDemoCompanion,
  until,
  type DemoServer,
} from '../../test/demo-server.js';
import type { Companion } from '../companion.js';

/**
 * Unlinking stops the lights at once, flags already queued behind the broadcast delay included.
 * The real server in demo mode (its own process) plays the demo race; the whole companion follows
 * it and drives the server's LAN simulator (LIFX, Hue, Govee, Nanoleaf, WLED, Home Assistant). A
 * yellow flag is queued behind a 20 s delay, the companion is unlinked, and the lights are watched
 * until well past the yellow's time.
 */
const DEMO_FIXTURE = '2021-saudi-arabia-race';
/** Minutes into the recording: green now, a yellow flag 9 s later at speed 1. */
const BEFORE_YELLOW_MINUTES = 203.9;
const DELAY_SECONDS = 20;

interface Swatch {
  id: string;
  label: string;
  hex: string;
}

/** A lit yellow (`#rrggbb`, any brightness): red and green alike and well above blue. */
function yellowish(hex: string): boolean {
  const [r, g, b] = [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16)) as [
    number,
    number,
    number,
  ];
  return r > 0x40 && g > 0x40 && Math.abs(r - g) < 0x30 && b < r / 3;
}

// A server per test: each fan's race is a session of its own from its start.
let server: DemoServer;
let companion: Companion | null = null;
const dirs: string[] = [];
beforeEach(async () => {
  server = await startDemoServer();
}, paced(90_000));
afterEach(async () => {
  await companion?.close();
  companion = null;
  await server?.stop();
}, paced(30_000));
afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

/** Every light of the LAN simulator as its live page shows it. */
async function swatches(): Promise<Swatch[]> {
  const body = (await call(server.url, 'GET', '/sims/lan/_control/bulbs')) as { bulbs: Swatch[] };
  return body.bulbs;
}

/**
 * A fan's companion, linked and following the race paused just before a yellow flag, with the
 * account's delay at 20 s: the race goes on and the yellow waits in the companion's queue.
 */
async function followWithYellowQueued(): Promise<{
  session: string;
  companion: Companion;
  yellowAt: number;
}> {
  const session = await signUp(server.url);
  await setDemoRace(server.url, DEMO_FIXTURE, BEFORE_YELLOW_MINUTES, 1);
  await setDemoRaceSpeed(server.url, 0);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'flaglight-unlink-'));
  dirs.push(dir);
  const running = await startLinkedDemoCompanion({
    server: server.url,
    session,
    dataDir: dir,
    deviceName: 'Living room',
  });
  companion = running;
  await until(() => {
    const status = running.status() as unknown as {
      stream: { state: string };
      lights: { reachable: boolean }[];
    };
    return status.stream.state === 'following' && status.lights.filter((l) => l.reachable).length >= 10;
  }, 'the companion to follow the race and find the LAN lights');

  const current = (await call(server.url, 'GET', '/api/me/preferences', undefined, session)) as {
    version: number;
    preferences: Record<string, unknown>;
  };
  await call(
    server.url,
    'PUT',
    '/api/me/preferences',
    {
      version: current.version,
      preferences: { ...current.preferences, delay: { enabled: true, seconds: DELAY_SECONDS } },
    },
    session,
  );
  await until(() => running.status().delayMs === DELAY_SECONDS * 1000, 'the 20 s delay');
  await setDemoRaceSpeed(server.url, 1);
  const queued = await until(
    () => (running.status().pending as { state: string; at: string }[]).find((p) => p.state === 'yellow'),
    'the yellow flag to reach the companion',
  );
  return { session, companion: running, yellowAt: Date.parse(queued.at) };
}

/** From now until well past the queued yellow's time: no light turns yellow, none changes at all. */
async function expectLightsLeftAsTheyAre(yellowAt: number) {
  const left = new Map((await swatches()).map((s) => [s.id, s.hex]));
  expect([...left.values()].some(yellowish)).toBe(false);
  const turnedYellow = new Set<string>();
  const changed = new Set<string>();
  while (Date.now() < yellowAt + 6_000) {
    for (const swatch of await swatches()) {
      if (yellowish(swatch.hex)) turnedYellow.add(swatch.label);
      if (left.get(swatch.id) !== swatch.hex)
        changed.add(`${swatch.label}: ${left.get(swatch.id)} → ${swatch.hex}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  expect([...turnedYellow]).toEqual([]);
  expect([...changed]).toEqual([]);
}

describe('unlinking a companion with a flag queued behind the delay', () => {
  test(
    'Settings → Devices → Unlink (DELETE /api/devices/:id): the queued yellow never reaches a light',
    { timeout: paced(180_000) },
    async () => {
      const { session, companion: running, yellowAt } = await followWithYellowQueued();
      // The yellow is still waiting: the fan unlinks the companion in the web app.
      expect(yellowAt).toBeGreaterThan(Date.now() + 5_000);
      const [device] = (await call(server.url, 'GET', '/api/devices', undefined, session)) as {
        id: string;
      }[];
      await call(server.url, 'DELETE', `/api/devices/${device!.id}`, undefined, session);
      await until(() => !running.status().linked, 'the companion to learn it was unlinked', { ms: 10_000 });
      expect(running.status().pending).toEqual([]);

      await expectLightsLeftAsTheyAre(yellowAt);
      expect(running.log.recent().map((e) => e.message)).not.toContain('Flag yellow');
    },
  );

  test(
    'unlink on this computer (the status page, `flaglight-companion unlink`): the queued yellow never reaches a light',
    { timeout: paced(180_000) },
    async () => {
      const { companion: running, yellowAt } = await followWithYellowQueued();
      expect(yellowAt).toBeGreaterThan(Date.now() + 5_000);
      const response = await fetch(`${running.bridge.url}api/unlink`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      expect(response.status).toBe(200);
      expect(running.status().linked).toBe(false);
      expect(running.status().pending).toEqual([]);

      await expectLightsLeftAsTheyAre(yellowAt);
    },
  );
});
