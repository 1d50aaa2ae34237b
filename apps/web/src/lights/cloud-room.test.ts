import { CHECKERED_SOLID_AFTER_MS, DEFAULT_LIGHT_FOLLOW, type LightFollowSettings } from '@flaglight/core';
import type { SavedStates } from '@flaglight/lights';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import {
  createCloudRoom,
  NOT_READ,
  type DrivenLights,
  type RoomLights,
  type RoomProvider,
} from './cloud-room';
import { createRoomStore, parseKeptRoom, roomSnapshotKey, type RoomStore } from './room-store';
import { DIM_AFTER_SETTLE_MS, KEPT_CHECK_MS, SessionRoom, TEST_GIVE_BACK_MARGIN_MS } from './session-room';

/** A provider's lights in memory: what each shows, read and written like a brand would. */
function roomOf(
  initial: Record<string, string>,
  options: { unreadable?: string[]; failing?: boolean; restoreMs?: number } = {},
) {
  const shows = new Map(Object.entries(initial));
  const lights: RoomLights = {
    read: (ids) => {
      if (options.failing) return Promise.reject(new Error('no answer'));
      const saved: SavedStates = {};
      for (const id of ids)
        saved[id] = options.unreadable?.includes(id)
          ? { readable: false, reason: 'cannot be read' }
          : { readable: true, on: shows.get(id) !== 'off', state: { look: shows.get(id) } };
      return Promise.resolve(saved);
    },
    restore: async (saved) => {
      // A give-back over the network takes a while: what reads the room meanwhile sees the flag.
      if (options.restoreMs) await new Promise((resolve) => setTimeout(resolve, options.restoreMs));
      const report = { restored: [] as string[], left: [] as { id: string; reason: string }[] };
      for (const [id, entry] of Object.entries(saved)) {
        if (!entry.readable) report.left.push({ id, reason: entry.reason });
        else {
          shows.set(id, String(entry.state.look));
          report.restored.push(id);
        }
      }
      return report;
    },
  };
  return { shows, lights, paint: (look: string) => shows.forEach((_, id) => shows.set(id, look)) };
}

type Rooms = Record<RoomProvider, ReturnType<typeof roomOf>>;

function setup(
  options: {
    follow?: Partial<LightFollowSettings>;
    hueUnreadable?: string[];
    goveeFailing?: boolean;
    lifxRestoreMs?: number;
    /** The same lights as another page's (a page loaded again). */
    rooms?: Rooms;
    store?: RoomStore;
  } = {},
) {
  const { lifx, hue, govee } = options.rooms ?? {
    lifx: roomOf({ desk: 'white 80%', lamp: 'off' }, { restoreMs: options.lifxRestoreMs ?? 0 }),
    hue: roomOf({ go: 'blue 25%', play: 'warm 100%' }, { unreadable: options.hueUnreadable ?? [] }),
    govee: roomOf({ strip: 'orange 15%' }, { failing: options.goveeFailing ?? false }),
  };
  const driven: DrivenLights = { lifx: ['desk', 'lamp'], hue: ['go', 'play'], govee: ['strip'] };
  const offs: Record<RoomProvider, readonly string[]>[] = [];
  const dims: number[] = [];
  const warnings: string[] = [];
  let stopped = 0;
  let screenOffs = 0;
  const room = createCloudRoom({
    lights: { lifx: lifx.lights, hue: hue.lights, govee: govee.lights },
    driven: () => driven,
    stopPlaying: () => (stopped += 1),
    turnOff: (lights) => offs.push(lights),
    screenOff: () => (screenOffs += 1),
    onChange: () => undefined,
    warn: (message) => warnings.push(message),
    store: options.store,
  });
  const follow: LightFollowSettings = { ...DEFAULT_LIGHT_FOLLOW, ...options.follow };
  const session = new SessionRoom({
    room,
    follow: () => follow,
    looks: () => undefined,
    dim: (look) => dims.push(look.brightness),
    warn: (message) => warnings.push(message),
  });
  const room_: Rooms = { lifx, hue, govee };
  /** A flag played on every provider's lights, through the gate as the engine does. */
  const flag = (name: string) => session.gate(() => Object.values(room_).forEach((p) => p.paint(name)));
  const everything = () =>
    Object.fromEntries(Object.entries(room_).map(([k, p]) => [k, Object.fromEntries(p.shows)]));
  const paintAll = (look: string) => Object.values(room_).forEach((p) => p.paint(look));
  return {
    rooms: room_,
    room,
    session,
    flag,
    paintAll,
    everything,
    offs,
    dims,
    warnings,
    stopped: () => stopped,
    screenOffs: () => screenOffs,
  };
}

