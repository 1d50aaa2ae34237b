import { REQUEST_MAX_RETRIES, REQUEST_TIMEOUT_MS } from '@flaglight/core';
import { startJolpicaSim, type RunningJolpicaSim } from '@flaglight/sims';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { createJolpicaClient } from '../src/schedule/client.js';
import {
  createScheduleService,
  FALLBACK_MESSAGE,
  SCHEDULE_FAILURE_TTL_MS,
  SCHEDULE_TTL_MS,
} from '../src/schedule/service.js';

const T0 = Date.parse('2026-06-01T00:00:00Z');
const SEASON = '/ergast/f1/current.json';

describe('Jolpica client and schedule service against the simulator', () => {
  let sim: RunningJolpicaSim;
  let now = T0;
  beforeAll(async () => {
    sim = await startJolpicaSim({ now: () => now });
  });
  afterAll(() => sim.close());
  beforeEach(() => {
    now = T0;
    sim.control.clearFaults();
    sim.control.resetRequests();
  });
  /**
   * A short time-out keeps the test quick (the default is SPEC's 10 s), yet long enough that a loaded
   * CI machine answers the good try in time; the slow answers take 2 s.
   */
  const client = () => createJolpicaClient({ baseUrl: sim.url, timeoutMs: 400 });

  test('defaults: 10 s time-out, 3 retries', () => {
    expect(REQUEST_TIMEOUT_MS).toBe(10_000);
    expect(REQUEST_MAX_RETRIES).toBe(3);
  });

  test('retries a time-out, up to 3 times', async () => {
    sim.control.fault({ kind: 'slow', delayMs: 2_000, times: 3 });
    const result = await client().currentSeason();
    expect(result.ok && result.races.length).toBeGreaterThan(20);
    expect(sim.control.requestCount(SEASON)).toBe(4);
  });

  test('after 4 time-outs it gives up, and the service serves the bundled calendar', async () => {
    sim.control.fault({ kind: 'slow', delayMs: 2_000, times: 4 });
    expect(await client().currentSeason()).toEqual({ ok: false, error: 'Jolpica timed out' });
    expect(sim.control.requestCount(SEASON)).toBe(4);
    sim.control.fault({ kind: 'slow', delayMs: 2_000, times: 4 });
    const schedule = await createScheduleService({ client: client(), now: () => now }).schedule();
    expect(schedule).toMatchObject({ fallback: true, message: FALLBACK_MESSAGE, season: '2026' });
    expect(FALLBACK_MESSAGE).toBe('Using fallback data');
    expect(schedule.races.length).toBeGreaterThan(20);
  });

  test.each(['server-error', 'rate-limit', 'invalid-json', 'unauthorized'] as const)(
    'a %s is not retried; the fallback answers',
    async (kind) => {
      sim.control.fault({ kind, times: 1 });
      const service = createScheduleService({ client: client(), now: () => now });
      expect(await service.schedule()).toMatchObject({ fallback: true, message: 'Using fallback data' });
      expect(sim.control.requestCount(SEASON)).toBe(1);
    },
  );

  test('a good schedule is cached an hour; concurrent callers share one call', async () => {
    const service = createScheduleService({ client: client(), now: () => now });
    const answers = await Promise.all(Array.from({ length: 10 }, () => service.schedule()));
    expect(answers.every((a) => !a.fallback && a.season === '2026')).toBe(true);
    expect(sim.control.requestCount(SEASON)).toBe(1);
    now = T0 + SCHEDULE_TTL_MS - 1;
    await service.schedule();
    expect(sim.control.requestCount(SEASON)).toBe(1);
    now = T0 + SCHEDULE_TTL_MS + 1;
    await service.schedule();
    expect(sim.control.requestCount(SEASON)).toBe(2);
  });

  test('after a failure Jolpica is asked again after a minute, and the real schedule returns', async () => {
    sim.control.fault({ kind: 'server-error', times: 1 });
    const service = createScheduleService({ client: client(), now: () => now });
    expect((await service.schedule()).fallback).toBe(true);
    now = T0 + SCHEDULE_FAILURE_TTL_MS - 1;
    expect((await service.schedule()).fallback).toBe(true);
    expect(sim.control.requestCount(SEASON)).toBe(1);
    now = T0 + SCHEDULE_FAILURE_TTL_MS + 1;
    const back = await service.schedule();
    expect(back.fallback).toBe(false);
    expect(back.message).toBeUndefined();
    expect(sim.control.requestCount(SEASON)).toBe(2);
  });
});
