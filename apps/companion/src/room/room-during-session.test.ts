import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  DEFAULT_LIGHT_FOLLOW,
  FOLLOWED_SESSION_KINDS,
  type LightFollowSettings,
  type LightState,
} from '@flaglight/core';
import { startWledSim, type WledSimDevice } from '@flaglight/sims';
import { afterEach, describe, expect, test } from 'vitest';
import { until } from '../../test/demo-server.js';
import type { DeliveredFlag } from '../follow/follower-types.js';
import { createPlayback, type Playback } from '../follow/playback.js';
import { createSessionLights, type SessionLights } from '../follow/session-lights.js';
import { createLightsHub, type LightsHub } from '../lights/lights-hub.js';
import { startWledSupport } from '../lights/wled-support.js';
import { createFollowState } from '../start/follow-state.js';
import { startRoomSnapshots } from '../start/start-room.js';
import { createLogger } from '../system/log.js';
import { readRoomSnapshot } from './room-file.js';
import { SESSION_END_AFTER_CHEQUERED_MS, type RoomSnapshots } from './room-snapshot.js';

// "As it was" while a session is on: the companion's own session filter, delayed playback, lights
// hub and room snapshot, wired as the companion wires them (`start/start-room.ts`), on three WLED
// strips simulated over HTTP on 127.0.0.1, each in a look of its own. The server's part (the flags
// of a live race, its kind, the fan's choices) is given directly.

const sims: WledSimDevice[] = [];
const dirs: string[] = [];
let hub: LightsHub | null = null;
let room: RoomSnapshots | null = null;
let sessions: SessionLights | null = null;
afterEach(async () => {
  room?.close();
  sessions?.close();
  await hub?.close();
  hub = room = sessions = null;
  await Promise.all(sims.splice(0).map((s) => s.close()));
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** What "as it was" gives back on a strip: power, brightness, colour, effect. */
const lookOf = (d: WledSimDevice) => {
  const { on, bri, seg } = d.view().state;
  return JSON.stringify({ on, bri, col: seg[0]?.col[0], fx: seg[0]?.fx });
};

async function follow(options: { delayMs?: number } = {}) {
  sims.push(await startWledSim({ name: 'Shelf', mac: 'a0b765e30001', first: { ps: 1 } }));
  sims.push(await startWledSim({ name: 'Desk', mac: 'a0b765e30002', first: { on: false } }));
  sims.push(await startWledSim({ name: 'Tv', mac: 'a0b765e30003', first: { col: [0, 0, 255], bri: 60 } }));
  const strips = sims as [WledSimDevice, WledSimDevice, WledSimDevice];
  const log = createLogger({ console: false });
  const lights = createLightsHub({ log });
  hub = lights;
  const address = (d: WledSimDevice) => ({ host: d.host, port: d.port });
  await startWledSupport({ hub: lights, log, addresses: strips.map(address), mdns: false });
  // The fan drives the first two strips.
  lights.setSelection({
    selectedLights: { wled: [strips[0].id, strips[1].id] },
    sharedLightsDriver: 'companion',
  });

  let settings: LightFollowSettings = {
    ...DEFAULT_LIGHT_FOLLOW,
    sessions: [...FOLLOWED_SESSION_KINDS],
    sessionEnd: 'as-it-was',
  };
  const session = createSessionLights({
    describe: () => Promise.resolve({ session_name: 'Race', session_type: 'Race' }),
    follow: () => settings,
    looks: () => undefined,
    hub: lights,
    log,
  });
  sessions = session;
  const playback: Playback = createPlayback({
    hub: lights,
    log,
    delayMs: () => options.delayMs ?? 0,
    sessions: session,
    onPlayed: (data) => snapshots.flagPlayed(data.state, data.sessionKey, session.view().kind),
  });
  const followState = createFollowState();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'flaglight-room-live-'));
  dirs.push(dir);
  const snapshots = startRoomSnapshots({
    options: { dataDir: dir },
    hub: lights,
    log,
    preferences: { follow: () => settings },
    follow: followState,
    sessions: session,
  });
  room = snapshots;

  let id = 0;
  const flag = (state: LightState, sessionKey = 7): Promise<void> => {
    const now = Date.now();
    const delivered: DeliveredFlag = {
      id: ++id,
      data: {
        sessionKey,
        state,
        activeSectors: [],
        cause: { date: new Date(now).toISOString(), message: `Flag ${state}` },
        emittedAt: new Date(now).toISOString(),
      },
      receivedAt: now,
      ageMs: 0,
    };
    return playback.onFlags([delivered]);
  };
  const status = (state: 'following' | 'waiting', sessionKey: number | null) => {
    followState.status = { state, sessionKey, message: null, lastEventAt: null };
    session.followerStatus(followState.status);
  };
  const before = strips.map(lookOf);
  const asItWas = (which: readonly WledSimDevice[] = strips) =>
    which.every((d) => lookOf(d) === before[strips.indexOf(d)]);
  return {
    strips,
    playback,
    flag,
    status,
    asItWas,
    dir,
    setFollow: (next: Partial<LightFollowSettings>) => (settings = { ...settings, ...next }),
  };
}

