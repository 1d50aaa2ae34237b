import { deriveLightChanges } from '@flaglight/core';
import { DEMO_REPLAY_FIXTURE, startOpenF1Sim, type RunningOpenF1Sim } from '@flaglight/sims';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { paced } from '../../../scripts/test-pace.mjs';
import { createInProcessBus } from '../src/live/bus.js';
import { createSystemTimers } from '../src/live/clock.js';
import { createLiveHub, type LiveHub } from '../src/live/hub.js';
import { connectMqttPush } from '../src/live/push.js';
import type { FlagEvent, StatusEventData } from '../src/live/types.js';
import { createOpenF1Client } from '../src/openf1/client.js';
import { createFakeTimers, type FakeTimers } from './fake-timers.js';

const T0 = Date.parse('2026-09-06T13:00:00Z');
let sim: RunningOpenF1Sim | undefined;
let hub: LiveHub | undefined;
afterEach(async () => {
  hub?.close();
  await sim?.close();
  hub = undefined;
  sim = undefined;
});

/** The Saudi race at 10×, half a minute before the pit exit opens, on a fake clock. */
async function setup(options: { speed?: number; positionMinutes?: number; timeoutMs?: number } = {}) {
  const fake = createFakeTimers(T0);
  sim = await startOpenF1Sim({
    now: fake.now,
    mqttPort: null,
    replays: [
      {
        fixture: DEMO_REPLAY_FIXTURE,
        positionMinutes: options.positionMinutes ?? 79,
        speed: options.speed ?? 10,
      },
    ],
  });
  const client = createOpenF1Client({
    baseUrl: sim.url,
    now: fake.now,
    ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
  });
  hub = createLiveHub({ client, bus: createInProcessBus(), timers: fake });
  return { fake, sim, hub };
}

function collector() {
  const events: FlagEvent[] = [];
  const statuses: StatusEventData[] = [];
  return {
    events,
    statuses,
    listener: {
      onFlag: (e: FlagEvent) => events.push(e),
      onStatus: (s: StatusEventData) => statuses.push(s),
    },
  };
}

/** Every change the whole visible recording gives, as `state@date`. */
async function derivedSoFar(sim: RunningOpenF1Sim): Promise<string[]> {
  const all = (await fetch(`${sim.url}/v1/race_control?session_key=latest`).then((r) =>
    r.json(),
  )) as unknown[];
  return deriveLightChanges(all).map((c) => `${c.state}@${c.date}`);
}

async function run(fake: FakeTimers, ms: number, step = 3_000) {
  for (let t = 0; t < ms; t += step) await fake.advance(step);
}

