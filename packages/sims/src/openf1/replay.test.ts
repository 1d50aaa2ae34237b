import { type RaceControlRow } from '@flaglight/data';
import Fastify from 'fastify';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { parseJson, rawGet } from '../../test/http.js';
import { formatOpenF1Date } from '../shared/clock.js';
import { type SessionRow } from './catalog.js';
import { startOpenF1Sim, type RunningOpenF1Sim } from './server.js';
import { createOpenF1Sim, DEMO_REPLAY_FIXTURE, FIRST_REPLAY_KEY } from './sim.js';

const START = Date.parse('2026-09-06T12:00:00Z');
/** 2021 Saudi Arabia: the first message is 15:30:28, the pit exit opens at 16:50:00. */
const GREEN_OFFSET_MS = 4_772_000;
const SAUDI_LENGTH_MS = Date.parse('2021-12-05T19:48:42Z') - Date.parse('2021-12-05T15:30:28Z');

let t = START;
let sim: RunningOpenF1Sim;

beforeEach(async () => {
  t = START;
  sim = await startOpenF1Sim({ now: () => t, mqttPort: null });
});
afterEach(async () => {
  await sim.close();
});

async function live(query = ''): Promise<RaceControlRow[]> {
  const res = await rawGet(sim.url, `/v1/race_control?session_key=latest${query}`);
  return res.status === 404 ? [] : parseJson<RaceControlRow[]>(res);
}

describe('a recorded session replayed as live', () => {
  test('messages show at their recorded offsets divided by the speed', async () => {
    sim.control.replay({ fixture: DEMO_REPLAY_FIXTURE, startedAt: START, speed: 20 });
    expect(await live()).toHaveLength(1);
    t = START + GREEN_OFFSET_MS / 20 - 1;
    expect(await live()).toHaveLength(1);
    t = START + GREEN_OFFSET_MS / 20;
    const rows = await live();
    expect(rows).toHaveLength(2);
    expect(rows[1]?.message).toBe('GREEN LIGHT - PIT EXIT OPEN');
  });

  test('visible messages are re-dated to the instant they showed and carry the replay keys', async () => {
    const info = sim.control.replay({ fixture: DEMO_REPLAY_FIXTURE, startedAt: START, speed: 20 });
    t = START + 10 * 60_000;
    const rows = await live();
    expect(rows[0]).toMatchObject({
      date: formatOpenF1Date(START),
      session_key: info.sessionKey,
      meeting_key: info.meetingKey,
      message: 'AIR TEMPERATURE 2 HOURS BEFORE THE RACE =  29 DEGREES',
    });
    expect(rows[1]?.date).toBe(formatOpenF1Date(START + GREEN_OFFSET_MS / 20));
    for (const row of rows) expect(Date.parse(row.date)).toBeLessThanOrEqual(t);
    expect(info.sessionKey).toBe(FIRST_REPLAY_KEY);
  });

  test('a client asking for date> its last seen message gets only the newer ones', async () => {
    sim.control.replay({ fixture: DEMO_REPLAY_FIXTURE, startedAt: START, speed: 20 });
    t = START + 6 * 60_000;
    const first = await live();
    const lastSeen = first[first.length - 1]!.date;
    t += 60_000;
    const newer = await live(`&date>${encodeURIComponent(lastSeen)}`);
    const all = await live();
    expect(newer.length).toBeGreaterThan(0);
    expect([...first, ...newer]).toEqual(all);
  });

  test('the live session record starts at the configured time and lasts the recording', async () => {
    sim.control.replay({ fixture: DEMO_REPLAY_FIXTURE, startedMinutesAgo: 30 });
    const [session] = parseJson<SessionRow[]>(await rawGet(sim.url, '/v1/sessions?session_key=latest'));
    expect(session).toMatchObject({
      date_start: formatOpenF1Date(START - 30 * 60_000),
      date_end: formatOpenF1Date(START - 30 * 60_000 + SAUDI_LENGTH_MS),
      session_name: 'Race',
      session_type: 'Race',
      circuit_short_name: 'Jeddah',
      country_name: 'Saudi Arabia',
      location: 'Jeddah',
      gmt_offset: '03:00:00',
      year: 2026,
      is_cancelled: false,
    });
    const [meeting] = parseJson<Record<string, unknown>[]>(
      await rawGet(sim.url, '/v1/meetings?meeting_key=latest'),
    );
    expect(meeting).toMatchObject({ meeting_name: 'Saudi Arabian Grand Prix', year: 2026 });
  });

  test('positionMinutes starts the replay that far into the recording', async () => {
    sim.control.replay({
      fixture: DEMO_REPLAY_FIXTURE,
      positionMinutes: GREEN_OFFSET_MS / 60_000,
      speed: 20,
    });
    const rows = await live();
    expect(rows.map((r) => r.message)).toEqual([
      'AIR TEMPERATURE 2 HOURS BEFORE THE RACE =  29 DEGREES',
      'GREEN LIGHT - PIT EXIT OPEN',
    ]);
    expect(rows[1]?.date).toBe(formatOpenF1Date(START));
  });

  test('positionMinutes with speed 0 places the replay there, paused, until it is resumed', async () => {
    sim.control.replay({ fixture: DEMO_REPLAY_FIXTURE, positionMinutes: GREEN_OFFSET_MS / 60_000, speed: 0 });
    const paused = await live();
    expect(paused.map((r) => r.message)).toEqual([
      'AIR TEMPERATURE 2 HOURS BEFORE THE RACE =  29 DEGREES',
      'GREEN LIGHT - PIT EXIT OPEN',
    ]);
    t += 3_600_000;
    expect(await live()).toEqual(paused);
    expect(sim.control.replays()[0]?.positionMs).toBe(GREEN_OFFSET_MS);
  });

  test('at 20x the session ends twenty times sooner', () => {
    const info = sim.control.replay({ fixture: DEMO_REPLAY_FIXTURE, startedAt: START, speed: 20 });
    expect(info.dateEnd).toBe(formatOpenF1Date(START + Math.ceil(SAUDI_LENGTH_MS / 20)));
    expect(info.live).toBe(true);
  });

  test('changing the speed keeps the dates already shown and paces the rest anew', async () => {
    sim.control.replay({ fixture: DEMO_REPLAY_FIXTURE, startedAt: START, speed: 1 });
    t = START + GREEN_OFFSET_MS;
    const before = await live();
    sim.control.setSpeed(10);
    const nextOffset = Date.parse('2021-12-05T17:00:00Z') - Date.parse('2021-12-05T15:30:28Z');
    t = START + GREEN_OFFSET_MS + (nextOffset - GREEN_OFFSET_MS) / 10;
    const after = await live();
    expect(after.slice(0, before.length)).toEqual(before);
    expect(after[before.length]).toMatchObject({ message: 'PIT EXIT CLOSED', date: formatOpenF1Date(t) });
  });

  test('speed 0 pauses the replay', async () => {
    sim.control.replay({ fixture: DEMO_REPLAY_FIXTURE, startedAt: START, speed: 0 });
    t = START + 3 * 3_600_000;
    expect(await live()).toHaveLength(1);
  });

  test('the historical form stays under the original key beside the live copy', async () => {
    sim.control.replay({ fixture: DEMO_REPLAY_FIXTURE, startedAt: START });
    const original = parseJson<RaceControlRow[]>(await rawGet(sim.url, '/v1/race_control?session_key=6821'));
    expect(original).toHaveLength(98);
    expect(original[0]?.date).toBe('2021-12-05T15:30:28+00:00');
  });

  test('an unknown fixture is refused', () => {
    expect(() => sim.control.replay({ fixture: 'no-such-race' })).toThrow(/Unknown recording/);
  });
});

