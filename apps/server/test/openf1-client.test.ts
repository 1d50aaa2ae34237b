import { REQUEST_TIMEOUT_MS, TOKEN_CACHE_MARGIN_MS } from '@flaglight/core';
import { DEMO_REPLAY_FIXTURE, startOpenF1Sim, type RunningOpenF1Sim } from '@flaglight/sims';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { createOpenF1Client } from '../src/openf1/client.js';

const T0 = Date.parse('2026-09-06T13:00:00Z');

describe('OpenF1 client against the simulator', () => {
  let sim: RunningOpenF1Sim;
  let now = T0;
  beforeAll(async () => {
    sim = await startOpenF1Sim({
      now: () => now,
      mqttPort: null,
      replays: [{ fixture: DEMO_REPLAY_FIXTURE, positionMinutes: 80 }],
    });
  });
  afterAll(() => sim.close());
  beforeEach(() => {
    now = T0;
    sim.control.clearFaults();
    sim.control.requireToken(false);
    sim.control.resetRequests();
  });

  const PATH = '/v1/race_control?session_key=latest';

  test('gives up after its time-out (10 s by default) with SPEC §8 text, and recovers', async () => {
    expect(REQUEST_TIMEOUT_MS).toBe(10_000);
    const client = createOpenF1Client({ baseUrl: sim.url, timeoutMs: 150 });
    sim.control.fault({ kind: 'slow', delayMs: 1_500, times: 1 });
    expect(await client.get(PATH)).toEqual({
      ok: false,
      kind: 'timeout',
      status: 0,
      message: 'OpenF1 API request failed: request timed out',
    });
    const again = await client.get<unknown[]>(PATH);
    expect(again.ok && again.data.length).toBeGreaterThan(0);
    // A slow answer inside the time-out is an answer.
    sim.control.fault({ kind: 'slow', delayMs: 50, times: 1 });
    expect((await client.get(PATH)).ok).toBe(true);
  });

  test.each([
    ['unauthorized', 'unauthorized', 401, 'Authentication expired. Please log in again.'],
    ['rate-limit', 'rate-limited', 429, 'Rate limited by OpenF1 API. Please wait before retrying.'],
    ['invalid-json', 'invalid-json', 200, 'Invalid JSON response from OpenF1 API'],
    ['server-error', 'server-error', 500, 'OpenF1 API request failed: 500 Internal Server Error'],
  ] as const)('maps the %s fault to kind %s and SPEC §8 text', async (fault, kind, status, message) => {
    const client = createOpenF1Client({ baseUrl: sim.url });
    sim.control.fault({ kind: fault, times: 1 });
    expect(await client.get(PATH)).toEqual({ ok: false, kind, status, message });
    expect((await client.get(PATH)).ok).toBe(true);
  });

  test("without credentials a live session answers 401 'Session in progress…'", async () => {
    sim.control.requireToken(true);
    const raw = await fetch(`${sim.url}${PATH}`);
    expect(raw.status).toBe(401);
    expect(((await raw.json()) as { detail: string }).detail).toMatch(/^Session in progress/);
    const client = createOpenF1Client({ baseUrl: sim.url });
    expect(await client.get(PATH)).toMatchObject({ ok: false, kind: 'unauthorized' });
    expect(await client.accessToken()).toBeNull();
  });

  test('with credentials: one token, kept until 5 minutes before it expires, then renewed', async () => {
    sim.control.requireToken(true);
    const client = createOpenF1Client({
      baseUrl: sim.url,
      username: 'flaglight',
      password: 'flaglight',
      now: () => now,
    });
    const answers = await Promise.all(Array.from({ length: 5 }, () => client.get(PATH)));
    expect(answers.every((a) => a.ok)).toBe(true);
    expect(sim.control.requestCount('/token')).toBe(1);
    // The sim's tokens live an hour: still cached just before the margin…
    now = T0 + 3_600_000 - TOKEN_CACHE_MARGIN_MS - 1_000;
    expect((await client.get(PATH)).ok).toBe(true);
    expect(sim.control.requestCount('/token')).toBe(1);
    // …and renewed inside it, before OpenF1 would refuse it.
    now = T0 + 3_600_000 - TOKEN_CACHE_MARGIN_MS + 1_000;
    expect((await client.get(PATH)).ok).toBe(true);
    expect(sim.control.requestCount('/token')).toBe(2);
  });

  test('a token revoked early is replaced once, at once', async () => {
    sim.control.requireToken(true);
    const client = createOpenF1Client({
      baseUrl: sim.url,
      username: 'flaglight',
      password: 'flaglight',
      now: () => now,
    });
    expect((await client.get(PATH)).ok).toBe(true);
    sim.control.expireTokens();
    expect((await client.get(PATH)).ok).toBe(true);
    expect(sim.control.requestCount('/token')).toBe(2);
  });

  test('wrong credentials: no token, and the 401 is reported, not retried forever', async () => {
    sim.control.requireToken(true);
    const client = createOpenF1Client({ baseUrl: sim.url, username: 'flaglight', password: 'nope' });
    expect(await client.get(PATH)).toMatchObject({ ok: false, kind: 'unauthorized' });
    expect(sim.control.requestCount('/v1/race_control')).toBe(1);
  });

  test("OpenF1's 404 'No results found.' is an empty list; a rejected query is a bad request", async () => {
    const client = createOpenF1Client({ baseUrl: sim.url });
    expect(await client.get('/v1/race_control?session_key=1')).toEqual({ ok: true, data: [] });
    expect(await client.get('/v1/race_control?date>2026-13-45')).toMatchObject({
      ok: false,
      kind: 'bad-request',
      status: 422,
    });
  });
});
