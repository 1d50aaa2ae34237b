import { CurrentRaceResponseSchema } from '@flaglight/core';
import {
  startJolpicaSim,
  startOpenF1Sim,
  type RunningJolpicaSim,
  type RunningOpenF1Sim,
} from '@flaglight/sims';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { paced } from '../../../scripts/test-pace.mjs';
import { buildTestApp, type TestApp } from './helper.js';
import { readSse, signUp, type SseEvent } from './live-helpers.js';

let freshYear = 1950;

describe('OpenF1 proxy', () => {
  let sim: RunningOpenF1Sim;
  let t: TestApp;
  let auth: { authorization: string };
  beforeAll(async () => {
    sim = await startOpenF1Sim({
      mqttPort: null,
      replays: [{ fixture: '2021-saudi-arabia-race', positionMinutes: 80 }],
    });
    t = await buildTestApp({ env: { OPENF1_BASE_URL: sim.url } });
    auth = { authorization: `Bearer ${await signUp(t)}` };
  });
  afterAll(async () => {
    await t.close();
    await sim.close();
  });
  const get = (url: string) => t.app.inject({ url: `/api/openf1/proxy${url}`, headers: auth });

  test('answers the JSON of the allowed paths', async () => {
    expect((await get('/v1/sessions?year=2021')).json().length).toBeGreaterThan(0);
    expect((await get('/v1/sessions')).statusCode).toBe(200);
    const rc = await get('/v1/race_control?session_key=latest&date>2020-01-01T00:00:00Z');
    expect(rc.statusCode).toBe(200);
    expect((await get('/v1/location?session_key=latest&driver_number=44')).statusCode).toBe(200);
  });

  test('needs a signed-in user', async () => {
    expect((await t.app.inject({ url: '/api/openf1/proxy/v1/sessions' })).statusCode).toBe(401);
  });

  test.each([
    '/v1/car_data?session_key=1',
    '/v1/meetings',
    '/v2/sessions',
    '/v1/sessions/extra',
    '/v1/sessions?year=abc',
    '/v1/sessions?session_key=1;drop',
    '/v1/sessions?csv=true',
    '/v1/race_control',
    '/v1/race_control?session_key=1&date>yesterday',
    '/v1/race_control?session_key=1&date<2024-01-01',
    '/v1/sessions?%E0%A4%A=1',
    '/v1/sessions?year=2021&year=2022',
  ])('refuses %s with 400 and a clear error', async (url) => {
    const res = await get(url);
    expect(res.statusCode).toBe(400);
    expect(res.json().success).toBe(false);
    expect(res.json().error).toMatch(/\w/);
  });

  test.each([
    ['unauthorized', 502, 'Authentication expired. Please log in again.'],
    ['rate-limit', 429, 'Rate limited by OpenF1 API. Please wait before retrying.'],
    ['invalid-json', 502, 'Invalid JSON response from OpenF1 API'],
    ['server-error', 502, 'OpenF1 API request failed: 500 Internal Server Error'],
  ] as const)('maps the %s fault to SPEC §8', async (kind, status, message) => {
    sim.control.fault({ kind, times: 1 });
    // A year nobody asked for yet, so the answer is not cached.
    const res = await get(`/v1/sessions?year=${freshYear++}`);
    expect(res.statusCode).toBe(status);
    expect(res.json()).toMatchObject({ success: false, message });
  });

  test('identical concurrent requests share one upstream call, then the cache answers', async () => {
    sim.control.resetRequests();
    sim.control.fault({ kind: 'slow', delayMs: 300, times: 1, path: '/v1/sessions' });
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => get('/v1/sessions?session_key=latest')),
    );
    expect(answers.every((a) => a.statusCode === 200)).toBe(true);
    await get('/v1/sessions?session_key=latest');
    expect(sim.control.requestCount('/v1/sessions')).toBe(1);
  });
});