const BEFORE = {
  lifx: { desk: 'white 80%', lamp: 'off' },
  hue: { go: 'blue 25%', play: 'warm 100%' },
  govee: { strip: 'orange 15%' },
};

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('the room as it was around a followed session', () => {
  test('the first flag waits for the read; the chequered flag of a race gives every light back after its flash', async () => {
    const { session, flag, everything, room, screenOffs } = setup({ follow: { sessionEnd: 'as-it-was' } });
    session.follow('replay:9158', 'race');
    flag('green');
    // Nothing changed before the lights were read.
    expect(everything()).toEqual(BEFORE);
    await vi.advanceTimersByTimeAsync(0);
    expect(everything().lifx).toEqual({ desk: 'green', lamp: 'green' });
    expect(room.key()).toBe('replay:9158');

    flag('checkered');
    session.played('checkered', Date.now());
    await vi.advanceTimersByTimeAsync(CHECKERED_SOLID_AFTER_MS - 100);
    expect(everything().hue).toEqual({ go: 'checkered', play: 'checkered' });
    await vi.advanceTimersByTimeAsync(200);
    expect(everything()).toEqual(BEFORE);
    expect(room.key()).toBeNull();
    // The on-screen light is back as it was too: off.
    expect(screenOffs()).toBe(1);
    // The session is over: a later flag of it changes no light.
    flag('red');
    await vi.advanceTimersByTimeAsync(0);
    expect(everything()).toEqual(BEFORE);
  });

  test("a qualifying's chequered flag does not end it; following none does, as the fan chose ('off')", async () => {
    const { session, flag, everything, offs } = setup({ follow: { sessionEnd: 'off' } });
    session.follow('live:q', 'qualifying');
    flag('checkered');
    session.played('checkered', Date.now());
    await vi.advanceTimersByTimeAsync(CHECKERED_SOLID_AFTER_MS * 2);
    expect(offs).toEqual([]);
    expect(everything().govee).toEqual({ strip: 'checkered' });
    session.follow(null, null);
    await vi.advanceTimersByTimeAsync(0);
    expect(offs).toEqual([{ lifx: ['desk', 'lamp'], hue: ['go', 'play'], govee: ['strip'] }]);
  });

  test("a new session's first flag waits for the last one's give-back, so it reads the room as it was", async () => {
    const { session, flag, everything } = setup({ follow: { sessionEnd: 'as-it-was' }, lifxRestoreMs: 300 });
    session.follow('replay:1', 'race');
    flag('red');
    await vi.advanceTimersByTimeAsync(0);
    session.follow('replay:2', 'race');
    flag('green');
    await vi.advanceTimersByTimeAsync(100);
    // LIFX is still being given back: nothing of the new session yet.
    expect(everything().lifx).toEqual({ desk: 'red', lamp: 'red' });
    await vi.advanceTimersByTimeAsync(300);
    expect(everything().lifx).toEqual({ desk: 'green', lamp: 'green' });
    session.follow(null, null);
    await vi.advanceTimersByTimeAsync(400);
    expect(everything()).toEqual(BEFORE);
  });

  test("'leave' leaves the last look; the same session followed again keeps its snapshot", async () => {
    const { session, flag, everything, room } = setup({ follow: { sessionEnd: 'leave' } });
    session.follow('replay:1', 'race');
    flag('red');
    await vi.advanceTimersByTimeAsync(0);
    session.follow('replay:1', 'race');
    expect(room.key()).toBe('replay:1');
    session.follow('replay:2', 'race');
    await vi.advanceTimersByTimeAsync(0);
    expect(everything().lifx).toEqual({ desk: 'red', lamp: 'red' });
    expect(room.key()).toBeNull();
  });

  test('green held: dimmed to at most 10 %, or the room given back and kept for the end', async () => {
    const dim = setup({ follow: { afterGreen: { action: 'dim', afterSeconds: 30 } } });
    dim.session.follow('s', 'race');
    dim.flag('green');
    dim.session.played('green', Date.now());
    // A fastest lap is momentary: the green goes on holding through it.
    await vi.advanceTimersByTimeAsync(10_000);
    dim.session.played('fastest_lap', Date.now());
    await vi.advanceTimersByTimeAsync(19_000);
    expect(dim.dims).toEqual([]);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(dim.dims).toEqual([0.1]);

    // The shortest wait, 5 s, is when green's own look settles: the dim waits for that and a moment
    // more, or the settle could reach the lights after it and put full green back.
    const soon = setup({ follow: { afterGreen: { action: 'dim', afterSeconds: 5 } } });
    soon.session.follow('s', 'race');
    soon.flag('green');
    soon.session.played('green', Date.now());
    await vi.advanceTimersByTimeAsync(5_000 + DIM_AFTER_SETTLE_MS - 1);
    expect(soon.dims).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(soon.dims).toEqual([0.1]);

    const give = setup({
      follow: { afterGreen: { action: 'give-back', afterSeconds: 5 }, sessionEnd: 'as-it-was' },
    });
    give.session.follow('s', 'race');
    give.flag('green');
    give.session.played('green', Date.now());
    // A red before green has held cancels the wait.
    await vi.advanceTimersByTimeAsync(3_000);
    give.flag('red');
    give.session.played('red', Date.now());
    await vi.advanceTimersByTimeAsync(10_000);
    expect(give.everything().lifx).toEqual({ desk: 'red', lamp: 'red' });
    give.flag('green');
    give.session.played('green', Date.now());
    await vi.advanceTimersByTimeAsync(5_000);
    expect(give.everything()).toEqual(BEFORE);
    expect(give.room.key()).toBe('s');
    // The next flag changes the lights again, and the end gives them back once more.
    give.flag('red');
    await vi.advanceTimersByTimeAsync(0);
    give.session.follow(null, null);
    await vi.advanceTimersByTimeAsync(0);
    expect(give.everything()).toEqual(BEFORE);
  });

  test('a light that cannot be read is named and left; a provider that does not answer is said once', async () => {
    const { session, flag, room, warnings, everything } = setup({
      hueUnreadable: ['play'],
      goveeFailing: true,
      follow: { sessionEnd: 'as-it-was' },
    });
    session.follow('s', null);
    flag('red');
    await vi.advanceTimersByTimeAsync(0);
    expect(room.unreadable()).toEqual([
      { provider: 'hue', id: 'play', reason: 'cannot be read' },
      { provider: 'govee', id: 'strip', reason: NOT_READ },
    ]);
    expect(warnings).toHaveLength(1);
    session.follow(null, null);
    await vi.advanceTimersByTimeAsync(0);
    expect(everything()).toEqual({
      ...BEFORE,
      hue: { go: 'blue 25%', play: 'red' },
      govee: { strip: 'red' },
    });
    expect(room.lastLeft()).toEqual([
      { provider: 'hue', id: 'play', reason: 'cannot be read' },
      { provider: 'govee', id: 'strip', reason: NOT_READ },
    ]);
  });
});

