import { MAX_REPLAYS_PER_ACCOUNT, MAX_REPLAYS_PER_ADDRESS } from '@flaglight/contract';
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from 'vitest';
import { paced } from '../../../scripts/test-pace.mjs';
import { MAX_REPLAYS, REPLAY_IDLE_MS } from '../src/live/hub.js';
import { REPLAY_REFUSALS } from '../src/replays/service.js';
import { createFakeTimers, type FakeTimers } from './fake-timers.js';
import type { TestApp } from './helper.js';
import { buildLiveApp, readSse, signUp, type SseEvent } from './live-helpers.js';

/**
 * The attack: 20 trial accounts from one address each keep replay streams open;
 * after about 7 minutes all 200 replay slots were taken and every other fan got 429.
 */

const RECORDING = '2021-saudi-arabia-race';
/** The attacker's address, a household's, and a fan's elsewhere (TRUST_PROXY=1: X-Forwarded-For). */
const ATTACKER = '203.0.113.7';
const HOUSEHOLD = '198.51.100.30';
const ELSEWHERE = '192.0.2.44';

interface ReplayStream {
  status: number;
  events: SseEvent[];
  /** Whether the server has ended the stream (or the test closed it). */
  ended: () => boolean;
  close(): void;
}

async function startReplayFrom(
  origin: string,
  token: string,
  address: string,
  options: { startMinutes?: number; speed?: number } = {},
) {
  const res = await fetch(`${origin}/api/replays`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      'x-forwarded-for': address,
    },
    body: JSON.stringify({ source: 'bundled', id: RECORDING, speed: 1, startMinutes: 0, ...options }),
  });
  const body = (await res.json()) as { sessionKey?: number; error?: string; code?: string };
  return { status: res.status, body };
}

