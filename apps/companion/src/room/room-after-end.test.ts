import type { WledSimDevice } from '@flaglight/sims';
import { afterEach, describe, expect, test } from 'vitest';
import { paced } from '../../../../scripts/test-pace.mjs';
import { until } from '../../test/demo-server.js';
import { closeLiveRooms, followLiveRoom, lookOf, SETTLE, settled } from '../../test/live-room.js';
import { SESSION_END_AFTER_CHEQUERED_MS } from './room-snapshot.js';

// A test flag pressed after a race's end was carried out (its chequered flag, then the fan's choice)
// goes back to what the lights showed after the end, not to the race's last flag: off after "turn
// the lights off", the room as given back after "as it was"; after "leave" the chequered look stays.
// The live session of `test/live-room.ts`: three WLED strips on 127.0.0.1, the first two driven.

afterEach(closeLiveRooms);

/** The chequered flag's settled look on a strip: white at full brightness. */
const CHEQUERED = '#ffffff';
const RED = '#800000';
const isOff = (d: WledSimDevice) => !d.view().state.on;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Long enough for a test (its flash, its hold, the give-back half a second later) to be over. */
const TEST_OVER = { ms: 10_000, everyMs: 25 };
/** The chequered flag's flash, then the end carried out. */
const END = { ms: SESSION_END_AFTER_CHEQUERED_MS + 5_000, everyMs: 25 };

/** A race followed to its chequered flag (its end is carried out once the flag has flashed). */
async function afterRace(sessionEnd: 'off' | 'as-it-was' | 'leave') {
  const live = await followLiveRoom({ sessionEnd });
  const driven = [live.strips[0], live.strips[1]];
  live.status('following', 7);
  await live.flag('green');
  await until(() => driven.every((d) => settled(d, '#008000')), 'the race green', SETTLE);
  await live.flag('checkered');
  return { ...live, driven };
}

/** Presses a test of red and waits for its settled look on the driven strips. */
async function testRed(live: Awaited<ReturnType<typeof afterRace>>): Promise<void> {
  expect(live.playback.showTest('red', 'Test')).toBe(true);
  await until(() => live.driven.every((d) => settled(d, RED)), "the test's red", SETTLE);
}

describe('a test after the session ended', () => {
  test('after "turn the lights off", the test goes back to off', { timeout: paced(40_000) }, async () => {
    const live = await afterRace('off');
    await until(() => live.driven.every(isOff), 'the lights off at the end', END);
    await testRed(live);
    await until(() => live.driven.every(isOff), 'the lights off again after the test', TEST_OVER);
    await pause(1_000);
    expect(live.driven.every(isOff)).toBe(true);
    expect(live.asItWas([live.strips[2]])).toBe(true);
  });

  test(
    'after "as it was", the test goes back to the room as given back, never to chequered',
    { timeout: paced(40_000) },
    async () => {
      const live = await afterRace('as-it-was');
      await until(() => live.asItWas(), 'the room given back', END);
      const given = live.strips.map(lookOf);
      await testRed(live);
      let chequered = false;
      await until(
        () => {
          chequered ||= live.driven.some((d) => d.view().hex === CHEQUERED);
          return live.strips.every((d, i) => lookOf(d) === given[i]);
        },
        'the room as given back, after the test',
        TEST_OVER,
      );
      expect(chequered).toBe(false);
      await pause(1_000);
      expect(live.asItWas()).toBe(true);
    },
  );

  test(
    'after "leave", the test goes back to the chequered look the lights were left on',
    { timeout: paced(40_000) },
    async () => {
      const live = await afterRace('leave');
      await until(() => live.driven.every((d) => settled(d, CHEQUERED)), 'the chequered white', END);
      await pause(1_000);
      await testRed(live);
      await until(
        () => live.driven.every((d) => settled(d, CHEQUERED)),
        'the chequered white again',
        TEST_OVER,
      );
      await pause(1_000);
      expect(live.driven.every((d) => settled(d, CHEQUERED))).toBe(true);
    },
  );
});
