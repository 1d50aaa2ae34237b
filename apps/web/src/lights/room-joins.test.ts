import { CHECKERED_SOLID_AFTER_MS, DEFAULT_LIGHT_FOLLOW, type LightFollowSettings } from '@flaglight/core';
import type { SavedStates } from '@flaglight/lights';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { createCloudRoom, JOIN_READ_WITHIN_MS, JOINED_NOT_READ, type DrivenLights } from './cloud-room';
import { createRoomJoins } from './room-joins';
import { createRoomStore, parseKeptRoom, roomSnapshotKey } from './room-store';
import { SessionRoom } from './session-room';

// A light the fan ticks mid-session, after the room was read: read before the session's flags reach
// it, given back with the others at the end; one that does not answer in time is left as it is.

const EMAIL = 'ticked-mid-session@example.com';
const kept = () => parseKeptRoom(window.localStorage.getItem(roomSnapshotKey(EMAIL)));

/** LIFX bulbs in memory: what each shows; reads take `readMs` (never answering with `silent`). */
function bulbs(initial: Record<string, string>) {
  const shows = new Map(Object.entries(initial));
  const reads: string[][] = [];
  const answer = { readMs: 0, silent: false };
  const read = async (ids: readonly string[]): Promise<SavedStates> => {
    reads.push([...ids]);
    if (answer.silent) return new Promise<SavedStates>(() => undefined);
    if (answer.readMs > 0) await new Promise((resolve) => setTimeout(resolve, answer.readMs));
    return Object.fromEntries(
      ids.map((id) => [id, { readable: true, on: shows.get(id) !== 'off', state: { look: shows.get(id) } }]),
    );
  };
  const restore = (saved: SavedStates) => {
    const report = { restored: [] as string[], left: [] as { id: string; reason: string }[] };
    for (const [id, entry] of Object.entries(saved)) {
      if (!entry.readable) report.left.push({ id, reason: entry.reason });
      else {
        shows.set(id, String(entry.state.look));
        report.restored.push(id);
      }
    }
    return Promise.resolve(report);
  };
  return { shows, reads, answer, lights: { read, restore } };
}

/**
 * The room as the engine wires it, with LIFX only: flags go through the session's gate to the
 * ticked bulbs the joins leave free, and a bulb ticked mid-race takes the race's flag once free.
 */
function setup(
  follow: Partial<LightFollowSettings> = { sessionEnd: 'as-it-was' },
  page: { lifx?: ReturnType<typeof bulbs>; restoring?: () => boolean } = {},
) {
  const lifx = page.lifx ?? bulbs({ desk: 'white 80%', lamp: 'warm 40%', shelf: 'blue 10%' });
  const none = bulbs({});
  const driven: DrivenLights = { lifx: ['desk'], hue: [], govee: [] };
  const room = createCloudRoom({
    lights: { lifx: lifx.lights, hue: none.lights, govee: none.lights },
    driven: () => driven,
    stopPlaying: () => undefined,
    turnOff: () => undefined,
    screenOff: () => undefined,
    onChange: () => undefined,
    warn: () => undefined,
    store: createRoomStore(EMAIL),
  });
  const settings: LightFollowSettings = { ...DEFAULT_LIGHT_FOLLOW, ...follow };
  const session = new SessionRoom({
    room,
    follow: () => settings,
    looks: () => undefined,
    dim: () => undefined,
    warn: () => undefined,
  });
  const joins = createRoomJoins({
    driven: () => driven,
    read: (joined) => session.join(joined, page.restoring?.() ?? false),
  });
  let showing: string | null = null;
  const paint = (ids: readonly string[], look: string) => ids.forEach((id) => lifx.shows.set(id, look));
  const flag = (look: string) => {
    showing = look;
    session.gate(() => paint(joins.free('lifx', driven.lifx), look));
  };
  const tick = (id: string) => {
    driven.lifx = [...driven.lifx, id];
    joins.update();
    joins.whenFree('lifx', [id], () => {
      const look = showing;
      if (look) session.gate(() => paint([id], look));
    });
  };
  const shows = () => Object.fromEntries(lifx.shows);
  return { lifx, room, session, joins, flag, tick, shows };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  vi.useRealTimers();
  window.localStorage.removeItem(roomSnapshotKey(EMAIL));
});

