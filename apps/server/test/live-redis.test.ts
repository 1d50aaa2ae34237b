import crypto from 'node:crypto';
import { DEMO_REPLAY_FIXTURE, startOpenF1Sim, type RunningOpenF1Sim } from '@flaglight/sims';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { paced } from '../../../scripts/test-pace.mjs';
import { createRedisBus, type RedisBus } from '../src/live/redis.js';
import type { BusMessage, FlagEvent } from '../src/live/types.js';
import { createFakeTimers, type FakeTimers } from './fake-timers.js';
import type { TestApp } from './helper.js';
import { buildLiveApp, readSse, signUp, type SseEvent } from './live-helpers.js';

const TEST_REDIS_URL = process.env.TEST_REDIS_URL;
const T0 = Date.parse('2026-09-06T13:00:00Z');

/** Keys of this file only, so concurrent runs on one Redis never meet. */
const prefix = `flaglight-test:${crypto.randomBytes(5).toString('hex')}:`;

async function dropKeys(redis: Redis): Promise<void> {
  const keys = await redis.keys(`${prefix}*`);
  if (keys.length > 0) await redis.del(...keys);
}

function flagEvent(sessionKey: number, id: number): FlagEvent {
  const date = new Date(T0 + id).toISOString();
  return {
    id,
    data: {
      sessionKey,
      state: 'green',
      activeSectors: [],
      cause: { date, message: `m${id}` },
      emittedAt: date,
    },
  };
}

describe.skipIf(!TEST_REDIS_URL)('Redis bus (set TEST_REDIS_URL to run)', () => {
  let admin: Redis;
  const buses: RedisBus[] = [];
  const bus = (leaseMs?: number) => {
    const b = createRedisBus(TEST_REDIS_URL!, { prefix, ...(leaseMs ? { leaseMs } : {}) });
    buses.push(b);
    return b;
  };
  beforeAll(() => {
    admin = new Redis(TEST_REDIS_URL!);
  });
  afterAll(async () => {
    for (const b of buses) await b.close();
    await dropKeys(admin);
    await admin.quit();
  });

  test('fans out across instances in order, and keeps the recent events for resume', async () => {
    const a = bus();
    const b = bus();
    const got: BusMessage[] = [];
    b.subscribe(41, (m) => got.push(m));
    await b.recent(41); // subscribed
    for (let id = 1; id <= 300; id += 1) a.publish(41, { type: 'flag', event: flagEvent(41, id) });
    a.publish(41, {
      type: 'status',
      status: { sessionKey: 41, upstream: 'ok', transport: 'polling', message: null },
    });
    await vi.waitFor(() => expect(got.length).toBe(301));
    expect(got.slice(0, 300).map((m) => (m.type === 'flag' ? m.event.id : 0))).toEqual(
      Array.from({ length: 300 }, (_, i) => i + 1),
    );
    // A newcomer finds the last 256 events and the status.
    const recent = await bus().recent(41);
    expect(recent.events.map((e) => e.id)).toEqual(Array.from({ length: 256 }, (_, i) => i + 45));
    expect(recent.status).toMatchObject({ upstream: 'ok', transport: 'polling' });
  });

  test('one leader per session; a crashed leader is replaced after its lease', async () => {
    const a = bus(600);
    const b = bus(600);
    const log: string[] = [];
    a.lead(42, { onAcquired: () => log.push('a+'), onLost: () => log.push('a-') });
    await vi.waitFor(() => expect(log).toEqual(['a+']));
    const leaseB = b.lead(42, { onAcquired: () => log.push('b+'), onLost: () => log.push('b-') });
    await new Promise((r) => setTimeout(r, 700)); // a renews: b stays out
    expect(log).toEqual(['a+']);
    // a's process "dies": its connection drops without releasing the lease.
    a.client.disconnect();
    await vi.waitFor(() => expect(log).toContain('b+'), { timeout: paced(3_000) });
    await vi.waitFor(() => expect(log).toContain('a-'), { timeout: paced(3_000) });
    // A released lease passes on at the next try.
    const log2: string[] = [];
    const c = bus(600);
    c.lead(42, { onAcquired: () => log2.push('c+'), onLost: () => log2.push('c-') });
    await new Promise((r) => setTimeout(r, 300));
    expect(log2).toEqual([]);
    leaseB.release();
    await vi.waitFor(() => expect(log2).toEqual(['c+']), { timeout: paced(2_000) });
    expect(log.filter((x) => x === 'b-')).toEqual([]);
  });

  test('subscribes again after its connection is killed, and hands over what it missed', async () => {
    const a = bus();
    const b = bus();
    const ids: number[] = [];
    b.subscribe(43, (m) => {
      if (m.type === 'flag' && !ids.includes(m.event.id)) ids.push(m.event.id);
    });
    await b.recent(43);
    a.publish(43, { type: 'flag', event: flagEvent(43, 1) });
    await vi.waitFor(() => expect(ids).toEqual([1]));
    const clients = await admin.call('CLIENT', 'LIST', 'TYPE', 'pubsub');
    const line = String(clients)
      .split('\n')
      .find((l) => l.includes(`name=flaglight-sub-${b.instance.slice(0, 8)}`));
    const id = /\bid=(\d+)/.exec(line ?? '')?.[1];
    expect(id).toBeDefined();
    await admin.call('CLIENT', 'KILL', 'ID', id!);
    // Published while b is away: not delivered by pub/sub, but kept in the list.
    a.publish(43, { type: 'flag', event: flagEvent(43, 2) });
    a.publish(43, { type: 'flag', event: flagEvent(43, 3) });
    await vi.waitFor(() => expect(ids).toEqual([1, 2, 3]), { timeout: paced(5_000) });
    a.publish(43, { type: 'flag', event: flagEvent(43, 4) });
    await vi.waitFor(() => expect(ids).toEqual([1, 2, 3, 4]), { timeout: paced(5_000) });
  });
});

