import { type RaceControlRow } from '@flaglight/data';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { parseJson, rawGet } from '../../test/http.js';
import { type SessionRow } from './catalog.js';
import { startOpenF1Sim, type RunningOpenF1Sim } from './server.js';
import { SESSION_LOCKED_DETAIL } from './sim.js';

let t = 0;
let sim: RunningOpenF1Sim;

beforeEach(async () => {
  t = Date.parse('2026-09-06T12:00:00Z');
  sim = await startOpenF1Sim({ now: () => t, mqttPort: null });
});
afterEach(async () => {
  await sim.close();
});

async function rows<T = Record<string, unknown>>(pathAndQuery: string): Promise<T[]> {
  const res = await rawGet(sim.url, pathAndQuery);
  if (res.status === 404) return [];
  expect(res.status, res.body).toBe(200);
  return parseJson<T[]>(res);
}

const SPAIN_Q = 'session_key=9535';

describe('OpenF1 filter syntax over HTTP', () => {
  test('field=value narrows the list, and fields combine with AND', async () => {
    const races = await rows<SessionRow>('/v1/sessions?year=2021&session_name=Race');
    expect(races.map((s) => s.session_key).sort()).toEqual([6254, 6821]);
    expect(races.every((s) => s.session_type === 'Race' && s.year === 2021)).toBe(true);
  });

  test('> and < written literally compare dates as instants', async () => {
    const got = await rows<RaceControlRow>(
      `/v1/race_control?${SPAIN_Q}&date>2024-06-22T14:40:00&date<2024-06-22T14:59:19`,
    );
    expect(got.map((m) => m.date)).toEqual([
      '2024-06-22T14:40:12+00:00',
      '2024-06-22T14:48:01+00:00',
      '2024-06-22T14:51:13+00:00',
      '2024-06-22T14:52:38+00:00',
      '2024-06-22T14:59:16+00:00',
    ]);
  });

  test('>= and <= include their bounds', async () => {
    const got = await rows<RaceControlRow>(
      `/v1/race_control?${SPAIN_Q}&date>=2024-06-22T14:40:00&date<=2024-06-22T14:59:19`,
    );
    expect(got).toHaveLength(7);
    expect(got[0]?.message).toBe('CHEQUERED FLAG');
    expect(got[6]?.message).toBe('CLEAR IN TRACK SECTOR 14');
  });

  test('a whole token percent-encoded means the same as the literal one', async () => {
    const literal = await rows(`/v1/race_control?${SPAIN_Q}&date>=2024-06-22T14:40:00`);
    const encoded = await rows(`/v1/race_control?${SPAIN_Q}&date%3E%3D2024-06-22T14%3A40%3A00`);
    const viaFetch = (await (
      await fetch(`${sim.url}/v1/race_control?${SPAIN_Q}&date>=2024-06-22T14:40:00`)
    ).json()) as unknown[];
    expect(literal).toHaveLength(11);
    expect(encoded).toEqual(literal);
    expect(viaFetch).toEqual(literal);
  });

  test('a time zone counts, also when its + arrives unencoded as a space', async () => {
    const utc = await rows(`/v1/race_control?${SPAIN_Q}&date>2024-06-22T14:40:00+00:00`);
    const cest = await rows(`/v1/race_control?${SPAIN_Q}&date>2024-06-22T16:40:00%2B02:00`);
    expect(utc).toHaveLength(10);
    expect(cest).toEqual(utc);
  });

  test('a repeated field ORs its values', async () => {
    const got = await rows<RaceControlRow>(`/v1/race_control?${SPAIN_Q}&flag=CHEQUERED&flag=GREEN`);
    expect(got.map((m) => m.flag)).toEqual([
      'GREEN',
      'CHEQUERED',
      'GREEN',
      'CHEQUERED',
      'GREEN',
      'CHEQUERED',
    ]);
  });

  test('several ranges on one field pair into intervals that are ORed', async () => {
    const got = await rows<SessionRow>(
      '/v1/sessions?session_key>=5000&session_key<=5600&session_key>=11000&session_key<=11300',
    );
    expect(got.map((s) => s.session_key).sort((a, b) => a - b)).toEqual([5090, 5502, 11245]);
  });

  test('a date without a time covers the whole UTC day', async () => {
    expect(await rows(`/v1/race_control?${SPAIN_Q}&date=2024-06-22`)).toHaveLength(19);
    expect(await rows(`/v1/race_control?${SPAIN_Q}&date>2024-06-21`)).toHaveLength(19);
    expect(await rows(`/v1/race_control?${SPAIN_Q}&date>2024-06-22`)).toHaveLength(0);
    expect(await rows(`/v1/race_control?${SPAIN_Q}&date<=2024-06-22`)).toHaveLength(19);
    expect(await rows(`/v1/race_control?${SPAIN_Q}&date<2024-06-22`)).toHaveLength(0);
    const sessions = await rows<SessionRow>('/v1/sessions?date_start=2024-06-22');
    expect(sessions.map((s) => s.session_key)).toEqual([9535]);
  });

  test('no matching rows answer 404 No results found', async () => {
    const res = await rawGet(sim.url, '/v1/sessions?year=1950');
    expect(res.status).toBe(404);
    expect(parseJson(res)).toEqual({ detail: 'No results found.' });
  });

  test('a token without an operator or an unknown endpoint is refused, not a crash', async () => {
    expect((await rawGet(sim.url, '/v1/sessions?year')).status).toBe(422);
    expect((await rawGet(sim.url, '/v1/car_data?session_key=9535')).status).toBe(404);
  });

  test('race_control keeps the recorded order even where a date goes backwards', async () => {
    const got = await rows<RaceControlRow>('/v1/race_control?session_key=5502');
    expect(got).toHaveLength(40);
    expect(got[37]?.date).toBe('2019-09-07T14:25:12+00:00');
    expect(got[38]?.date).toBe('2019-09-07T14:23:40+00:00');
  });

  test('qualifying rows carry the part they belong to', async () => {
    const got = await rows<RaceControlRow>(`/v1/race_control?${SPAIN_Q}&category=Flag&flag=CHEQUERED`);
    expect(got.map((m) => m.qualifying_phase)).toEqual([1, 2, 3]);
  });

  test('csv=true answers text/csv with sorted columns', async () => {
    const res = await rawGet(sim.url, '/v1/sessions?session_key=9535&csv=true');
    expect(res.contentType).toContain('text/csv');
    expect(res.body.split('\n')[0]).toBe(
      'circuit_key,circuit_short_name,country_code,country_key,country_name,date_end,date_start,gmt_offset,is_cancelled,location,meeting_key,session_key,session_name,session_type,year',
    );
  });
});

