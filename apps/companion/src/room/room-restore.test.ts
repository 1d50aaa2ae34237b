import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { findFreeTcpPort } from '@flaglight/sims';
import { afterAll, afterEach, beforeEach, describe, expect, test } from 'vitest';
import { paced } from '../../../../scripts/test-pace.mjs';
import {
  linkCompanion,
  runCompanion,
  startLinkedAgain,
  type CompanionRun,
} from '../../test/companion-cli.js';
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
import { describeRoom, lookChanges, readRoomLooks, type RoomLooks } from '../../test/room-lights.js';
import { renderStatusPage } from '../../test/status-page-dom.js';
import type { Companion } from '../companion.js';
import { ROOM_SNAPSHOT_FILE } from './room-file.js';
import { SESSION_END_AFTER_CHEQUERED_MS, type RoomView } from './room-snapshot.js';

/**
 * "Give the room back": the real server in demo mode (its own process) replays the end of a race;
 * a whole companion follows it and drives every light of the server's LAN simulator (LIFX, Hue,
 * Govee, Nanoleaf, WLED, Home Assistant), each of which starts in a look of its own (some off, some
 * dimmed, a WLED preset and a Nanoleaf effect running). The race's chequered flag ends the session,
 * and the fan's choice for the session's end is carried out on every light.
 */
const DEMO_FIXTURE = '2025-mexico-city-race';
/** Minutes into the recording: green (track clear at 140.93), the chequered flag 13 s later at speed 1 (141.22). */
const BEFORE_CHEQUERED_MINUTES = 141.0;
const CHEQUERED_MINUTES = 141.22;
/** The race once resumed: the chequered flag in about a second. */
const FAST = 10;
/**
 * "Back as it was within 5 s" of the session's end: for a race, the end of the chequered flag's
 * flash (SESSION_END_AFTER_CHEQUERED_MS after it reached the lights, decision 050).
 */
const GIVEN_BACK_WITHIN_MS = 5_000;

// A server per test: the server keeps the live session it found a while (30 s), and each test's
// race is a session of its own from its start.
let server: DemoServer;
let companion: Companion | null = null;
let runs: CompanionRun[] = [];
const dirs: string[] = [];
beforeEach(async () => {
  server = await startDemoServer();
}, paced(90_000));
afterEach(async () => {
  await companion?.close();
  companion = null;
  await Promise.all(runs.map((run) => run.stop()));
  runs = [];
  await server?.stop();
}, paced(30_000));
afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

const dataDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'flaglight-room-'));
  dirs.push(dir);
  return dir;
};

interface Status {
  stream: { state: string };
  lights: { provider: string; reachable: boolean }[];
  flag: { state: string; at: string } | null;
  room: RoomView;
}
const statusOf = (running: Companion) => running.status() as unknown as Status;

/** The account's choice for when the session ends (every session followed, green kept). */
async function chooseSessionEnd(session: string, sessionEnd: 'as-it-was' | 'off' | 'leave') {
  const current = (await call(server.url, 'GET', '/api/me/preferences', undefined, session)) as {
    version: number;
    preferences: Record<string, unknown>;
  };
  const lightFollow = {
    sessions: ['practice', 'qualifying', 'sprint_qualifying', 'sprint', 'race'],
    afterGreen: { action: 'keep', afterSeconds: 60 },
    sessionEnd,
  };
  await call(
    server.url,
    'PUT',
    '/api/me/preferences',
    // No broadcast delay: the flags reach the lights as the replay shows them (a shorter test).
    {
      version: current.version,
      preferences: { ...current.preferences, lightFollow, delay: { enabled: false, seconds: 0 } },
    },
    session,
  );
}

/**
 * A fan's companion following the race paused just before its chequered flag: the green has
 * reached the lights (the room read before it), and `before` is the room as it was.
 */