describe('live hub', () => {
  test('two subscribers see the same ordered changes, and upstream calls stay one per interval', async () => {
    const { fake, sim, hub } = await setup();
    const a = collector();
    const b = collector();
    await hub.subscribe(undefined, a.listener);
    await hub.subscribe(undefined, b.listener);
    for (let i = 0; i < 98; i += 1) await hub.subscribe(undefined, collector().listener);
    await vi.waitFor(() => expect(a.events.length).toBe(1));
    sim.control.resetRequests();
    await run(fake, 6 * 60_000); // an hour of the race at 10×
    expect(a.events.length).toBeGreaterThan(3);
    expect(b.events.map((e) => e.id)).toEqual(a.events.map((e) => e.id));
    expect(b.events.map((e) => e.data)).toEqual(a.events.map((e) => e.data));
    const ids = a.events.map((e) => e.id);
    expect([...ids].sort((x, y) => x - y)).toEqual(ids);
    expect(a.events.map((e) => e.data.state)).toContain('yellow'); // the safety car at 137.8 min
    // 100 subscribers, 6 minutes at one poll per 3 s: 120 calls, not 12 000.
    expect(sim.control.requestCount('/v1/race_control')).toBeLessThanOrEqual(121);
    expect(sim.control.requestCount('/v1/race_control')).toBeGreaterThanOrEqual(119);
  });

  test('the changes match deriving the whole recording', async () => {
    const { fake, sim, hub } = await setup({ speed: 20, positionMinutes: 0 });
    const a = collector();
    await hub.subscribe(undefined, a.listener);
    await vi.waitFor(() => expect(a.events.length).toBe(1));
    await run(fake, 12 * 60_000);
    const all = (await fetch(`${sim.url}/v1/race_control?session_key=latest`).then((r) =>
      r.json(),
    )) as unknown[];
    const expected = deriveLightChanges(all).map((c) => c.state);
    expect(a.events.slice(1).map((e) => e.data.state)).toEqual(expected);
  });

  test('resume with Last-Event-ID misses nothing', async () => {
    const { fake, hub } = await setup();
    const steady = collector();
    await hub.subscribe(undefined, steady.listener);
    const first = collector();
    const sub = await hub.subscribe(undefined, first.listener);
    first.events.push(...sub.initial);
    await vi.waitFor(() => expect(steady.events.length).toBe(1));
    await run(fake, 2 * 60_000);
    sub.unsubscribe();
    const lastSeen = first.events[first.events.length - 1]!.id;
    await run(fake, 4 * 60_000);
    const again = collector();
    const resumed = await hub.subscribe(undefined, again.listener, { lastEventId: lastSeen });
    const seen = [...first.events.slice(1), ...resumed.initial];
    expect(seen.map((e) => e.id)).toEqual(steady.events.slice(1).map((e) => e.id));
    expect(resumed.initial.length).toBeGreaterThan(0);
  });

  test('back-off: 10 s after a rate limit, 5 s after more than 3 consecutive errors, 3 s otherwise', async () => {
    const { fake, sim, hub } = await setup();
    await hub.subscribe(undefined, collector().listener);
    await vi.waitFor(() => expect(fake.pending()).toEqual([3_000]));
    sim.control.fault({ kind: 'rate-limit', times: 1, path: '/v1/race_control' });
    await fake.advance(3_000);
    expect(fake.pending()).toEqual([10_000]);
    await fake.advance(10_000);
    expect(fake.pending()).toEqual([3_000]);
    sim.control.fault({ kind: 'server-error', times: 5, path: '/v1/race_control' });
    const delays: number[] = [];
    for (let i = 0; i < 6; i += 1) {
      await fake.advance(fake.pending()[0]!);
      delays.push(fake.pending()[0]!);
    }
    expect(delays).toEqual([3_000, 3_000, 3_000, 5_000, 5_000, 3_000]);
  });

  test('401, time-outs and invalid JSON show as status with SPEC §8 text, never as a flag; it recovers', async () => {
    const { fake, sim, hub } = await setup({ timeoutMs: 100 });
    const a = collector();
    await hub.subscribe(undefined, a.listener);
    await vi.waitFor(() => expect(a.events.length).toBe(1));
    await fake.advance(3_000);
    const cases = [
      ['unauthorized', 'unauthorized', 'Authentication expired. Please log in again.'],
      ['invalid-json', 'error', 'Invalid JSON response from OpenF1 API'],
      ['slow', 'error', 'OpenF1 API request failed: request timed out'],
      ['server-error', 'error', 'OpenF1 API request failed: 500 Internal Server Error'],
    ] as const;
    for (const [kind, upstream, message] of cases) {
      const flags = a.events.length;
      sim.control.fault({ kind, times: 1, delayMs: 1_000, path: '/v1/race_control' });
      await fake.advance(3_000);
      expect(a.statuses.at(-1)).toMatchObject({ upstream, message, transport: 'polling' });
      expect(a.events.length).toBe(flags);
      await fake.advance(3_000);
      expect(a.statuses.at(-1)).toMatchObject({ upstream: 'ok', message: null });
    }
    await run(fake, 60_000);
    const got = a.events.slice(1).map((e) => `${e.data.state}@${e.data.cause.date}`);
    const expected = await derivedSoFar(sim);
    expect(got.length).toBeGreaterThan(0);
    expect(expected.slice(expected.length - got.length)).toEqual(got);
  });

  test(
    'through a storm of faults no subscriber sees a wrong flag, and nothing is missed',
    { timeout: paced(120_000) },
    async () => {
      const { fake, sim, hub } = await setup({ speed: 20, positionMinutes: 0, timeoutMs: 100 });
      const a = collector();
      await hub.subscribe(undefined, a.listener);
      await vi.waitFor(() => expect(a.events.length).toBe(1));
      const kinds = ['rate-limit', 'server-error', 'invalid-json', 'unauthorized', 'slow'] as const;
      let faults = 0;
      for (let step = 0; step < 240; step += 1) {
        // Roughly every other poll fails, in runs long enough to trigger both back-offs.
        if (step % 7 < 4) {
          sim.control.fault({
            kind: kinds[step % kinds.length]!,
            times: 1,
            delayMs: 300,
            path: '/v1/race_control',
          });
          faults += 1;
        }
        await fake.advance(3_000);
      }
      sim.control.clearFaults();
      await run(fake, 30_000);
      expect(faults).toBeGreaterThan(100);
      const expected = await derivedSoFar(sim);
      // After the first snapshot (the green start), exactly the recording's changes, in order.
      const got = a.events.slice(1).map((e) => `${e.data.state}@${e.data.cause.date}`);
      expect(got).toEqual(expected);
      expect(got.length).toBeGreaterThan(10);
      expect(a.statuses.map((s) => s.upstream)).toEqual(
        expect.arrayContaining(['rate-limited', 'error', 'unauthorized', 'ok']),
      );
      // Slow answers take real time; a loaded CI machine needs room (no timing is asserted).
    },
  );

  test('a follower stops a minute after its last subscriber leaves', async () => {
    const { fake, sim, hub } = await setup();
    const sub = await hub.subscribe(undefined, collector().listener);
    await vi.waitFor(() => expect(hub.isPollingActive()).toBe(true));
    sub.unsubscribe();
    await run(fake, 30_000);
    expect(hub.isPollingActive()).toBe(true);
    await run(fake, 33_000);
    expect(hub.isPollingActive()).toBe(false);
    const before = sim.control.requestCount('/v1/race_control');
    await run(fake, 30_000);
    expect(sim.control.requestCount('/v1/race_control')).toBe(before);
  });
});

