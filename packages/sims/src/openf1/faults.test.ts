import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { parseJson, rawGet } from '../../test/http.js';
import { startOpenF1Sim, type RunningOpenF1Sim } from './server.js';
import { RATE_LIMIT_ERROR, SESSION_LOCKED_DETAIL } from './sim.js';

let t = Date.parse('2026-09-06T12:00:00Z');
let sim: RunningOpenF1Sim;
const Q = '/v1/sessions?session_key=9535';

beforeEach(async () => {
  sim = await startOpenF1Sim({ now: () => t, mqttPort: null });
});
afterEach(async () => {
  await sim.close();
});

describe('OpenF1 misbehaving on demand', () => {
  test('rate-limit answers 429 with the open-source body, for as many calls as asked', async () => {
    sim.control.fault({ kind: 'rate-limit', times: 2 });
    for (let i = 0; i < 2; i += 1) {
      const res = await rawGet(sim.url, Q);
      expect(res.status).toBe(429);
      expect(parseJson(res)).toEqual({ error: RATE_LIMIT_ERROR });
    }
    expect((await rawGet(sim.url, Q)).status).toBe(200);
  });

  test('unauthorized answers 401 Session in progress', async () => {
    sim.control.fault({ kind: 'unauthorized', times: 1 });
    const res = await rawGet(sim.url, Q);
    expect(res.status).toBe(401);
    expect(parseJson<{ detail: string }>(res).detail).toBe(SESSION_LOCKED_DETAIL);
    expect(res.body.toLowerCase()).toContain('session in progress');
  });

  test('server-error answers 500 with an HTML page', async () => {
    sim.control.fault({ kind: 'server-error', times: 1 });
    const res = await rawGet(sim.url, Q);
    expect(res.status).toBe(500);
    expect(res.contentType).toContain('text/html');
    expect(res.body).toContain('<html>');
  });

  test('invalid-json answers 200 with a truncated JSON body', async () => {
    sim.control.fault({ kind: 'invalid-json', times: 1 });
    const res = await rawGet(sim.url, Q);
    expect(res.status).toBe(200);
    expect(res.contentType).toContain('application/json');
    expect(() => JSON.parse(res.body)).toThrow();
    expect(JSON.parse((await rawGet(sim.url, Q)).body)).toHaveLength(1);
  });

  test('slow holds the answer for the asked delay, then answers normally', async () => {
    sim.control.fault({ kind: 'slow', delayMs: 300, times: 1 });
    const started = performance.now();
    const res = await rawGet(sim.url, Q);
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
    expect(res.status).toBe(200);
  });

  test('a fault without times lasts until cleared', async () => {
    sim.control.fault({ kind: 'server-error' });
    for (let i = 0; i < 3; i += 1) expect((await rawGet(sim.url, Q)).status).toBe(500);
    sim.control.clearFaults();
    expect((await rawGet(sim.url, Q)).status).toBe(200);
  });

  test('a fault can target one path only', async () => {
    sim.control.fault({ kind: 'rate-limit', path: '/v1/race_control' });
    expect((await rawGet(sim.url, Q)).status).toBe(200);
    expect((await rawGet(sim.url, '/v1/race_control?session_key=9535')).status).toBe(429);
  });

  test('faults can be set over HTTP', async () => {
    const res = await fetch(`${sim.url}/_control/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ kind: 'rate-limit', times: 1 }),
    });
    expect(res.status).toBe(201);
    expect((await rawGet(sim.url, Q)).status).toBe(429);
    const bad = await fetch(`${sim.url}/_control/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ kind: 'meltdown' }),
    });
    expect(bad.status).toBe(400);
  });

  test('the built-in limiter allows 30 calls per 10 s per client', async () => {
    sim.control.setRateLimit({ max: 30, windowMs: 10_000 });
    for (let i = 0; i < 30; i += 1) expect((await rawGet(sim.url, Q)).status).toBe(200);
    expect((await rawGet(sim.url, Q)).status).toBe(429);
    t += 10_001;
    expect((await rawGet(sim.url, Q)).status).toBe(200);
  });
});

describe('request counter', () => {
  test('counts upstream calls per path, faulted ones included, and since an instant', async () => {
    const t0 = t;
    await rawGet(sim.url, Q);
    sim.control.fault({ kind: 'rate-limit', times: 1 });
    await rawGet(sim.url, '/v1/race_control?session_key=9535');
    t += 3000;
    await rawGet(sim.url, '/v1/race_control?session_key=9535');
    expect(sim.control.requestCounts()).toEqual({ '/v1/sessions': 1, '/v1/race_control': 2 });
    expect(sim.control.requestCount('/v1/race_control', t0 + 1)).toBe(1);
    expect(sim.control.requestLog()[1]).toMatchObject({
      path: '/v1/race_control',
      query: 'session_key=9535',
      at: t0,
    });
    sim.control.resetRequests();
    expect(sim.control.requestCount()).toBe(0);
  });
});
