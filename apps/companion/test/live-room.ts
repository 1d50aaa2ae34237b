// A live followed session wired as the companion wires it (`start/start-room.ts`): the session
// filter, delayed playback, lights hub and room snapshot, on three WLED strips simulated over HTTP on
// 127.0.0.1, each in a look of its own; the fan drives the first two. The server's part (the flags of
// a live race, its kind, the fan's choices) is given directly. Call `closeLiveRooms` after each test.
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
import type { DeliveredFlag } from '../src/follow/follower-types.js';
import { createPlayback, type Playback } from '../src/follow/playback.js';
import { createSessionLights, type SessionLights } from '../src/follow/session-lights.js';
import { createLightsHub, type LightsHub } from '../src/lights/lights-hub.js';
import { startWledSupport } from '../src/lights/wled-support.js';
import type { RoomSnapshots } from '../src/room/room-snapshot.js';
import { createFollowState } from '../src/start/follow-state.js';
import { startRoomSnapshots } from '../src/start/start-room.js';
import { createLogger } from '../src/system/log.js';

const sims: WledSimDevice[] = [];
const dirs: string[] = [];
const open: { hub: LightsHub; room: RoomSnapshots; sessions: SessionLights }[] = [];

/** Closes every room, hub and strip the tests started. */
export async function closeLiveRooms(): Promise<void> {
  for (const { hub, room, sessions } of open.splice(0)) {
    room.close();
    sessions.close();
    await hub.close();
  }
  await Promise.all(sims.splice(0).map((s) => s.close()));
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
}

/** What "as it was" gives back on a strip: power, brightness, colour, effect. */
export const lookOf = (d: WledSimDevice) => {
  const { on, bri, seg } = d.view().state;
  return JSON.stringify({ on, bri, col: seg[0]?.col[0], fx: seg[0]?.fx });
};

/** A strip showing `hex` without an effect running. */
export const settled = (d: WledSimDevice, hex: string) => d.view().hex === hex && d.view().effect === 'Solid';

export const SETTLE = { ms: 10_000, everyMs: 25 };

export async function followLiveRoom(
  options: { delayMs?: number; sessionEnd?: LightFollowSettings['sessionEnd'] } = {},
) {
  sims.push(await startWledSim({ name: 'Shelf', mac: 'a0b765e30001', first: { ps: 1 } }));
  sims.push(await startWledSim({ name: 'Desk', mac: 'a0b765e30002', first: { on: false } }));
  sims.push(await startWledSim({ name: 'Tv', mac: 'a0b765e30003', first: { col: [0, 0, 255], bri: 60 } }));
  const strips = sims.slice(-3) as [WledSimDevice, WledSimDevice, WledSimDevice];
  const log = createLogger({ console: false });
  const hub = createLightsHub({ log });
  const address = (d: WledSimDevice) => ({ host: d.host, port: d.port });
  await startWledSupport({ hub, log, addresses: strips.map(address), mdns: false });
  // The fan drives the first two strips.
  hub.setSelection({
    selectedLights: { wled: [strips[0].id, strips[1].id] },
    sharedLightsDriver: 'companion',
  });

  let settings: LightFollowSettings = {
    ...DEFAULT_LIGHT_FOLLOW,
    sessions: [...FOLLOWED_SESSION_KINDS],
    sessionEnd: options.sessionEnd ?? 'as-it-was',
  };
  const sessions = createSessionLights({
    describe: () => Promise.resolve({ session_name: 'Race', session_type: 'Race' }),
    follow: () => settings,
    looks: () => undefined,
    hub,
    log,
  });
  const playback: Playback = createPlayback({
    hub,
    log,
    delayMs: () => options.delayMs ?? 0,
    sessions,
    onPlayed: (data) => room.flagPlayed(data.state, data.sessionKey, sessions.view().kind),
  });
  const followState = createFollowState();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'flaglight-room-live-'));
  dirs.push(dir);
  const room = startRoomSnapshots({
    options: { dataDir: dir },
    hub,
    log,
    preferences: { follow: () => settings },
    follow: followState,
    sessions,
  });
  open.push({ hub, room, sessions });

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
    sessions.followerStatus(followState.status);
  };
  const before = strips.map(lookOf);
  const asItWas = (which: readonly WledSimDevice[] = strips) =>
    which.every((d) => lookOf(d) === before[strips.indexOf(d)]);
  return {
    hub,
    log,
    strips,
    playback,
    flag,
    status,
    asItWas,
    dir,
    setFollow: (next: Partial<LightFollowSettings>) => (settings = { ...settings, ...next }),
  };
}
