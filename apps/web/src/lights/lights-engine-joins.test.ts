import { DEFAULT_LIGHT_FOLLOW } from '@flaglight/core';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { lifxBulbs } from '../../test/lights';
import { LightsEngine } from './lights-engine';
import { createRoomStore, parseKeptRoom, roomSnapshotKey } from './room-store';

// The engine as one browser tab runs it, LIFX's cloud answered at window.fetch: a bulb the fan ticks
// mid-race is read before the race's flags reach it, and given back as it was at the session's end.

const EMAIL = 'ticks-a-bulb@example.com';
const [DESK, LAMP] = lifxBulbs(2).map((bulb) => bulb.id) as [string, string];
/** How the bulbs were before the race: the desk white, the lamp a dim warm white. */
const ROOM = {
  [DESK]: { power: 'on', brightness: 0.8, color: { hue: 0, saturation: 0, kelvin: 4000 } },
  [LAMP]: { power: 'on', brightness: 0.4, color: { hue: 0, saturation: 0, kelvin: 2700 } },
};

/** LIFX's cloud: lists the bulbs as they were; reads after the first (the connect's) answer in `readMs`. */
function lifxCloud(readMs: number) {
  const calls: { at: number; method: string; path: string; body: unknown }[] = [];
  /** When each read was answered. */
  const answered: number[] = [];
  let lists = 0;
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const path = decodeURIComponent(url.replace(/^https?:\/\/[^/]+/, '').split('?')[0] ?? '');
    const method = init?.method ?? 'GET';
    const body: unknown = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    calls.push({ at: Date.now(), method, path, body });
    let answer: unknown = { results: [] };
    if (path === '/sims/lifx/v1/lights/all') {
      lists += 1;
      if (lists > 1) {
        await new Promise((resolve) => setTimeout(resolve, readMs));
        answered.push(Date.now());
      }
      answer = lifxBulbs(2).map((bulb) => ({ ...bulb, ...ROOM[bulb.id] }));
    }
    return new Response(JSON.stringify(answer), {
      status: 200,
      headers: { 'Content-Type': 'application/json' },
    });
  });
  /** The calls that change a bulb (a flag's state or effect, a give-back), with when they were sent. */
  const changes = (id: string) =>
    calls.filter((call) => call.method !== 'GET' && JSON.stringify(call).includes(id));
  return { changes, answered };
}

function setup(readMs: number) {
  const cloud = lifxCloud(readMs);
  let selected = [DESK];
  const listeners = new Set<() => void>();
  const engine = new LightsEngine({
    lifxApiUrl: '/sims/lifx/v1',
    sessionToken: () => null,
    notify: { success: () => undefined, warning: () => undefined, error: () => undefined },
    selection: () => ({ lifx: selected, hue: [], govee: [] }),
    subscribeSelection: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    follow: () => ({ ...DEFAULT_LIGHT_FOLLOW, sessionEnd: 'as-it-was' }),
    tokenStore: { read: () => null, write: () => undefined, clear: () => undefined },
    roomStore: createRoomStore(EMAIL),
  });
  const tick = (id: string) => {
    selected = [...selected, id];
    listeners.forEach((listener) => listener());
  };
  return { engine, cloud, tick };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  window.localStorage.removeItem(roomSnapshotKey(EMAIL));
});

test('a bulb ticked mid-race is held out of the flags until it is read, then given back with the others', async () => {
  const { engine, cloud, tick } = setup(1_000);
  expect(await engine.connectLifx('demo-token')).toBe(true);
  engine.followSession({ session_name: 'Race', session_type: 'Race' }, 'live:2026-03-08:Race');
  engine.playFlag('red');
  await vi.advanceTimersByTimeAsync(1_500);
  expect(cloud.answered).toHaveLength(1);

  tick(LAMP);
  const ticked = Date.now();
  // A yellow comes while the lamp is read: the desk takes it, the lamp not yet.
  engine.playFlag('yellow');
  await vi.advanceTimersByTimeAsync(1_200);
  expect(cloud.changes(DESK).filter((call) => call.at >= ticked)).not.toEqual([]);
  expect(cloud.changes(LAMP)).toEqual([]);
  // Read (its first try was dropped by the yellow's start, the next answers): the lamp takes the
  // flag showing, and is kept with the snapshot.
  await vi.advanceTimersByTimeAsync(1_500);
  const read = cloud.answered.at(-1) ?? Infinity;
  expect(read).toBeGreaterThan(ticked);
  expect(cloud.changes(LAMP)).not.toEqual([]);
  expect(cloud.changes(LAMP)[0]?.at).toBeGreaterThanOrEqual(read);
  const kept = parseKeptRoom(window.localStorage.getItem(roomSnapshotKey(EMAIL)));
  expect(kept?.lights.map((light) => light.id)).toEqual([DESK, LAMP]);

  // The fan stops following: both bulbs are given back as they were, the lamp in its warm white.
  const before = cloud.changes(LAMP).length;
  engine.followSession(null);
  await vi.advanceTimersByTimeAsync(2_000);
  const back = cloud.changes(LAMP).slice(before);
  expect(back).toHaveLength(1);
  expect(back[0]).toMatchObject({ method: 'PUT', path: '/sims/lifx/v1/lights/states' });
  expect((back[0]?.body as { states: unknown[] }).states).toEqual([
    expect.objectContaining({ selector: `id:${DESK}`, brightness: 0.8, color: 'kelvin:4000 saturation:0' }),
    expect.objectContaining({ selector: `id:${LAMP}`, brightness: 0.4, color: 'kelvin:2700 saturation:0' }),
  ]);
  engine.dispose();
});