describe('a test with no session followed', () => {
  test('reads the lights, plays, and gives them back after its hold; a second test keeps the first reading', async () => {
    const { session, everything, paintAll, screenOffs } = setup();
    session.test(() => paintAll('red'), 6_000);
    expect(everything()).toEqual(BEFORE);
    await vi.advanceTimersByTimeAsync(0);
    expect(everything().hue).toEqual({ go: 'red', play: 'red' });
    await vi.advanceTimersByTimeAsync(3_000);
    session.test(() => paintAll('yellow'), 6_000);
    await vi.advanceTimersByTimeAsync(6_000);
    expect(everything().lifx).toEqual({ desk: 'yellow', lamp: 'yellow' });
    await vi.advanceTimersByTimeAsync(TEST_GIVE_BACK_MARGIN_MS);
    expect(everything()).toEqual(BEFORE);
    // The screen plays the test itself and goes back on its own.
    expect(screenOffs()).toBe(0);
  });

  test('with a session followed a test plays at once and nothing is given back after it', async () => {
    const { session, everything, paintAll, flag } = setup();
    session.follow('s', 'race');
    flag('green');
    await vi.advanceTimersByTimeAsync(0);
    session.test(() => paintAll('red'), 1_000);
    expect(everything().govee).toEqual({ strip: 'red' });
    await vi.advanceTimersByTimeAsync(5_000);
    expect(everything().govee).toEqual({ strip: 'red' });
  });
});