async function followBeforeChequered(sessionEnd: 'as-it-was' | 'off' | 'leave') {
  const session = await signUp(server.url);
  await chooseSessionEnd(session, sessionEnd);
  await setDemoRace(server.url, DEMO_FIXTURE, BEFORE_CHEQUERED_MINUTES, 0);
  const before = await readRoomLooks(server.url);
  const room = describeRoom(before);
  expect(room.brands).toEqual(['Govee', 'Home Assistant', 'Hue', 'LIFX', 'Nanoleaf', 'WLED']);
  expect(room.off).toBeGreaterThanOrEqual(5);

  const dir = dataDir();
  const running = await startLinkedDemoCompanion({
    server: server.url,
    session,
    dataDir: dir,
    deviceName: 'Living room',
  });
  companion = running;
  await until(() => statusOf(running).flag?.state === 'green', 'the green to reach the lights').catch(
    (error: unknown) => {
      console.info(
        running.log
          .recent()
          .map((e) => `${e.at} ${e.message}`)
          .join('\n'),
      );
      console.info(JSON.stringify(running.status()).slice(0, 3000));
      throw error;
    },
  );
  await until(() => fs.existsSync(path.join(dir, ROOM_SNAPSHOT_FILE)), 'the room read and kept on disk');
  // The green changed the room (a light that was off, or dimmed, now shows it).
  await until(async () => lookChanges(before, await readRoomLooks(server.url)).length > 0, 'a changed light');
  return { session, running, dir, before };
}

/** Resumes the race; the moment the chequered flag reached the lights (ms). */
async function playChequered(running: Companion): Promise<number> {
  await setDemoRaceSpeed(server.url, FAST);
  const shown = await until(
    () => (statusOf(running).flag?.state === 'checkered' ? statusOf(running).flag : null),
    'the chequered flag to reach the lights',
    { ms: 20_000, everyMs: 50 },
  ).catch(async (error: unknown) => {
    console.info(
      running.log
        .recent()
        .map((e) => `${e.at} ${e.message}`)
        .join('\n'),
    );
    throw error;
  });
  return Date.parse(shown.at);
}