describe('OpenF1 proxy: one canonical question per cache entry', () => {
  let sim: RunningOpenF1Sim;
  let t: TestApp;
  let auth: { authorization: string };
  // A clock that stands still: the cache never expires during the test, so counts are exact.
  const frozen = Date.now();
  beforeAll(async () => {
    sim = await startOpenF1Sim({
      mqttPort: null,
      replays: [{ fixture: '2021-saudi-arabia-race', positionMinutes: 80 }],
    });
    t = await buildTestApp({ env: { OPENF1_BASE_URL: sim.url }, now: () => new Date(frozen) });
    auth = { authorization: `Bearer ${await signUp(t)}` };
  });
  afterAll(async () => {
    await t.close();
    await sim.close();
  });
  const get = (url: string) => t.app.inject({ url: `/api/openf1/proxy${url}`, headers: auth });

  async function expectOneUpstreamCall(path: string, spellings: string[]) {
    sim.control.resetRequests();
    const answers = [];
    for (const url of spellings) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(200);
      answers.push(res.body);
    }
    expect(new Set(answers).size).toBe(1);
    expect(sim.control.requestCount(path)).toBe(1);
    return sim.control.requestLog().find((r) => r.path === path)!.query;
  }

  test('the same parameters in another order, repeated, or spelled differently cost one upstream call', async () => {
    const sessions = await expectOneUpstreamCall('/v1/sessions', [
      '/v1/sessions?year=2021&session_key=latest',
      '/v1/sessions?session_key=latest&year=2021',
      '/v1/sessions?session_key=latest&year=2021&year=2021&session_key=latest',
      '/v1/sessions?session_key%3Dlatest&year%3D2021&',
      '/v1/sessions/?&year=2021&&session_key=latest',
    ]);
    // Forwarded in the endpoint's fixed order, each token encoded whole (reference §1.3).
    expect(sessions).toBe('session_key%3Dlatest&year%3D2021');

    const raceControl = await expectOneUpstreamCall('/v1/race_control', [
      '/v1/race_control?session_key=latest&date>2021-12-05T17:00:00Z',
      '/v1/race_control?date>2021-12-05T17:00:00Z&session_key=latest',
      '/v1/race_control?date%3E2021-12-05T17%3A00%3A00Z&session_key=latest',
      '/v1/race_control?session_key=latest&date>2021-12-05T20:00+03:00&session_key=latest',
      '/v1/race_control?session_key=latest&date>2021-12-05T17:00:00.000000Z',
      '/v1/race_control?session_key=latest&date>2021-12-05T17:00:00.000%2B00:00',
      '/v1/race_control?session_key=latest&date>2021-12-05T17:00',
    ]);
    expect(decodeURIComponent(raceControl)).toBe('session_key=latest&date>2021-12-05T17:00:00+00:00');

    const location = await expectOneUpstreamCall('/v1/location', [
      '/v1/location?session_key=latest&driver_number=44&driver_number=33&date>=2021-12-05T17:00:00Z&date<2021-12-05T17:00:05Z',
      '/v1/location?date<2021-12-05T17:00:05Z&driver_number=33&date>=2021-12-05T17:00:00Z&driver_number=44&session_key=latest',
      '/v1/location?driver_number=044&driver_number=33&driver_number=44&session_key=latest&date>=2021-12-05T17:00:00Z&date<2021-12-05T17:00:05Z',
    ]);
    expect(decodeURIComponent(location)).toBe(
      'session_key=latest&driver_number=33&driver_number=44&date>=2021-12-05T17:00:00+00:00&date<2021-12-05T17:00:05+00:00',
    );
  });

  test.each([
    ['/v1/sessions?session_key=latest&csv=true', 'csv'],
    ['/v1/sessions?session_key=latest&country_name=Monaco', 'country_name'],
    ['/v1/race_control?session_key=latest&category=Flag', 'category'],
    ['/v1/location?session_key=latest&x>0', '"x"'],
    ['/v1/car_data?session_key=latest', '/v1/car_data'],
    ['/v1/sessions?session_key=0', 'session_key'],
    ['/v1/sessions?meeting_key=next', 'meeting_key'],
    ['/v1/race_control?session_key=latest&date>2021-02-30T00:00:00Z', 'date'],
    ['/v1/race_control?session_key=latest&date>2021-12-05T25:00:00Z', 'date'],
    ['/v1/location?session_key=latest&date>2021-12-05&date>=2021-12-06', 'date'],
    [
      '/v1/location?session_key=1&driver_number=1&driver_number=2&driver_number=3&driver_number=4&driver_number=5',
      'driver_number',
    ],
  ])('refuses %s with 400 invalid_input naming %s, without an upstream call', async (url, named) => {
    sim.control.resetRequests();
    const res = await get(url);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ success: false, code: 'invalid_input' });
    expect(res.json().error).toContain(named);
    expect(sim.control.requestCounts()).toEqual({});
  });
});

