import { afterEach, describe, expect, test } from 'vitest';
import { paced } from '../../../../scripts/test-pace.mjs';
import { until } from '../../test/demo-server.js';
import { closeLiveRooms, followLiveRoom as follow, SETTLE, settled } from '../../test/live-room.js';
import { readRoomSnapshot } from './room-file.js';
import { SESSION_END_AFTER_CHEQUERED_MS } from './room-snapshot.js';

// "As it was" while a session is on: the companion's own session filter, delayed playback, lights
// hub and room snapshot, wired as the companion wires them (`start/start-room.ts`), on three WLED
// strips simulated over HTTP on 127.0.0.1, each in a look of its own (`test/live-room.ts`).

afterEach(closeLiveRooms);

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the room during a live session', () => {
  test(
    "a test before the session's first flag: the room is read before it, and given back at the end",
    { timeout: paced(40_000) },
    async () => {
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
    },
  );

  test(
    'a light ticked mid-session is read before the flag reaches it, and given back with the others',
    { timeout: paced(40_000) },
    async () => {
      const { hub, strips, flag, status, asItWas, dir } = await follow();
      const [shelf, desk, tv] = strips;
      status('following', 7);
      await flag('green');
      await until(
        () => settled(shelf, '#008000') && settled(desk, '#008000'),
        'green on the driven strips',
        SETTLE,
      );
      expect(asItWas([tv])).toBe(true);

      hub.setSelection({
        selectedLights: { wled: strips.map((d) => d.id) },
        sharedLightsDriver: 'companion',
      });
      await until(() => settled(tv, '#008000'), 'green on the strip ticked mid-session', SETTLE);
      expect(readRoomSnapshot(dir)?.lights[`wled:${tv.id}`]).toMatchObject({ readable: true });

      status('waiting', null);
      await until(() => asItWas(), 'all three strips as they were', { ms: 8_000 });
    },
  );

  test(
    "after the chequered flag's give-back, the session's later flags leave the room alone; a new session drives it",
    { timeout: paced(40_000) },
    async () => {
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
    },
  );

  test(
    'a session kind turned off mid-session: a flag queued behind the delay is not played',
    { timeout: paced(40_000) },
    async () => {
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
    },
  );
});