/** Polls the simulator until every light is back as it was; the time that took (ms), or the last differences. */
async function waitUntilGivenBack(
  before: RoomLooks,
  ms: number,
): Promise<{ at: number } | { left: string[] }> {
  const end = Date.now() + ms;
  let left: string[] = [];
  while (Date.now() < end) {
    left = lookChanges(before, await readRoomLooks(server.url));
    if (left.length === 0) return { at: Date.now() };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { left };
}

describe('the room when the session ends', () => {
  test(
    '"as it was": after the chequered flag every light of every brand is back as it was within 5 s',
    { timeout: paced(60_000) },
    async () => {
      const { running, dir, before } = await followBeforeChequered('as-it-was');
      const chequeredAt = await playChequered(running);
      const endedAt = chequeredAt + SESSION_END_AFTER_CHEQUERED_MS;
      const outcome = await waitUntilGivenBack(before, endedAt + GIVEN_BACK_WITHIN_MS + 5_000 - Date.now());
      if ('left' in outcome) {
        console.info(
          running.log
            .recent()
            .map((e) => `${e.at} ${e.message}`)
            .join('\n'),
        );
        console.info(JSON.stringify(statusOf(running).room));
      }
      expect(outcome).toEqual({ at: expect.any(Number) });
      const at = (outcome as { at: number }).at;
      console.info(
        `room given back ${at - chequeredAt} ms after the chequered flag reached the lights, ${at - endedAt} ms after the session's end`,
      );
      expect(at - endedAt).toBeLessThanOrEqual(GIVEN_BACK_WITHIN_MS);

      const room = statusOf(running).room;
      expect(room.last?.left).toEqual([]);
      expect(room.last?.restored).toBe(before.size);
      expect(room.sessionKey).toBeNull();
      expect(fs.existsSync(path.join(dir, ROOM_SNAPSHOT_FILE))).toBe(false);
      expect(renderStatusPage(running.status())('room-last').textContent).toMatch(
        /^Room given back at \d\d:\d\d:\d\d: 24 lights as they were\.$/,
      );
      // What the race still says after its chequered flag no longer reaches the lights.
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      expect(lookChanges(before, await readRoomLooks(server.url))).toEqual([]);
    },
  );

  test(
    '"as it was" after kill -9: the companion started again gives the room back once the session is over',
    { timeout: paced(60_000) },
    async () => {
      const session = await signUp(server.url);
      await chooseSessionEnd(session, 'as-it-was');
      await setDemoRace(server.url, DEMO_FIXTURE, BEFORE_CHEQUERED_MINUTES, 0);
      const before = await readRoomLooks(server.url);
      const dir = dataDir();
      const port = await findFreeTcpPort();
      const first = await runCompanion({ server: server.url, port, dataDir: dir });
      runs.push(first);
      await linkCompanion(first, server.url, session);
      const statusOfRun = async (run: CompanionRun) =>
        (await run.status().catch(() => null)) as Status | null;
      await until(
        async () => (await statusOfRun(first))?.flag?.state === 'green',
        'the green to reach the lights',
      );
      await until(() => fs.existsSync(path.join(dir, ROOM_SNAPSHOT_FILE)), 'the room kept on disk');
      await until(
        async () => lookChanges(before, await readRoomLooks(server.url)).length > 0,
        'a changed light',
      );

      // Mid-session, the companion is killed; the race ends while it is away.
      await first.kill();
      await setDemoRaceSpeed(server.url, FAST);
      await until(async () => {
        const [replay] = (await call(server.url, 'GET', '/sims/openf1/_control/replays')) as {
          positionMs: number;
        }[];
        return replay && replay.positionMs > CHEQUERED_MINUTES * 60_000;
      }, 'the chequered flag to show while the companion is away');
      expect(lookChanges(before, await readRoomLooks(server.url)).length).toBeGreaterThan(0);

      const again = await startLinkedAgain({ server: server.url, dataDir: dir });
      companion = again;
      // A ceiling, not a promise (the process starts afresh first): stretched on a slow host.
      const outcome = await waitUntilGivenBack(before, paced(30_000));
      console.info(
        again.log
          .recent()
          .map((e) => e.message)
          .filter((line) => /Room|Flag|Following|Linked/.test(line))
          .join('\n'),
      );
      expect(outcome).toEqual({ at: expect.any(Number) });
      // The status records the restore once it has ended: a poll can see every light back a moment before.
      const last = await until(() => statusOf(again).room.last, 'the status to tell of the restore');
      expect(last).toMatchObject({ restored: before.size, left: [] });
      expect(fs.existsSync(path.join(dir, ROOM_SNAPSHOT_FILE))).toBe(false);
    },
  );

  test(
    '"off": after the chequered flag every light of every brand is off within 5 s',
    { timeout: paced(60_000) },
    async () => {
      const { running, dir, before } = await followBeforeChequered('off');
      const chequeredAt = await playChequered(running);
      const allOff = await until(
        async () => {
          const now = await readRoomLooks(server.url);
          return [...now.values()].every((look) => /"on":false|"state":"off"/.test(look)) ? Date.now() : null;
        },
        'every light off',
        { ms: SESSION_END_AFTER_CHEQUERED_MS + GIVEN_BACK_WITHIN_MS + 5_000 },
      );
      console.info(`every light off ${allOff - chequeredAt} ms after the chequered flag reached the lights`);
      expect(allOff - chequeredAt - SESSION_END_AFTER_CHEQUERED_MS).toBeLessThanOrEqual(GIVEN_BACK_WITHIN_MS);
      expect((await readRoomLooks(server.url)).size).toBe(before.size);
      expect(statusOf(running).room).toMatchObject({ sessionKey: null, last: null });
      expect(fs.existsSync(path.join(dir, ROOM_SNAPSHOT_FILE))).toBe(false);
    },
  );

  test('"leave": after the chequered flag the lights keep its look', { timeout: paced(60_000) }, async () => {
    const { running, dir, before } = await followBeforeChequered('leave');
    const chequeredAt = await playChequered(running);
    // Well past the moment "as it was" or "off" would have acted.
    await until(() => !fs.existsSync(path.join(dir, ROOM_SNAPSHOT_FILE)), 'the session to end');
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, chequeredAt + 6_000 - Date.now())));
    const now = await readRoomLooks(server.url);
    // Every light shows the chequered flag's look: on (those that were off too), none as it was.
    expect([...now.entries()].filter(([, look]) => /"on":false|"state":"off"/.test(look))).toEqual([]);
    expect(lookChanges(before, now)).toHaveLength(before.size);
    expect(statusOf(running).room).toMatchObject({ sessionKey: null, last: null });
  });
});
