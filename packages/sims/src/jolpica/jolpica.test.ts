import { type ErgastRace, loadCalendar2026, raceStart } from '@flaglight/data';
import Fastify from 'fastify';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import {
  createJolpicaSim,
  JOLPICA_THROTTLED_DETAIL,
  type RunningJolpicaSim,
  startJolpicaSim,
} from './sim.js';

interface MRData {
  MRData: {
    xmlns: string;
    series: string;
    url: string;
    limit: string;
    offset: string;
    total: string;
    RaceTable: { season: string; round?: string; Races: ErgastRace[] };
  };
}

let t = Date.parse('2026-09-06T10:00:00Z');
let sim: RunningJolpicaSim;

beforeEach(async () => {
  t = Date.parse('2026-09-06T10:00:00Z');
  sim = await startJolpicaSim({ now: () => t });
});
afterEach(async () => {
  await sim.close();
});

async function get(path: string): Promise<MRData> {
  const res = await fetch(`${sim.url}${path}`);
  expect(res.status).toBe(200);
  return (await res.json()) as MRData;
}

function everyLeafIsAString(value: unknown): boolean {
  if (typeof value === 'string') return true;
  if (Array.isArray(value)) return value.every(everyLeafIsAString);
  if (value && typeof value === 'object') return Object.values(value).every(everyLeafIsAString);
  return false;
}

describe('bundled 2026 calendar', () => {
  const races = loadCalendar2026().Races;

  test('has the 23 rounds of reference §5.2 in order, with every value a string', () => {
    expect(races.map((r) => r.round)).toEqual(Array.from({ length: 23 }, (_, i) => String(i + 1)));
    expect(everyLeafIsAString(races)).toBe(true);
    expect(races.map((r) => r.raceName)).not.toContain('Saudi Arabian Grand Prix');
    expect(races[15]).toMatchObject({
      raceName: 'Bahrain Grand Prix in Malaysia',
      date: '2026-10-04',
      time: '07:00:00Z',
    });
  });

  test('sprint weekends carry SprintQualifying and Sprint instead of second and third practice', () => {
    const sprints = races.filter((r) => r.Sprint).map((r) => r.Circuit.Location.country);
    expect(sprints).toEqual(['China', 'USA', 'Canada', 'UK', 'Netherlands', 'Singapore']);
    for (const r of races) {
      const sprint = Boolean(r.Sprint);
      expect(Boolean(r.SprintQualifying)).toBe(sprint);
      expect(Boolean(r.SecondPractice) || Boolean(r.ThirdPractice)).toBe(!sprint);
    }
  });

  test('every session is in UTC and comes before the next one', () => {
    for (const r of races) {
      const sessions = [
        r.FirstPractice,
        r.SecondPractice ?? r.SprintQualifying,
        r.ThirdPractice ?? r.Sprint,
        r.Qualifying,
      ];
      const times = sessions.map((s) => Date.parse(`${s!.date}T${s!.time}`));
      for (const s of sessions) expect(s!.time).toMatch(/^\d{2}:\d{2}:00Z$/);
      expect([...times, raceStart(r)]).toEqual([...times, raceStart(r)].sort((a, b) => a - b));
    }
  });

  test('keeps the corrections the reference records', () => {
    const miami = races.find((r) => r.Circuit.circuitId === 'miami')!;
    expect([miami.date, miami.time, miami.FirstPractice?.time]).toEqual([
      '2026-05-03',
      '17:00:00Z',
      '16:00:00Z',
    ]);
    const singapore = races.find((r) => r.Circuit.circuitId === 'marina_bay')!;
    expect(singapore.FirstPractice).toEqual({ date: '2026-10-09', time: '09:30:00Z' });
    const baku = races.find((r) => r.Circuit.circuitId === 'baku')!;
    expect([baku.date, baku.time]).toEqual(['2026-09-26', '11:00:00Z']);
  });
});