describe.skipIf(!TEST_REDIS_URL)('two app instances sharing Redis (set TEST_REDIS_URL to run)', () => {
  let fake: FakeTimers;
  let sim: RunningOpenF1Sim;
  let a: TestApp;
  let b: TestApp;
  let token: string;
  let admin: Redis;
  const apps: TestApp[] = [];
  const origins = new Map<TestApp, string>();
  const instance = async () => {
    const t = await buildLiveApp({
      env: { OPENF1_BASE_URL: sim.url, REDIS_URL: TEST_REDIS_URL!, REDIS_KEY_PREFIX: prefix },
      timers: fake,
    });
    apps.push(t);
    origins.set(t, await t.app.listen({ port: 0, host: '127.0.0.1' }));
    return t;
  };

  beforeAll(async () => {
    admin = new Redis(TEST_REDIS_URL!);
    fake = createFakeTimers(T0);
    // The Saudi race at 10×, just before the pit exit opens; the safety car follows.
    sim = await startOpenF1Sim({
      now: fake.now,
      mqttPort: null,
      replays: [{ fixture: DEMO_REPLAY_FIXTURE, positionMinutes: 79, speed: 10 }],
    });
    a = await instance();
    b = await instance();
    token = await signUp(a);
  });
  afterAll(async () => {
    for (const t of apps) await t.close().catch(() => {});
    await sim.close();
    await dropKeys(admin);
    await admin.quit();
  });

  /** A ticket from instance A (tickets live in Redis, so any instance redeems it). */
  const ticket = async () =>
    (
      await a.app.inject({
        method: 'POST',
        url: '/api/live/ticket',
        headers: { authorization: `Bearer ${token}` },
      })
    ).json().ticket as string;

  async function open(t: TestApp, headers: Record<string, string> = {}) {
    const controller = new AbortController();
    const res = await fetch(`${origins.get(t)}/api/live/events?ticket=${await ticket()}`, {
      signal: controller.signal,
      headers,
    });
    expect(res.status).toBe(200);
    const events: SseEvent[] = [];
    readSse(res.body!, (e) => events.push(e));
    const flags = () => events.filter((e) => e.event === 'flag');
    return { flags, close: () => controller.abort() };
  }

  /** Moves the shared clock, giving Redis a moment to carry each poll's events. */
  async function run(ms: number) {
    for (let t = 0; t < ms; t += 3_000) {
      await fake.advance(3_000);
      await new Promise((r) => setTimeout(r, 5));
    }
  }

  const leaders = () =>
    apps.filter((t) => t.context.live.hub.stats().some((s) => s.kind === 'live' && s.following));

  let steady: Awaited<ReturnType<typeof open>>;
  test(
    'one instance polls OpenF1; a subscriber on B sees the changes of A, in order',
    { timeout: paced(30_000) },
    async () => {
      const onA = await open(a);
      steady = await open(b);
      await vi.waitFor(() => expect(onA.flags().length).toBeGreaterThan(0), { timeout: paced(5_000) });
      await vi.waitFor(() => expect(steady.flags().length).toBeGreaterThan(0), { timeout: paced(5_000) });
      await vi.waitFor(() => expect(leaders().length).toBe(1), { timeout: paced(5_000) });
      const relays = apps.flatMap((t) => t.context.live.hub.stats()).filter((s) => s.transport === 'relay');
      expect(relays.length).toBe(1);
      sim.control.resetRequests();
      await run(6 * 60_000); // an hour of the race at 10×
      await vi.waitFor(() => expect(steady.flags().length).toBe(onA.flags().length));
      const ids = steady.flags().map((e) => Number(e.id));
      expect(ids.length).toBeGreaterThan(3);
      expect([...ids].sort((x, y) => x - y)).toEqual(ids);
      expect(steady.flags()).toEqual(onA.flags());
      expect(steady.flags().map((e) => JSON.parse(e.data!).state)).toContain('yellow');
      // Two instances with subscribers, one poll per 3 s: 120 in 6 minutes, not 240.
      expect(sim.control.requestCount('/v1/race_control')).toBeLessThanOrEqual(121);
      expect(sim.control.requestCount('/v1/race_control')).toBeGreaterThanOrEqual(119);
      for (const t of apps) {
        const status = await t.app.inject({ url: '/api/sessions/centralized-status' });
        expect(status.json().isPollingActive).toBe(true);
      }
      onA.close();
    },
  );

  test(
    'a stream resumes on an instance that never saw the session, missing nothing',
    { timeout: paced(30_000) },
    async () => {
      const first = await open(a);
      await vi.waitFor(() => expect(first.flags().length).toBeGreaterThan(0), { timeout: paced(5_000) });
      const lastSeen = first.flags().at(-1)!.id!;
      first.close();
      const before = steady.flags().length;
      await run(3 * 60_000);
      await vi.waitFor(() => expect(steady.flags().length).toBeGreaterThan(before), {
        timeout: paced(5_000),
      });
      const c = await instance();
      expect(c.context.live.hub.stats()).toEqual([]);
      const resumed = await open(c, { 'last-event-id': lastSeen });
      // Everything the steady subscriber got after that id (the lease may have moved meanwhile: the
      // instance that led lost its last subscriber and handed over).
      const missed = () => steady.flags().filter((e) => Number(e.id) > Number(lastSeen));
      await vi.waitFor(() => expect(resumed.flags()).toEqual(missed()), { timeout: paced(5_000) });
      expect(resumed.flags().length).toBeGreaterThan(0);
      resumed.close();
    },
  );

  test(
    'when the leading instance stops, another takes over and the ids keep increasing',
    { timeout: paced(30_000) },
    async () => {
      const [leader] = leaders();
      expect(leader).toBeDefined();
      const idsBefore = steady.flags().map((e) => Number(e.id));
      await leader!.close();
      apps.splice(apps.indexOf(leader!), 1);
      if (leader === b) steady = await open(a, { 'last-event-id': String(idsBefore.at(-1)) });
      // The next instance takes the lease at its next try (a third of a lease).
      await vi.waitFor(() => expect(leaders().length).toBe(1), { timeout: paced(8_000) });
      sim.control.resetRequests();
      const count = steady.flags().length;
      await run(4 * 60_000);
      await vi.waitFor(() => expect(steady.flags().length).toBeGreaterThan(count), { timeout: paced(5_000) });
      const ids = steady.flags().map((e) => Number(e.id));
      expect([...ids].sort((x, y) => x - y)).toEqual(ids);
      expect(ids.at(-1)!).toBeGreaterThan(idsBefore.at(-1)!);
      // The new leader starts from the whole history but repeats no state its subscribers hold.
      const states = steady
        .flags()
        .map((e) => JSON.parse(e.data!) as { state: string; activeSectors: number[] })
        .filter((d) => d.state !== 'fastest_lap')
        .map((d) => `${d.state}:${d.activeSectors.join()}`);
      expect(states.filter((x, i) => i > 0 && x === states[i - 1])).toEqual([]);
      expect(sim.control.requestCount('/v1/race_control')).toBeLessThanOrEqual(81);
      steady.close();
    },
  );

  test('rate limits count across instances', async () => {
    const limited = await buildLiveApp({
      env: {
        OPENF1_BASE_URL: sim.url,
        REDIS_URL: TEST_REDIS_URL!,
        REDIS_KEY_PREFIX: `${prefix}rl:`,
        AUTH_RATE_LIMIT_PER_MINUTE: '3',
      },
      timers: fake,
    });
    const other = await buildLiveApp({
      env: {
        OPENF1_BASE_URL: sim.url,
        REDIS_URL: TEST_REDIS_URL!,
        REDIS_KEY_PREFIX: `${prefix}rl:`,
        AUTH_RATE_LIMIT_PER_MINUTE: '3',
      },
      timers: fake,
    });
    apps.push(limited, other);
    const login = (t: TestApp) =>
      t.app.inject({
        method: 'POST',
        url: '/auth/login',
        payload: { email: 'nobody@example.com', password: 'wrong' },
      });
    const codes = [
      (await login(limited)).statusCode,
      (await login(limited)).statusCode,
      (await login(other)).statusCode,
      (await login(other)).statusCode,
    ];
    // Alone, `other` would allow three: it refuses its second, the fourth of the pair.
    expect(codes.slice(0, 3).every((c) => c !== 429)).toBe(true);
    expect(codes[3]).toBe(429);
    expect((await admin.keys(`${prefix}rl:rate-limit:*`)).length).toBeGreaterThan(0);
  });
});

