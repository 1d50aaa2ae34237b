import { DEMO_REPLAY_FIXTURE } from '@flaglight/sims';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { paced } from '../../../scripts/test-pace.mjs';
import { DEMO_CHECK_MS, DEMO_RESTART_PAUSE_MS } from '../src/demo/loop.js';
import {
  DEMO_FULL_RACE_POSITION_MINUTES as DEMO_REPLAY_POSITION_MINUTES,
  DEMO_LOOP_FROM_MINUTES,
  DEMO_LOOP_TO_MINUTES,
} from '../src/demo/race.js';
import { LIVE_SESSION_TTL_MS } from '../src/live/hub.js';
import type { FlagEvent } from '../src/live/types.js';
import { createFakeTimers, type FakeTimers } from './fake-timers.js';
import type { TestApp } from './helper.js';
import { buildLiveApp } from './live-helpers.js';

const T0 = Date.parse('2026-09-06T13:00:00Z');

describe('demo mode always has a live race (DEMO_RACE=full)', () => {
  let fake: FakeTimers;
  let t: TestApp;
  beforeAll(async () => {
    fake = createFakeTimers(T0);
    t = await buildLiveApp({ env: { DEMO_RACE: 'full' }, timers: fake });
  });
  afterAll(() => t.close());

  const sims = () => t.context.sims!.openf1.control;
  const current = async () => (await t.app.inject({ url: '/api/f1/current' })).json();
  async function advance(ms: number) {
    for (let done = 0; done < ms; done += 10_000) await fake.advance(Math.min(10_000, ms - done));
  }

  test(
    'when the replayed race ends it starts again from the demo position, as a new session',
    { timeout: paced(30_000) },
    async () => {
      const [first] = sims().replays();
      expect(first).toMatchObject({ fixture: DEMO_REPLAY_FIXTURE, live: true });
      expect(first!.positionMs).toBe(DEMO_REPLAY_POSITION_MINUTES * 60_000);
      const firstLive = await current();
      expect(firstLive).toMatchObject({ success: true, live: true });
      const firstKey = (await t.context.live.hub.currentLiveSession())!.session_key;

      // To the end of the race: the chequered flag is the live session's last word for a while.
      await advance(first!.lengthMs - first!.positionMs + 1_000);
      expect(sims().replays()[0]).toMatchObject({ sessionKey: firstKey, live: false });
      await advance(DEMO_RESTART_PAUSE_MS - 2 * DEMO_CHECK_MS);
      expect(sims().replays()[0]!.sessionKey).toBe(firstKey);

      // Then a new session of the same race, from the demo position.
      await advance(2 * DEMO_CHECK_MS + LIVE_SESSION_TTL_MS);
      const [second] = sims().replays();
      expect(second).toMatchObject({ fixture: DEMO_REPLAY_FIXTURE, live: true });
      expect(second!.sessionKey).not.toBe(firstKey);
      expect(second!.positionMs).toBeGreaterThanOrEqual(DEMO_REPLAY_POSITION_MINUTES * 60_000);
      expect(second!.positionMs).toBeLessThan((DEMO_REPLAY_POSITION_MINUTES + 2) * 60_000);
      const live = await t.context.live.hub.currentLiveSession();
      expect(live?.session_key).toBe(second!.sessionKey);
      expect((await current()).live).toBe(true);

      // A newcomer finds it and gets its current state.
      const events: FlagEvent[] = [];
      const sub = await t.context.live.hub.subscribe(undefined, {
        onFlag: (e) => events.push(e),
        onStatus: () => {},
      });
      expect(sub.sessionKey).toBe(second!.sessionKey);
      await vi.waitFor(() => expect(events.length).toBeGreaterThan(0));
      expect(events[0]!.data.sessionKey).toBe(second!.sessionKey);
      sub.unsubscribe();

      // And again after that one.
      await advance(second!.lengthMs - second!.positionMs + DEMO_RESTART_PAUSE_MS + DEMO_CHECK_MS);
      const [third] = sims().replays();
      expect(third!.sessionKey).not.toBe(second!.sessionKey);
      expect(third!.live).toBe(true);
    },
  );

  test(
    'replays cleared on purpose stay cleared, and a paused one is not restarted',
    { timeout: paced(30_000) },
    async () => {
      sims().setSpeed(0);
      const [paused] = sims().replays();
      await advance(5 * 3_600_000);
      expect(sims().replays()[0]!.sessionKey).toBe(paused!.sessionKey);
      sims().clearReplays();
      await advance(10 * 60_000);
      expect(sims().replays()).toEqual([]);
    },
  );
});