describe('live stream', () => {
  let t: TestApp;
  let token: string;
  let origin: string;
  let skew = 0;
  beforeAll(async () => {
    t = await buildTestApp({ now: () => new Date(Date.now() + skew) });
    token = await signUp(t);
    origin = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => t.close());
  const ticket = async () =>
    (
      await t.app.inject({
        method: 'POST',
        url: '/api/live/ticket',
        headers: { authorization: `Bearer ${token}` },
      })
    ).json().ticket as string;

  async function open(query: string, headers: Record<string, string> = {}) {
    const controller = new AbortController();
    const res = await fetch(`${origin}/api/live/events?${query}`, { signal: controller.signal, headers });
    const events: SseEvent[] = [];
    if (res.ok) readSse(res.body!, (e) => events.push(e));
    return { res, events, close: () => controller.abort() };
  }

  test('centralized status is truthful: no follower until someone subscribes', async () => {
    const before = await t.app.inject({ url: '/api/sessions/centralized-status' });
    expect(before.json()).toEqual({ success: true, centralizedPollingEnabled: true, isPollingActive: false });
    const s = await open(`ticket=${await ticket()}`);
    await vi.waitFor(() => expect(s.events.some((e) => e.event === 'flag')).toBe(true), {
      timeout: paced(5_000),
    });
    const during = await t.app.inject({ url: '/api/sessions/centralized-status' });
    expect(during.json().isPollingActive).toBe(true);
    s.close();
  });

  test('the current state comes first, as a flag event with an id', async () => {
    const s = await open(`ticket=${await ticket()}`);
    expect(s.res.headers.get('content-type')).toMatch(/text\/event-stream/);
    await vi.waitFor(() => expect(s.events.some((e) => e.event === 'flag')).toBe(true), {
      timeout: paced(5_000),
    });
    const flag = s.events.find((e) => e.event === 'flag')!;
    expect(Number(flag.id)).toBeGreaterThan(0);
    expect(JSON.parse(flag.data!)).toMatchObject({
      sessionKey: expect.any(Number),
      state: expect.any(String),
    });
    // A resume from that id sends nothing again.
    const again = await open(`ticket=${await ticket()}`, { 'last-event-id': flag.id! });
    await new Promise((r) => setTimeout(r, 300));
    expect(again.events.filter((e) => e.event === 'flag')).toEqual([]);
    s.close();
    again.close();
  });

  test('a ticket works once and expires', async () => {
    const one = await ticket();
    const first = await open(`ticket=${one}`);
    expect(first.res.status).toBe(200);
    first.close();
    expect((await open(`ticket=${one}`)).res.status).toBe(401);
    const late = await ticket();
    skew += 31_000;
    expect((await open(`ticket=${late}`)).res.status).toBe(401);
    skew -= 31_000;
    expect((await open('ticket=made-up')).res.status).toBe(401);
    expect((await t.app.inject({ method: 'POST', url: '/api/live/ticket' })).statusCode).toBe(401);
  });

  test('the fallback state endpoint answers the same state', async () => {
    const res = await t.app.inject({ url: '/api/live/state', headers: { authorization: `Bearer ${token}` } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ success: true, sessionKey: expect.any(Number) });
  });

  test('a replay streams through the same hub', { timeout: paced(15_000) }, async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/replays',
      headers: { authorization: `Bearer ${token}` },
      payload: { id: '2021-saudi-arabia-race', speed: 20, startMinutes: 137 },
    });
    expect(res.statusCode).toBe(200);
    const { sessionKey } = res.json();
    const s = await open(`ticket=${await ticket()}&sessionKey=${sessionKey}`);
    await vi.waitFor(() => expect(s.events.filter((e) => e.event === 'flag').length).toBeGreaterThan(1), {
      timeout: paced(8_000),
    });
    expect(s.events.filter((e) => e.event === 'flag').map((e) => JSON.parse(e.data!).state)).toContain(
      'yellow',
    );
    s.close();
    const list = await t.app.inject({ url: '/api/replays' });
    expect(list.json().sessions.length).toBeGreaterThan(20);
  });
});