const SETTLE = { ms: 10_000, everyMs: 25 };
const settled = (d: WledSimDevice, hex: string) => d.view().hex === hex && d.view().effect === 'Solid';
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the room during a live session', () => {
  test("a test before the session's first flag: the room is read before it, and given back at the end", async () => {
    const { strips, playback, flag, status, asItWas } = await follow();
    const [shelf, desk] = strips;
    status('following', 7);
    expect(playback.showTest('red', 'Test')).toBe(true);
    await until(
      () => settled(shelf, '#800000') && settled(desk, '#800000'),
      "the test's settled red",
      SETTLE,
    );
    // The session's first flag comes while the test still shows.
    await flag('green');
    await until(() => settled(shelf, '#008000'), 'the race green', SETTLE);
    status('waiting', null);
    await until(() => asItWas(), 'the room as it was before the test', { ms: 8_000 });
  }, 40_000);

  test('a light ticked mid-session is read before the flag reaches it, and given back with the others', async () => {
    const { strips, flag, status, asItWas, dir } = await follow();
    const [shelf, desk, tv] = strips;
    status('following', 7);
    await flag('green');
    await until(
      () => settled(shelf, '#008000') && settled(desk, '#008000'),
      'green on the driven strips',
      SETTLE,
    );
    expect(asItWas([tv])).toBe(true);

    hub!.setSelection({ selectedLights: { wled: strips.map((d) => d.id) }, sharedLightsDriver: 'companion' });
    await until(() => settled(tv, '#008000'), 'green on the strip ticked mid-session', SETTLE);
    expect(readRoomSnapshot(dir)?.lights[`wled:${tv.id}`]).toMatchObject({ readable: true });

    status('waiting', null);
    await until(() => asItWas(), 'all three strips as they were', { ms: 8_000 });
  }, 40_000);

  test("after the chequered flag's give-back, the session's later flags leave the room alone; a new session drives it", async () => {
    const { strips, playback, flag, status, asItWas } = await follow();
    const [shelf] = strips;
    status('following', 7);
    await flag('green');
    await until(() => settled(shelf, '#008000'), 'the race green', SETTLE);
    await flag('checkered');
    await until(() => asItWas(), 'the room given back after the chequered flag', {
      ms: SESSION_END_AFTER_CHEQUERED_MS + 5_000,
    });
    // Race control's "pit exit open" turns the track-wide state back to green.
    await flag('green');
    await pause(3_000);
    expect(asItWas()).toBe(true);
    expect(playback.shown()?.state).toBe('checkered');

    status('following', 8);
    await flag('yellow', 8);
    await until(() => !asItWas(), "the next session's flag on the lights", SETTLE);
  }, 40_000);

  test('a session kind turned off mid-session: a flag queued behind the delay is not played', async () => {
    const { strips, playback, flag, status, setFollow } = await follow({ delayMs: 2_000 });
    const [shelf] = strips;
    status('following', 7);
    await flag('green');
    await until(() => settled(shelf, '#008000'), 'the race green, after the delay', SETTLE);
    await flag('red');
    expect(playback.pending()).toHaveLength(1);
    setFollow({ sessions: ['qualifying', 'sprint_qualifying'] });
    await pause(3_500);
    expect(settled(shelf, '#008000')).toBe(true);
    expect(playback.shown()?.state).toBe('green');
    expect(playback.pending()).toEqual([]);
  }, 40_000);
});