describe('Jolpica simulator', () => {
  test('current.json and {year}.json answer the MRData season schedule', async () => {
    const current = await get('/ergast/f1/current.json');
    expect(current.MRData).toMatchObject({ xmlns: '', series: 'f1', limit: '30', offset: '0', total: '23' });
    expect(current.MRData.url).toBe('http://api.jolpi.ca/ergast/f1/current.json');
    expect(current.MRData.RaceTable.season).toBe('2026');
    expect(current.MRData.RaceTable.Races).toHaveLength(23);
    expect((await get('/ergast/f1/2026.json')).MRData.RaceTable.Races).toEqual(
      current.MRData.RaceTable.Races,
    );
  });

  test('/{year}/races/ and /{year}/races.json are the same schedule', async () => {
    const a = await get('/ergast/f1/2026/races/');
    const b = await get('/ergast/f1/2026/races.json');
    expect(a.MRData.RaceTable.Races).toHaveLength(23);
    expect(b.MRData.RaceTable).toEqual(a.MRData.RaceTable);
  });

  test('current/next.json is the next race not yet run', async () => {
    const next = await get('/ergast/f1/current/next.json');
    expect(next.MRData.total).toBe('1');
    expect(next.MRData.RaceTable.round).toBe('13');
    expect(next.MRData.RaceTable.Races[0]?.raceName).toBe('Italian Grand Prix');
    t = Date.parse('2026-12-07T00:00:00Z');
    expect((await get('/ergast/f1/current/next.json')).MRData.RaceTable.Races).toEqual([]);
  });

  test('one round by number or last', async () => {
    expect((await get('/ergast/f1/2026/5.json')).MRData.RaceTable.Races[0]?.raceName).toBe(
      'Canadian Grand Prix',
    );
    expect((await get('/ergast/f1/current/last.json')).MRData.RaceTable.Races[0]?.round).toBe('12');
  });

  test('limit and offset page the schedule', async () => {
    const page = await get('/ergast/f1/2026.json?limit=5&offset=20');
    expect(page.MRData).toMatchObject({ limit: '5', offset: '20', total: '23' });
    expect(page.MRData.RaceTable.Races.map((r) => r.round)).toEqual(['21', '22', '23']);
  });

  test('a season it does not hold is empty, an unknown path is 404', async () => {
    expect((await get('/ergast/f1/2025.json')).MRData).toMatchObject({
      total: '0',
      RaceTable: { season: '2025', Races: [] },
    });
    expect((await fetch(`${sim.url}/ergast/f1/drivers/foo.json`)).status).toBe(404);
  });

  test('faults: 429 throttled, 500 HTML, and a slow answer', async () => {
    sim.control.fault({ kind: 'rate-limit', times: 1 });
    const throttled = await fetch(`${sim.url}/ergast/f1/current.json`);
    expect(throttled.status).toBe(429);
    expect(await throttled.json()).toEqual({ detail: JOLPICA_THROTTLED_DETAIL });

    sim.control.fault({ kind: 'server-error', times: 1 });
    const broken = await fetch(`${sim.url}/ergast/f1/current.json`);
    expect(broken.status).toBe(500);
    expect(broken.headers.get('content-type')).toContain('text/html');

    sim.control.fault({ kind: 'slow', delayMs: 300, times: 1 });
    const started = performance.now();
    const slow = await fetch(`${sim.url}/ergast/f1/current.json`);
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
    expect(slow.status).toBe(200);
  });

  test('a client with a timeout gives up on a slow answer', async () => {
    sim.control.fault({ kind: 'slow', delayMs: 1000, times: 1 });
    await expect(
      fetch(`${sim.url}/ergast/f1/current.json`, { signal: AbortSignal.timeout(100) }),
    ).rejects.toThrow();
  });

  test('counts requests per path and takes faults over HTTP', async () => {
    const res = await fetch(`${sim.url}/_control/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ kind: 'rate-limit', times: 1 }),
    });
    expect(res.status).toBe(201);
    expect((await fetch(`${sim.url}/ergast/f1/current.json`)).status).toBe(429);
    await get('/ergast/f1/current.json');
    expect(sim.control.requestCounts()).toEqual({ '/ergast/f1/current.json': 2 });
  });
});

describe('mounted on an app', () => {
  test('serves /sims/jolpica/ergast/f1/current.json', async () => {
    const jolpica = createJolpicaSim({ now: () => t });
    const app = Fastify();
    await app.register(jolpica.plugin, { prefix: '/sims/jolpica' });
    try {
      const res = await app.inject({ url: '/sims/jolpica/ergast/f1/current.json' });
      expect(res.statusCode).toBe(200);
      expect(res.json<MRData>().MRData.url).toBe('http://api.jolpi.ca/ergast/f1/current.json');
      expect(jolpica.control.requestCounts()).toEqual({ '/ergast/f1/current.json': 1 });
    } finally {
      await app.close();
    }
  });
});