describe('live mode without a live session', () => {
  test("says 'No live session found'", async () => {
    const sim = await startOpenF1Sim({ mqttPort: null });
    const t = await buildTestApp({ env: { OPENF1_BASE_URL: sim.url } });
    const token = await signUp(t);
    const res = await t.app.inject({ url: '/api/live/state', headers: { authorization: `Bearer ${token}` } });
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toBe('No live session found');
    await t.close();
    await sim.close();
  });
});

describe('schedule', () => {
  let jolpica: RunningJolpicaSim;
  let t: TestApp;
  beforeAll(async () => {
    jolpica = await startJolpicaSim({ now: () => Date.parse('2026-06-01T00:00:00Z') });
    t = await buildTestApp({
      env: { JOLPICA_BASE_URL: jolpica.url },
      now: () => new Date('2026-06-01T00:00:00Z'),
    });
  });
  afterAll(async () => {
    await t.close();
    await jolpica.close();
  });

  test('serves Jolpica, cached', async () => {
    const res = await t.app.inject({ url: '/api/f1/schedule' });
    expect(res.json()).toMatchObject({ success: true, fallback: false, season: '2026' });
    await t.app.inject({ url: '/api/f1/schedule' });
    expect(jolpica.control.requestCount()).toBe(1);
    const current = await t.app.inject({ url: '/api/f1/current' });
    expect(CurrentRaceResponseSchema.safeParse(current.json()).success).toBe(true);
  });

  test("falls back to the bundled calendar with 'Using fallback data'", async () => {
    const other = await startJolpicaSim();
    other.control.fault({ kind: 'server-error' });
    const u = await buildTestApp({ env: { JOLPICA_BASE_URL: other.url } });
    const res = await u.app.inject({ url: '/api/f1/schedule' });
    expect(res.json()).toMatchObject({ success: true, fallback: true, message: 'Using fallback data' });
    expect(res.json().races.length).toBeGreaterThan(20);
    await u.close();
    await other.close();
  });
});

describe('garbage on every new route', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await buildTestApp();
    token = await signUp(t);
  });
  afterAll(() => t.close());
  const routes = [
    ['GET', '/api/openf1/proxy/'],
    ['GET', '/api/live/events?'],
    ['GET', '/api/live/state?'],
    ['POST', '/api/live/ticket?'],
    ['GET', '/api/f1/current?'],
    ['GET', '/api/f1/schedule?'],
    ['GET', '/api/sessions/centralized-status?'],
    ['GET', '/api/replays?'],
    ['POST', '/api/replays?'],
  ] as const;

  test('arbitrary paths, queries and bodies give 4xx, never 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...routes),
        fc.string({ maxLength: 80 }),
        fc.oneof(fc.jsonValue(), fc.string()),
        fc.boolean(),
        async ([method, url], tail, body, signedIn) => {
          const res = await t.app.inject({
            method,
            url: url + encodeURI(tail).replace(/#/g, '%23'),
            headers: {
              'content-type': 'application/json',
              ...(signedIn ? { authorization: `Bearer ${token}` } : {}),
            },
            payload: method === 'POST' ? JSON.stringify(body) : undefined,
          });
          // The stream answers 200 only with a valid ticket, which garbage never is.
          expect(res.statusCode, `${method} ${url}${tail}`).toBeLessThan(500);
        },
      ),
      { numRuns: 300 },
    );
  });
});