describe('HTTP control routes', () => {
  test('a person can start a replay, list fixtures and read the state over HTTP', async () => {
    const fixtures = (await (await fetch(`${sim.url}/_control/fixtures`)).json()) as { id: string }[];
    expect(fixtures.map((f) => f.id)).toContain(DEMO_REPLAY_FIXTURE);
    const res = await fetch(`${sim.url}/_control/replays`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ fixture: '2025-britain-race', startedMinutesAgo: 5, speed: 20 }),
    });
    expect(res.status).toBe(201);
    const state = (await (await fetch(`${sim.url}/_control`)).json()) as { replays: { fixture: string }[] };
    expect(state.replays.map((r) => r.fixture)).toEqual(['2025-britain-race']);
    const bad = await fetch(`${sim.url}/_control/replays`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ fixture: 'nope' }),
    });
    expect(bad.status).toBe(400);
  });

  test('control calls are not counted as upstream requests', async () => {
    await fetch(`${sim.url}/_control`);
    await rawGet(sim.url, '/v1/sessions?year=2024');
    expect(sim.control.requestCounts()).toEqual({ '/v1/sessions': 1 });
  });
});

describe('mounted on an app under a prefix', () => {
  test('serves /sims/openf1/v1/... and its control routes', async () => {
    const openf1 = await createOpenF1Sim({
      now: () => t,
      replays: [{ fixture: DEMO_REPLAY_FIXTURE, startedMinutesAgo: 0 }],
    });
    const app = Fastify();
    app.get('/api/health', async () => ({ ok: true }));
    await app.register(openf1.plugin, { prefix: '/sims/openf1' });
    try {
      const res = await app.inject({ url: '/sims/openf1/v1/race_control?session_key=latest' });
      expect(res.statusCode).toBe(200);
      expect(res.json<RaceControlRow[]>()[0]?.session_key).toBe(FIRST_REPLAY_KEY);
      expect((await app.inject({ url: '/sims/openf1/_control' })).statusCode).toBe(200);
      expect(openf1.control.requestCounts()).toEqual({ '/v1/race_control': 1 });
      expect((await app.inject({ url: '/api/health' })).json()).toEqual({ ok: true });
    } finally {
      await app.close();
    }
  });
});
