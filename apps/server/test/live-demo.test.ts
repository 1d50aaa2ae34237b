import { DEMO_REPLAY_FIXTURE } from '@flaglight/sims';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { DEMO_CHECK_MS, DEMO_RESTART_PAUSE_MS } from '../src/demo/loop.js';
import { DEMO_REPLAY_POSITION_MINUTES } from '../src/demo/sims.js';
import { LIVE_SESSION_TTL_MS } from '../src/live/hub.js';
import type { FlagEvent } from '../src/live/types.js';
import { createFakeTimers, type FakeTimers } from './fake-timers.js';
import type { TestApp } from './helper.js';
import { buildLiveApp } from './live-helpers.js';

const T0 = Date.parse('2026-09-06T13:00:00Z');

describe('demo mode always has a live race', () => {
  let fake: FakeTimers;
  let t: TestApp;
  beforeAll(async () => {
    fake = createFakeTimers(T0);
    t = await buildLiveApp({ env: {}, timers: fake });
  });
  afterAll(() => t.close());

  const sims = () => t.context.sims!.openf1.control;
  const current = async () => (await t.app.inject({ url: '/api/f1/current' })).json();
  async function advance(ms: number) {
    for (let done = 0; done < ms; done += 10_000) await fake.advance(Math.min(10_000, ms - done));
  }

  test('when the replayed race ends it starts again from the demo position, as a new session', async () => {
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
  }, 30_000);

  test('replays cleared on purpose stay cleared, and a paused one is not restarted', async () => {
    sims().setSpeed(0);
    const [paused] = sims().replays();
    await advance(5 * 3_600_000);
    expect(sims().replays()[0]!.sessionKey).toBe(paused!.sessionKey);
    sims().clearReplays();
    await advance(10 * 60_000);
    expect(sims().replays()).toEqual([]);
  }, 30_000);
});