describe('the demo race moves within a minute, for as long as the server runs (DEMO_RACE=loop, the default)', () => {
  let fake: FakeTimers;
  let t: TestApp;
  beforeAll(async () => {
    fake = createFakeTimers(T0);
    t = await buildLiveApp({ env: {}, timers: fake });
  });
  afterAll(() => t.close());

  const sims = () => t.context.sims!.openf1.control;
  /** Fake time in 5 s steps, with a real moment between them for the polls' HTTP to answer. */
  async function advance(ms: number) {
    for (let done = 0; done < ms; done += 5_000) {
      await fake.advance(Math.min(5_000, ms - done));
      await new Promise((resolve) => setTimeout(resolve, 15));
    }
  }

  /**
   * The changes the live session publishes while `ms` of fake time pass, each with the moment it
   * happened in the race (its cause's date: the replay shifts the recording's dates to now), which
   * does not depend on how fast the feed brought it here.
   */
  async function watch(ms: number, until: (states: string[]) => boolean) {
    const seen: { happened: number; state: string; sessionKey: number }[] = [];
    const add = (e: FlagEvent) =>
      seen.push({
        happened: Date.parse(e.data.cause.date),
        state: e.data.state,
        sessionKey: e.data.sessionKey,
      });
    const sub = await t.context.live.hub.subscribe(undefined, { onFlag: add, onStatus: () => {} });
    sub.initial.forEach(add);
    await advance(ms);
    await vi.waitFor(() => expect(until(seen.map((e) => e.state))).toBe(true), { timeout: paced(15_000) });
    sub.unsubscribe();
    return seen;
  }

  test(
    'it joins just before the VSC stretch: a flag change within a minute, another within a few',
    { timeout: paced(60_000) },
    async () => {
      const [first] = sims().replays();
      expect(first).toMatchObject({ fixture: DEMO_REPLAY_FIXTURE, live: true });
      expect(first!.positionMs).toBe(DEMO_LOOP_FROM_MINUTES * 60_000);
      const seen = await watch(4 * 60_000, (states) => states.includes('vsc_ending'));
      const changes = seen.filter((e) => e.state !== 'fastest_lap' && e.happened > T0);
      // The snapshot says green; the double yellow comes 27 s in, the VSC 46 s after it, its ending
      // 108 s later. (The two feeds run on real time here while the clock is fake, so a change may be
      // told in between; when each happened in the race does not depend on that.)
      expect(seen[0]!.state).toBe('green');
      expect(changes[0]).toMatchObject({ state: 'yellow' });
      expect(changes[0]!.happened - T0).toBeLessThan(60_000);
      const vsc = changes.find((c) => c.state === 'vsc')!;
      expect(vsc.happened - T0).toBeLessThan(2 * 60_000);
      const ending = changes.find((c) => c.state === 'vsc_ending')!;
      expect(ending.happened - T0).toBeLessThan(4 * 60_000);
    },
  );

  test(
    'at the end of the stretch it starts again at once, as a new session that moves within a minute',
    { timeout: paced(60_000) },
    async () => {
      const [first] = sims().replays();
      const loopLeft = DEMO_LOOP_TO_MINUTES * 60_000 - first!.positionMs;
      await advance(loopLeft + 1_000);
      const [second] = sims().replays();
      expect(second!.sessionKey).not.toBe(first!.sessionKey);
      expect(second!.positionMs).toBeGreaterThanOrEqual(DEMO_LOOP_FROM_MINUTES * 60_000);
      expect(second!.positionMs).toBeLessThan(DEMO_LOOP_FROM_MINUTES * 60_000 + 2_000);
      await advance(LIVE_SESSION_TTL_MS);
      const restartedAt = fake.now();
      const seen = await watch(60_000, (states) => states.includes('yellow'));
      expect(seen.every((e) => e.sessionKey === second!.sessionKey)).toBe(true);
      const yellow = seen.find((e) => e.state === 'yellow')!;
      expect(yellow.happened - restartedAt).toBeLessThan(60_000);
    },
  );
});