describe('push', () => {
  test(
    'push dropped: polling takes over with no gap, and nothing is duplicated',
    { timeout: paced(40_000) },
    async () => {
      sim = await startOpenF1Sim({
        mqttPort: 0,
        replays: [{ fixture: DEMO_REPLAY_FIXTURE, positionMinutes: 137.5, speed: 60 }],
      });
      const client = createOpenF1Client({
        baseUrl: sim.url,
        username: 'flaglight',
        password: 'flaglight',
        mqttUrl: sim.mqttUrl!,
      });
      hub = createLiveHub({
        client,
        bus: createInProcessBus(),
        timers: createSystemTimers(),
        connectPush: connectMqttPush,
      });
      const a = collector();
      await hub.subscribe(undefined, a.listener);
      await vi.waitFor(() => expect(hub!.stats()[0]?.transport).toBe('push'), { timeout: paced(5_000) });
      sim.control.dropPush({ refuseForMs: 3_000 });
      await vi.waitFor(() => expect(hub!.stats()[0]?.transport).toBe('polling'), { timeout: paced(5_000) });
      // Polling brings the race's next change (a race minute passes each second; on a fast machine the
      // fixed waits once ended before it came).
      await vi.waitFor(() => expect(a.events.length).toBeGreaterThanOrEqual(2), { timeout: paced(20_000) });
      // Pause the race, and let the follower catch up, before comparing with everything shown.
      sim.control.setSpeed(0);
      await new Promise((r) => setTimeout(r, 3_500));
      const all = (await fetch(`${sim.url}/v1/race_control?session_key=latest`).then((r) =>
        r.json(),
      )) as unknown[];
      const expected = deriveLightChanges(all).map((c) => `${c.state}@${c.date}`);
      const got = a.events.slice(1).map((e) => `${e.data.state}@${e.data.cause.date}`);
      // Everything derived after the snapshot, in order: the tail of the whole recording's changes.
      expect(got.length).toBeGreaterThan(0);
      expect(expected.slice(expected.length - got.length)).toEqual(got);
      expect(new Set(a.events.map((e) => e.id)).size).toBe(a.events.length);
    },
  );
});
