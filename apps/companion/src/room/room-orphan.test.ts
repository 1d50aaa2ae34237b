import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createLifxLanDriver } from '@flaglight/lights/lan';
import { startVirtualLifxBulbs, type VirtualLifxBulbs } from '@flaglight/sims';
import { afterEach, describe, expect, test } from 'vitest';
import { paced } from '../../../../scripts/test-pace.mjs';
import { until } from '../../test/demo-server.js';
import { createLightsHub, type LightsHub } from '../lights/lights-hub.js';
import { createLogger } from '../system/log.js';
import { ROOM_SNAPSHOT_FILE } from './room-file.js';
import { createRoomSnapshots, type RoomSnapshots } from './room-snapshot.js';

// A snapshot left on disk by a run that stopped mid-session (a crash, kill -9): the next run gives
// the room back once that session is over, with the companion's real lights hub and LIFX LAN driver
// against virtual bulbs over UDP on 127.0.0.1.

let bulbs: VirtualLifxBulbs;
let hub: LightsHub;
let dir: string;
const rooms: RoomSnapshots[] = [];
afterEach(async () => {
  for (const room of rooms.splice(0)) room.close();
  await hub.close();
  await bulbs.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const view = () => JSON.stringify(bulbs.list().map((b) => ({ id: b.id, on: b.on, color: b.color })));

/** A room read before a session's first flag (session 7), the flag played, then the run gone. */
async function crashMidSession(): Promise<string> {
  bulbs = await startVirtualLifxBulbs({ count: 4 });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'flaglight-room-orphan-'));
  const log = createLogger({ console: false });
  hub = createLightsHub({ log });
  const driver = createLifxLanDriver({
    targets: [{ host: bulbs.host, port: bulbs.discoveryPort }],
    bindAddress: '127.0.0.1',
    discoveryWindowMs: 150,
    rescanIntervalMs: 0,
  });
  await hub.add('lifx_lan', 'lifx', driver);
  await until(() => hub.lights().filter((l) => l.driven).length === 4, 'four bulbs driven');
  const before = view();
  expect(bulbs.list().filter((b) => !b.on)).toHaveLength(1);

  const first = createRoomSnapshots({
    dir,
    hub,
    log,
    sessionEnd: () => 'as-it-was',
    following: () => ({ sessionKey: 7, live: true }),
  });
  rooms.push(first);
  await first.take(7);
  expect(fs.existsSync(path.join(dir, ROOM_SNAPSHOT_FILE))).toBe(true);
  hub.play('red');
  await until(() => view() !== before, 'the red flag on the bulbs');
  // The run stops without carrying out the session's end: only its file is left.
  first.close();
  return before;
}

describe('a snapshot left by a run that stopped', () => {
  test(
    'is given back by the next run once the server has no live session',
    { timeout: paced(20_000) },
    async () => {
      const before = await crashMidSession();
      let connecting = true;
      const next = createRoomSnapshots({
        dir,
        hub,
        log: createLogger({ console: false }),
        sessionEnd: () => 'as-it-was',
        following: () => ({ sessionKey: null, live: connecting ? null : false }),
      });
      rooms.push(next);
      // Not following anything yet (still connecting): the room waits.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(next.view().sessionKey).toBe(7);
      expect(view()).not.toBe(before);
      connecting = false;
      await until(() => view() === before, 'the bulbs as they were', { ms: 5_000 });
      expect(next.view()).toMatchObject({ sessionKey: null, last: { restored: 4, left: [] } });
      expect(fs.existsSync(path.join(dir, ROOM_SNAPSHOT_FILE))).toBe(false);
    },
  );

  test(
    'is given back by the next run once another session is live, with the choice "off" carried out instead',
    { timeout: paced(20_000) },
    async () => {
      await crashMidSession();
      const next = createRoomSnapshots({
        dir,
        hub,
        log: createLogger({ console: false }),
        sessionEnd: () => 'off',
        following: () => ({ sessionKey: 8, live: true }),
      });
      rooms.push(next);
      await until(() => bulbs.list().every((b) => !b.on), 'every bulb off', { ms: 5_000 });
      expect(next.view()).toMatchObject({ sessionKey: null, last: null });
      expect(fs.existsSync(path.join(dir, ROOM_SNAPSHOT_FILE))).toBe(false);
    },
  );
});
