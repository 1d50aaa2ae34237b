import { DEFAULT_LIGHT_FOLLOW, type LightFollowSettings } from '@flaglight/core';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { stubApi } from '../../test/fetch-stub';
import { goveeLights, lifxBulbs } from '../../test/lights';
import { LightsEngine } from './lights-engine';

// The engine as one browser tab runs it: the on-screen light and LIFX's cloud (its HTTP answered at
// window.fetch), behind the broadcast delay.

const BULBS = lifxBulbs(2);
const GOVEE = goveeLights(1);
const RACE = { session_name: 'Race', session_type: 'Race' };

function setup() {
  let follow: LightFollowSettings = { ...DEFAULT_LIGHT_FOLLOW, sessions: ['race'] };
  const api = stubApi({
    'GET /sims/lifx/v1/lights/all': { body: BULBS },
    'PUT /sims/lifx/v1/lights/states': { body: { results: [] } },
    'GET /api/govee/status': { body: { connected: true } },
    'GET /api/govee/lights': { body: { lights: GOVEE } },
    'POST /api/govee/lights/read-states': { body: { lights: {} } },
    'POST /api/govee/lights/flag': { body: { sent: true } },
  });
  const engine = new LightsEngine({
    lifxApiUrl: '/sims/lifx/v1',
    sessionToken: () => null,
    notify: { success: () => undefined, warning: () => undefined, error: () => undefined },
    selection: () => ({ lifx: BULBS.map((bulb) => bulb.id), hue: [], govee: GOVEE.map((light) => light.id) }),
    follow: () => follow,
    tokenStore: { read: () => null, write: () => undefined, clear: () => undefined },
  });
  /** LIFX calls that change a light (not the lists and reads). */
  const lifxChanges = () =>
    api.calls.filter(
      (call) => call.route.startsWith('PUT /sims/lifx') || call.route.startsWith('POST /sims/lifx'),
    );
  /** The flags Govee's lights were sent (through the server). */
  const goveeFlags = () =>
    api.calls
      .filter((call) => call.route === 'POST /api/govee/lights/flag')
      .map((call) => (call.body as { flag: string }).flag);
  return {
    engine,
    lifxChanges,
    goveeFlags,
    setFollow: (next: Partial<LightFollowSettings>) => (follow = { ...follow, ...next }),
  };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

test('a session kind turned off mid-session stops the flags already queued behind the broadcast delay', async () => {
  const { engine, lifxChanges, goveeFlags, setFollow } = setup();
  expect(await engine.connectLifx('demo-token')).toBe(true);
  await engine.checkGovee();
  engine.followSession(RACE, 'live:race');
  expect(engine.playFlag('green')).toBe(true);
  // Green's effect played out (it settles at 5 s).
  await vi.advanceTimersByTimeAsync(6_000);
  const green = lifxChanges().length;
  expect(green).toBeGreaterThan(0);
  expect(engine.screen.getState().color?.name).toBe('green');

  // Red is on its way, 5 s behind the broadcast; the fan stops following races meanwhile.
  engine.playFlag('red', { atEpochMs: Date.now() + 5_000 });
  await vi.advanceTimersByTimeAsync(2_000);
  setFollow({ sessions: ['qualifying'] });
  await vi.advanceTimersByTimeAsync(10_000);
  expect(lifxChanges()).toHaveLength(green);
  expect(engine.screen.getState().color?.name).toBe('green');
  expect(goveeFlags()).toEqual(['green']);

  // Followed again: the next queued flag plays.
  setFollow({ sessions: ['race'] });
  engine.playFlag('yellow', { atEpochMs: Date.now() + 5_000 });
  await vi.advanceTimersByTimeAsync(6_000);
  expect(lifxChanges().length).toBeGreaterThan(green);
  expect(engine.screen.getState().color?.name).toBe('yellow');
  expect(goveeFlags()).toEqual(['green', 'yellow']);
  engine.dispose();
});