describe('a light ticked mid-session', () => {
  test('is read before the flags reach it, kept with the snapshot, and given back at the end', async () => {
    const { lifx, room, session, flag, tick, shows } = setup();
    session.follow('replay:9158', 'race');
    flag('green');
    await vi.advanceTimersByTimeAsync(0);
    expect(lifx.reads).toEqual([['desk']]);
    expect(shows()).toEqual({ desk: 'green', lamp: 'warm 40%', shelf: 'blue 10%' });

    tick('lamp');
    await vi.advanceTimersByTimeAsync(0);
    expect(lifx.reads).toEqual([['desk'], ['lamp']]);
    // It takes the race's flag once read, and the next flags with the others.
    expect(shows().lamp).toBe('green');
    expect(kept()?.lights.map((light) => light.id)).toEqual(['desk', 'lamp']);
    flag('yellow');
    await vi.advanceTimersByTimeAsync(0);
    expect(shows()).toEqual({ desk: 'yellow', lamp: 'yellow', shelf: 'blue 10%' });

    session.follow(null, null);
    await vi.advanceTimersByTimeAsync(0);
    expect(shows()).toEqual({ desk: 'white 80%', lamp: 'warm 40%', shelf: 'blue 10%' });
    expect(room.lastLeft()).toEqual([]);
    expect(kept()).toBeNull();
  });

  test('is held out of every flag until its read answers; the others go on with the race', async () => {
    const { lifx, session, joins, flag, tick, shows } = setup();
    session.follow('live:2026-03-08:Race', 'race');
    flag('green');
    await vi.advanceTimersByTimeAsync(0);

    lifx.answer.readMs = 1_000;
    tick('lamp');
    flag('yellow');
    await vi.advanceTimersByTimeAsync(500);
    expect(joins.free('lifx', ['desk', 'lamp'])).toEqual(['desk']);
    expect(shows()).toEqual({ desk: 'yellow', lamp: 'warm 40%', shelf: 'blue 10%' });
    flag('red');
    await vi.advanceTimersByTimeAsync(400);
    expect(shows().lamp).toBe('warm 40%');
    // Read: it takes the flag showing now.
    await vi.advanceTimersByTimeAsync(100);
    expect(shows()).toEqual({ desk: 'red', lamp: 'red', shelf: 'blue 10%' });
    expect(kept()?.lights.find((light) => light.id === 'lamp')?.saved).toEqual({
      readable: true,
      on: true,
      state: { look: 'warm 40%' },
    });
  });

  test('one that does not answer in time is left as it is and listed with the unreadable ones', async () => {
    const { lifx, room, session, joins, flag, tick, shows } = setup();
    session.follow('replay:9158', 'race');
    flag('green');
    await vi.advanceTimersByTimeAsync(0);

    lifx.answer.silent = true;
    tick('shelf');
    flag('yellow');
    await vi.advanceTimersByTimeAsync(JOIN_READ_WITHIN_MS - 100);
    expect(shows().shelf).toBe('blue 10%');
    await vi.advanceTimersByTimeAsync(100);
    // Not answered in time: the flags reach it from now, and it is named as unreadable.
    expect(joins.free('lifx', ['shelf'])).toEqual(['shelf']);
    expect(shows().shelf).toBe('yellow');
    const left = { provider: 'lifx', id: 'shelf', reason: JOINED_NOT_READ };
    expect(room.unreadable()).toEqual([left]);
    expect(kept()?.lights.find((light) => light.id === 'shelf')?.saved).toEqual({
      readable: false,
      reason: JOINED_NOT_READ,
    });

    session.follow(null, null);
    await vi.advanceTimersByTimeAsync(0);
    expect(shows()).toEqual({ desk: 'white 80%', lamp: 'warm 40%', shelf: 'yellow' });
    expect(room.lastLeft()).toEqual([left]);
  });

  test("before the session's first flag it is read with the others; after its end it is not read", async () => {
    const { lifx, session, flag, tick, shows } = setup({ sessionEnd: 'as-it-was' });
    session.follow('replay:9158', 'race');
    tick('lamp');
    expect(lifx.reads).toEqual([]);
    flag('green');
    await vi.advanceTimersByTimeAsync(0);
    expect(lifx.reads).toEqual([['desk', 'lamp']]);

    // The chequered flag ends the race: the room is given back, and a bulb ticked then stays as it is.
    flag('checkered');
    session.played('checkered', Date.now());
    await vi.advanceTimersByTimeAsync(CHECKERED_SOLID_AFTER_MS);
    expect(shows()).toEqual({ desk: 'white 80%', lamp: 'warm 40%', shelf: 'blue 10%' });
    tick('shelf');
    await vi.advanceTimersByTimeAsync(0);
    expect(lifx.reads).toHaveLength(1);
    expect(shows().shelf).toBe('blue 10%');
  });

  test('after a reload, lights the connections bring back are not read; one ticked afterwards is', async () => {
    const first = setup();
    first.session.follow('live:2026-03-08:Race', 'race');
    first.flag('green');
    await vi.advanceTimersByTimeAsync(0);
    first.session.dispose();

    // The page loaded again follows the same race; its connections come back with the lamp ticked on
    // the page before (it may show the race's flag by now).
    let restoring = true;
    const page = setup({ sessionEnd: 'as-it-was' }, { lifx: first.lifx, restoring: () => restoring });
    page.session.follow('live:2026-03-08:Race', 'race');
    page.tick('lamp');
    await vi.advanceTimersByTimeAsync(0);
    expect(first.lifx.reads).toEqual([['desk']]);
    restoring = false;
    page.tick('shelf');
    await vi.advanceTimersByTimeAsync(0);
    expect(first.lifx.reads).toEqual([['desk'], ['shelf']]);
    expect(kept()?.lights.map((light) => light.id)).toEqual(['desk', 'shelf']);
  });
});