describe('as it was kept over a reload', () => {
  const EMAIL = 'kept-room@example.com';
  const kept = () => window.localStorage.getItem(roomSnapshotKey(EMAIL));
  afterEach(() => window.localStorage.removeItem(roomSnapshotKey(EMAIL)));

  /** A page that follows `key` and shows a flag, its snapshot kept; then the page goes away. */
  async function firstPage(key: string, follow: Partial<LightFollowSettings> = {}) {
    const page = setup({ store: createRoomStore(EMAIL), follow });
    page.session.follow(key, 'race');
    page.flag('green');
    await vi.advanceTimersByTimeAsync(0);
    page.flag('red');
    expect(page.everything().hue).toEqual({ go: 'red', play: 'red' });
    page.session.dispose();
    return page.rooms;
  }

  /** Connections as the engine reports them: `connect()` says the lights are connected now. */
  function connections() {
    let connected = false;
    const listeners = new Set<() => void>();
    return {
      ready: () => connected,
      subscribe: (listener: () => void) => {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
      connect: () => {
        connected = true;
        listeners.forEach((listener) => listener());
      },
    };
  }

  test('the snapshot is kept once read and removed once the session has ended', async () => {
    const page = setup({ store: createRoomStore(EMAIL), follow: { sessionEnd: 'as-it-was' } });
    page.session.follow('replay:7', 'race');
    page.flag('green');
    expect(kept()).toBeNull();
    await vi.advanceTimersByTimeAsync(0);
    expect(parseKeptRoom(kept())).toMatchObject({ key: 'replay:7' });
    expect(parseKeptRoom(kept())?.lights).toHaveLength(5);
    page.session.follow(null, null);
    await vi.advanceTimersByTimeAsync(0);
    expect(page.everything()).toEqual(BEFORE);
    expect(kept()).toBeNull();
  });

  test('the page loaded again follows the same session: the kept snapshot is used, the lights are not read again', async () => {
    const rooms = await firstPage('live:2026-03-08:Race');
    const page = setup({ store: createRoomStore(EMAIL), rooms, follow: { sessionEnd: 'as-it-was' } });
    expect(page.room.key()).toBe('live:2026-03-08:Race');
    page.session.follow('live:2026-03-08:Race', 'race');
    page.flag('yellow');
    // Played at once: nothing to read first.
    expect(page.everything().lifx).toEqual({ desk: 'yellow', lamp: 'yellow' });
    page.session.follow(null, null);
    await vi.advanceTimersByTimeAsync(0);
    expect(page.everything()).toEqual(BEFORE);
    expect(kept()).toBeNull();
  });

  test('another session followed first: the kept one ends as the fan chose before the new one reads the room', async () => {
    const rooms = await firstPage('replay:1');
    const page = setup({ store: createRoomStore(EMAIL), rooms, follow: { sessionEnd: 'as-it-was' } });
    page.session.follow('replay:2', 'race');
    page.flag('green');
    await vi.advanceTimersByTimeAsync(0);
    expect(parseKeptRoom(kept())?.key).toBe('replay:2');
    page.session.follow(null, null);
    await vi.advanceTimersByTimeAsync(0);
    expect(page.everything()).toEqual(BEFORE);
  });

  test('a kept session that is over is given back once the lights are connected; one still live waits', async () => {
    const rooms = await firstPage('replay:3');
    const page = setup({ store: createRoomStore(EMAIL), rooms, follow: { sessionEnd: 'as-it-was' } });
    const lights = connections();
    page.session.watchKept({ over: () => Promise.resolve(true), ...lights });
    await vi.advanceTimersByTimeAsync(KEPT_CHECK_MS * 2);
    expect(page.everything().hue).toEqual({ go: 'red', play: 'red' });
    lights.connect();
    await vi.advanceTimersByTimeAsync(0);
    expect(page.everything()).toEqual(BEFORE);
    expect(kept()).toBeNull();

    const liveRooms = await firstPage('live:x', { sessionEnd: 'off' });
    const later = setup({ store: createRoomStore(EMAIL), rooms: liveRooms, follow: { sessionEnd: 'off' } });
    let live = true;
    later.session.watchKept({
      over: () => Promise.resolve(!live),
      ready: () => true,
      subscribe: () => () => true,
    });
    await vi.advanceTimersByTimeAsync(KEPT_CHECK_MS * 2);
    expect(later.offs).toEqual([]);
    live = false;
    await vi.advanceTimersByTimeAsync(KEPT_CHECK_MS);
    // The fan's choice for the session's end: off.
    expect(later.offs).toEqual([{ lifx: ['desk', 'lamp'], hue: ['go', 'play'], govee: ['strip'] }]);
    expect(kept()).toBeNull();
  });

  test('bad or foreign data kept in storage is ignored: the room is read as usual', async () => {
    for (const text of ['{', 'null', '[]', '"x"', '{"v":2,"key":"s","lights":[]}'])
      expect(parseKeptRoom(text)).toBeNull();
    const light = { provider: 'lifx', id: 'desk', saved: { readable: true, on: true, state: {} } };
    const versioned = (lights: unknown[]) => JSON.stringify({ v: 1, key: 's', lights });
    expect(parseKeptRoom(versioned([light]))).toEqual({ key: 's', lights: [light] });
    for (const bad of [
      { ...light, provider: 'nanoleaf' },
      { ...light, id: 7 },
      { ...light, saved: { readable: true, on: 'yes', state: {} } },
      { ...light, saved: { readable: false } },
      null,
    ])
      expect(parseKeptRoom(versioned([light, bad]))).toBeNull();

    window.localStorage.setItem(roomSnapshotKey(EMAIL), '{"v":1,"key":"s","lights":[{"provider":"lifx"}]}');
    const page = setup({ store: createRoomStore(EMAIL), follow: { sessionEnd: 'as-it-was' } });
    expect(page.room.key()).toBeNull();
    page.session.follow('s', 'race');
    page.flag('red');
    await vi.advanceTimersByTimeAsync(0);
    page.session.follow(null, null);
    await vi.advanceTimersByTimeAsync(0);
    expect(page.everything()).toEqual(BEFORE);
    // Storage that refuses every call keeps nothing and throws nothing.
    const refusing = createRoomStore(EMAIL, () => {
      throw new Error('blocked');
    });
    expect(refusing.read()).toBeNull();
    expect(() => refusing.write({ key: 's', lights: [] })).not.toThrow();
    expect(() => refusing.remove()).not.toThrow();
  });
});