/** Asks a ticket for the replay, then opens its event stream as a browser's EventSource would. */
async function openReplayStream(
  origin: string,
  token: string,
  sessionKey: number,
  headers: Record<string, string> = {},
): Promise<ReplayStream> {
  const asked = await fetch(`${origin}/api/live/ticket?sessionKey=${sessionKey}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
  });
  const { ticket } = (await asked.json()) as { ticket?: string };
  if (!ticket) throw new Error(`ticket refused: ${asked.status}`);
  const controller = new AbortController();
  const res = await fetch(`${origin}/api/live/events?ticket=${ticket}&sessionKey=${sessionKey}`, {
    headers: { accept: 'text/event-stream', ...headers },
    signal: controller.signal,
  });
  const events: SseEvent[] = [];
  let ended = res.status !== 200;
  if (res.status === 200) {
    void readSse(res.body!, (e) => events.push(e)).done.then(() => {
      ended = true;
    });
  } else await res.body?.cancel();
  return { status: res.status, events, ended: () => ended, close: () => controller.abort() };
}

/** Builds the real app on a fake clock, behind one trusted proxy, listening on 127.0.0.1. */
async function buildReplayApp(): Promise<{ t: TestApp; origin: string; timers: FakeTimers }> {
  const timers = createFakeTimers(Date.now());
  const t = await buildLiveApp({
    env: { TRUST_PROXY: '1', AUTH_RATE_LIMIT_PER_MINUTE: '1000' },
    timers,
  });
  const origin = await t.app.listen({ port: 0, host: '127.0.0.1' });
  return { t, origin, timers };
}

function runningReplays(t: TestApp): number[] {
  return t.context.live.hub
    .stats()
    .filter((s) => s.kind === 'replay')
    .map((s) => s.sessionKey);
}

describe('replay slots under the attack', () => {
  let t: TestApp;
  let origin: string;
  let timers: FakeTimers;
  const streams: ReplayStream[] = [];
  /** The rate limiter reads the wall clock: the attack's minutes pass there and on the hub's clock. */
  let wallSkew = 0;
  beforeAll(async () => {
    ({ t, origin, timers } = await buildReplayApp());
    const realNow = Date.now.bind(Date);
    vi.spyOn(Date, 'now').mockImplementation(() => realNow() + wallSkew);
  });
  afterAll(async () => {
    vi.restoreAllMocks();
    for (const stream of streams.splice(0)) stream.close();
    await t.close();
  });

  const letAMinutePass = async () => {
    wallSkew += 61_000;
    await timers.advance(61_000);
  };

  test(
    '20 accounts on one address, each keeping a stream on every replay it starts, hold 10 slots; a fresh account elsewhere still starts one',
    { timeout: paced(120_000) },
    async () => {
      const attackers = await Promise.all(Array.from({ length: 20 }, () => signUp(t)));
      const refusals: Array<{ status: number; error?: string }> = [];
      let started = 0;
      // Ten rounds, a minute apart: under the 30 starts a minute one address may make.
      for (let round = 0; round < 10; round += 1) {
        for (const token of attackers) {
          const { status, body } = await startReplayFrom(origin, token, ATTACKER);
          if (status !== 200) {
            refusals.push({ status, ...(body.error ? { error: body.error } : {}) });
            continue;
          }
          started += 1;
          const stream = await openReplayStream(origin, token, body.sessionKey!);
          expect(stream.status).toBe(200);
          streams.push(stream);
        }
        await letAMinutePass();
      }

      // The figure: the attack holds the address's slots, not the instance's.
      expect(runningReplays(t)).toHaveLength(MAX_REPLAYS_PER_ADDRESS);
      expect(MAX_REPLAYS).toBe(200);
      // The accounts that got in kept starting: each start ended that account's previous replay, and
      // the streams on ended replays were closed by the server.
      expect(started).toBe(10 * MAX_REPLAYS_PER_ADDRESS);
      await vi.waitFor(() => expect(streams.filter((s) => !s.ended())).toHaveLength(MAX_REPLAYS_PER_ADDRESS));
      expect(refusals).toHaveLength(200 - started);
      expect(new Set(refusals.map((r) => `${r.status} ${r.error}`))).toEqual(
        new Set([`429 ${REPLAY_REFUSALS.address}`]),
      );

      const fan = await signUp(t);
      const mine = await startReplayFrom(origin, fan, ELSEWHERE);
      expect(mine.status).toBe(200);
      const watching = await openReplayStream(origin, fan, mine.body.sessionKey!);
      streams.push(watching);
      expect(watching.status).toBe(200);
      await vi.waitFor(() => expect(watching.events.some((e) => e.event === 'flag')).toBe(true));
    },
  );
});

describe('replay slots of an account and an address', () => {
  let t: TestApp;
  let origin: string;
  let timers: FakeTimers;
  const streams: ReplayStream[] = [];
  beforeAll(async () => {
    ({ t, origin, timers } = await buildReplayApp());
  });
  afterEach(async () => {
    for (const stream of streams.splice(0)) stream.close();
    // Every replay of the test ends once nobody reads it.
    await vi.waitFor(() => expect(t.context.live.limits.total()).toBe(0));
    await timers.advance(REPLAY_IDLE_MS);
    expect(runningReplays(t)).toEqual([]);
  });
  afterAll(() => t.close());

  test(`a fan starting a replay past ${MAX_REPLAYS_PER_ACCOUNT} ends their oldest (its stream closes), never is refused`, async () => {
    const fan = await signUp(t);
    const keys: number[] = [];
    for (let i = 0; i < MAX_REPLAYS_PER_ACCOUNT + 2; i += 1) {
      const started = await startReplayFrom(origin, fan, HOUSEHOLD, { startMinutes: 10 * i });
      expect(started.status).toBe(200);
      keys.push(started.body.sessionKey!);
      const stream = await openReplayStream(origin, fan, started.body.sessionKey!);
      expect(stream.status).toBe(200);
      streams.push(stream);
    }
    expect(runningReplays(t)).toEqual(keys.slice(-MAX_REPLAYS_PER_ACCOUNT));
    // The ended ones' streams were closed by the server; the running ones' stay open.
    await vi.waitFor(() => expect(streams.map((s) => s.ended())).toEqual([true, true, false, false]));
    const late = await openReplayStream(origin, fan, keys[0]!);
    expect(late.status).toBe(404);
  });

  test(`${MAX_REPLAYS_PER_ADDRESS} fans behind one address run a replay each; the next account there waits, one elsewhere does not`, async () => {
    const household = await Promise.all(Array.from({ length: MAX_REPLAYS_PER_ADDRESS }, () => signUp(t)));
    const keys: number[] = [];
    for (const fan of household) {
      const started = await startReplayFrom(origin, fan, HOUSEHOLD);
      expect(started.status).toBe(200);
      keys.push(started.body.sessionKey!);
      streams.push(await openReplayStream(origin, fan, started.body.sessionKey!));
    }

    const neighbour = await signUp(t);
    const refused = await startReplayFrom(origin, neighbour, HOUSEHOLD);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ error: REPLAY_REFUSALS.address, code: 'rate_limited' });
    expect(refused.body.error).toContain(`${MAX_REPLAYS_PER_ADDRESS} replays`);

    // A fan of the full household jumps along their replay: their own old one makes the room.
    const jump = await startReplayFrom(origin, household[0]!, HOUSEHOLD, { startMinutes: 30 });
    expect(jump.status).toBe(200);
    expect(runningReplays(t)).not.toContain(keys[0]);
    expect(runningReplays(t)).toHaveLength(MAX_REPLAYS_PER_ADDRESS);

    const elsewhere = await startReplayFrom(origin, await signUp(t), ELSEWHERE);
    expect(elsewhere.status).toBe(200);
  });

  test('a new IPv6 address for every account in one /64 is still one address', async () => {
    const accounts = await Promise.all(Array.from({ length: MAX_REPLAYS_PER_ADDRESS + 1 }, () => signUp(t)));
    const statuses: number[] = [];
    for (const [i, token] of accounts.entries()) {
      statuses.push((await startReplayFrom(origin, token, `2001:db8:7:7::${(i + 1).toString(16)}`)).status);
    }
    expect(statuses).toEqual([...Array<number>(MAX_REPLAYS_PER_ADDRESS).fill(200), 429]);
    expect((await startReplayFrom(origin, accounts.at(-1)!, '2001:db8:7:8::1')).status).toBe(200);
  });

  test(`a replay nobody reads ends ${REPLAY_IDLE_MS / 1000} s after it started, and frees its slot`, async () => {
    const fan = await signUp(t);
    const started = await startReplayFrom(origin, fan, HOUSEHOLD);
    const key = started.body.sessionKey!;
    await timers.advance(REPLAY_IDLE_MS - 1_000);
    expect(runningReplays(t)).toContain(key);
    await timers.advance(1_000);
    expect(runningReplays(t)).not.toContain(key);
    expect((await openReplayStream(origin, fan, key)).status).toBe(404);
  });

  test('a replay begins where it was asked when its first reader comes, however late', async () => {
    const fan = await signUp(t);
    // Minute 92.55: a double yellow that race control clears 18 s later.
    const started = await startReplayFrom(origin, fan, HOUSEHOLD, { startMinutes: 92.55 });
    const key = started.body.sessionKey!;
    // The page takes 30 s to connect (a loaded machine): longer than the yellow lasts.
    await timers.advance(30_000);
    const stream = await openReplayStream(origin, fan, key);
    streams.push(stream);
    const states = () =>
      stream.events.filter((e) => e.event === 'flag').map((e) => JSON.parse(e.data!).state);
    await vi.waitFor(() => expect(states().length).toBeGreaterThan(0));
    expect(states()[0]).toBe('yellow');
    // It plays on from there at its speed: the clear comes 18 s later.
    await timers.advance(18_000);
    await vi.waitFor(() => expect(states()).toContain('green'));
  });

  test('a stream that reconnects within the idle time keeps its replay, and resumes from its last event', async () => {
    const fan = await signUp(t);
    // Green at minute 80, then yellows and a red flag: at 20× its flags change while the test reads on.
    const started = await startReplayFrom(origin, fan, HOUSEHOLD, { startMinutes: 85, speed: 20 });
    const key = started.body.sessionKey!;
    const first = await openReplayStream(origin, fan, key);
    streams.push(first);
    await vi.waitFor(() => expect(first.events.some((e) => e.event === 'flag')).toBe(true));
    const lastId = first.events.filter((e) => e.id).at(-1)!.id!;

    // The network drops; the page comes back just inside the idle time.
    first.close();
    await vi.waitFor(() => expect(t.context.live.limits.total()).toBe(0));
    await timers.advance(REPLAY_IDLE_MS - 5_000);
    const again = await openReplayStream(origin, fan, key, { 'last-event-id': lastId });
    streams.push(again);
    expect(again.status).toBe(200);
    // Read on well past the idle time: a replay with a reader runs on.
    await timers.advance(3 * REPLAY_IDLE_MS);
    expect(runningReplays(t)).toContain(key);
    // Minute 146 of the race: its red flag came to the resumed stream.
    const states = () => again.events.filter((e) => e.event === 'flag').map((e) => JSON.parse(e.data!).state);
    await vi.waitFor(() => expect(states()).toContain('red'));
    expect(again.events.filter((e) => e.id).every((e) => Number(e.id) > Number(lastId))).toBe(true);
  });
});