describe('historical sessions', () => {
  test('every bundled session is listed under its original key and dates', async () => {
    const [saudi] = await rows<SessionRow>('/v1/sessions?session_key=6821');
    expect(saudi).toMatchObject({
      circuit_short_name: 'Jeddah',
      country_name: 'Saudi Arabia',
      country_code: 'KSA',
      location: 'Jeddah',
      date_start: '2021-12-05T17:30:00+00:00',
      date_end: '2021-12-05T19:30:00+00:00',
      gmt_offset: '03:00:00',
      is_cancelled: false,
      meeting_key: 1106,
      session_name: 'Race',
      session_type: 'Race',
      year: 2021,
    });
    const messages = await rows<RaceControlRow>('/v1/race_control?session_key=6821');
    expect(messages).toHaveLength(98);
    expect(messages[0]?.date).toBe('2021-12-05T15:30:28+00:00');
  });

  test('meetings are listed with names and circuit details', async () => {
    const [meeting] = await rows('/v1/meetings?meeting_key=1238');
    expect(meeting).toMatchObject({
      meeting_name: 'Spanish Grand Prix',
      circuit_short_name: 'Catalunya',
      circuit_type: 'Permanent',
      country_name: 'Spain',
      year: 2024,
      is_cancelled: false,
    });
  });

  test('the 2023 Sprint Shootout is listed as OpenF1 names it today', async () => {
    const [s] = await rows<SessionRow>('/v1/sessions?session_key=9278');
    expect(s).toMatchObject({ session_name: 'Sprint Qualifying', session_type: 'Qualifying' });
  });

  test('location needs a session filter and gives a few points per car', async () => {
    expect((await rawGet(sim.url, '/v1/location?driver_number=1')).status).toBe(422);
    const points = await rows('/v1/location?session_key=9535&driver_number=14');
    expect(points.length).toBeGreaterThanOrEqual(3);
    expect(Object.keys(points[0] ?? {}).sort()).toEqual([
      'date',
      'driver_number',
      'meeting_key',
      'session_key',
      'x',
      'y',
      'z',
    ]);
  });
});

describe('session_key=latest', () => {
  test('without a replay it is the most recent bundled session', async () => {
    const [s] = await rows<SessionRow>('/v1/sessions?session_key=latest');
    expect(s?.session_key).toBe(11245);
  });

  test('it switches to a session 60 s before its start, not earlier', async () => {
    const soon = sim.control.replay({ fixture: '2025-britain-race', startedAt: t + 2 * 60_000 });
    expect((await rows<SessionRow>('/v1/sessions?session_key=latest'))[0]?.session_key).toBe(11245);
    t += 61_000;
    expect((await rows<SessionRow>('/v1/sessions?session_key=latest'))[0]?.session_key).toBe(soon.sessionKey);
    const meetings = await rows('/v1/meetings?meeting_key=latest');
    expect(meetings.map((m) => m.meeting_key)).toEqual([soon.meetingKey]);
  });
});

describe('token and the live lock', () => {
  async function postToken(body: string): Promise<Response> {
    return fetch(`${sim.url}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body,
    });
  }

  test('POST /token exchanges form credentials for a bearer token; expires_in is a string', async () => {
    const res = await postToken('username=flaglight&password=flaglight');
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ expires_in: '3600', token_type: 'bearer' });
    expect(typeof body.access_token).toBe('string');
  });

  test('bad credentials get 401 and missing ones 422', async () => {
    expect((await postToken('username=flaglight&password=wrong')).status).toBe(401);
    expect((await postToken('username=flaglight')).status).toBe(422);
  });

  test('while a session is locked, calls without a token get 401 Session in progress', async () => {
    sim.control.requireToken(true);
    const res = await rawGet(sim.url, '/v1/sessions?session_key=latest');
    expect(res.status).toBe(401);
    expect(parseJson(res)).toEqual({ detail: SESSION_LOCKED_DETAIL });
    const token = (
      (await (await postToken('username=flaglight&password=flaglight')).json()) as { access_token: string }
    ).access_token;
    const ok = await rawGet(sim.url, '/v1/sessions?session_key=latest', { authorization: `Bearer ${token}` });
    expect(ok.status).toBe(200);
  });

  test('a token stops working after its hour', async () => {
    sim.control.requireToken(true);
    const token = sim.control.issueToken();
    const auth = { authorization: `Bearer ${token}` };
    expect((await rawGet(sim.url, '/v1/sessions?year=2024', auth)).status).toBe(200);
    t += 3600_000;
    expect((await rawGet(sim.url, '/v1/sessions?year=2024', auth)).status).toBe(401);
  });
});