describe('with REDIS_URL set but Redis unreachable', () => {
  test(
    'the app starts and serves; tickets say 503 with a clear error; rate-limited routes still answer',
    { timeout: paced(20_000) },
    async () => {
      const fake = createFakeTimers(T0);
      // Nothing listens on port 1: every connection is refused at once.
      const t = await buildLiveApp({
        env: { REDIS_URL: 'redis://127.0.0.1:1', REDIS_KEY_PREFIX: prefix },
        timers: fake,
      });
      try {
        expect((await t.app.inject({ url: '/api/health' })).json()).toEqual({ ok: true });
        const token = await signUp(t);
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/live/ticket',
          headers: { authorization: `Bearer ${token}` },
        });
        expect(res.statusCode).toBe(503);
        expect(res.json().error).toBe(
          'Live updates are unavailable right now. Please try again in a moment.',
        );
        const stream = await t.app.inject({ url: '/api/live/events?ticket=whatever' });
        expect(stream.statusCode).toBe(503);
        const login = await t.app.inject({
          method: 'POST',
          url: '/auth/login',
          payload: { email: 'nobody@example.com', password: 'wrong' },
        });
        expect(login.statusCode).toBeGreaterThanOrEqual(400);
        expect(login.statusCode).toBeLessThan(500);
      } finally {
        await t.close();
      }
    },
  );
});
