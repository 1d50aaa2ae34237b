import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { HOUR_MS, MINUTE_MS } from '../constants.js';
import {
  clearSessionOverride,
  formatCountdown,
  getCountdown,
  getNextSessionStart,
  isSessionLive,
  isWithinConnectWindow,
  setSessionOverride,
  toEpochMs,
} from './activity.js';

const START = Date.parse('2025-07-06T14:00:00Z');

describe('isSessionLive', () => {
  test('is live from its start to 180 minutes later', () => {
    expect(isSessionLive(START, { now: START - 1 })).toBe(false);
    expect(isSessionLive(START, { now: START })).toBe(true);
    expect(isSessionLive(START, { now: START + 179 * MINUTE_MS })).toBe(true);
    expect(isSessionLive(START, { now: START + 180 * MINUTE_MS })).toBe(false);
  });

  test('accepts Dates as well as epoch ms', () => {
    expect(isSessionLive(new Date(START), { now: new Date(START + MINUTE_MS) })).toBe(true);
    expect(toEpochMs(new Date(START))).toBe(START);
  });

  test('is always active while the override is set, and not after it is cleared', () => {
    expect(isSessionLive(START, { now: START - 10 * HOUR_MS, override: setSessionOverride() })).toBe(true);
    expect(isSessionLive(START, { now: START - 10 * HOUR_MS, override: clearSessionOverride() })).toBe(false);
  });
});

describe('isWithinConnectWindow', () => {
  test('opens 5 minutes before the start and closes 4 hours after', () => {
    expect(isWithinConnectWindow(START, { now: START - 5 * MINUTE_MS - 1 })).toBe(false);
    expect(isWithinConnectWindow(START, { now: START - 5 * MINUTE_MS })).toBe(true);
    expect(isWithinConnectWindow(START, { now: START + 4 * HOUR_MS })).toBe(true);
    expect(isWithinConnectWindow(START, { now: START + 4 * HOUR_MS + 1 })).toBe(false);
  });

  test('opens 24 hours before in the delayed case', () => {
    expect(isWithinConnectWindow(START, { now: START - 24 * HOUR_MS, delayed: true })).toBe(true);
    expect(isWithinConnectWindow(START, { now: START - 24 * HOUR_MS - 1, delayed: true })).toBe(false);
  });

  test('is always open while the override is set', () => {
    expect(isWithinConnectWindow(START, { now: 0, override: setSessionOverride() })).toBe(true);
  });

  test('a live session is always inside the connect window', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 4e12 }),
        fc.integer({ min: -1e8, max: 1e8 }),
        fc.boolean(),
        (s, d, delayed) => {
          if (isSessionLive(s, { now: s + d }))
            expect(isWithinConnectWindow(s, { now: s + d, delayed })).toBe(true);
        },
      ),
    );
  });

  test('the delayed window contains the normal one', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4e12 }), fc.integer({ min: -2e8, max: 2e8 }), (s, d) => {
        if (isWithinConnectWindow(s, { now: s + d }))
          expect(isWithinConnectWindow(s, { now: s + d, delayed: true })).toBe(true);
      }),
    );
  });
});

describe('next-session countdown', () => {
  test('sessions start on the hour and half hour', () => {
    expect(getNextSessionStart({ now: Date.parse('2025-07-06T14:10:00Z') })).toBe(
      Date.parse('2025-07-06T14:30:00Z'),
    );
    expect(getNextSessionStart({ now: Date.parse('2025-07-06T14:30:00Z') })).toBe(
      Date.parse('2025-07-06T15:00:00Z'),
    );
  });

  test('the next start is always a half-hour mark within 30 minutes', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4e12 }), (now) => {
        const next = getNextSessionStart({ now });
        expect(next % (30 * MINUTE_MS)).toBe(0);
        expect(next - now).toBeGreaterThan(0);
        expect(next - now).toBeLessThanOrEqual(30 * MINUTE_MS);
      }),
    );
  });

  test('counts down in hours, minutes and seconds, never below zero', () => {
    const countdown = getCountdown(START, { now: START - (HOUR_MS + 2 * MINUTE_MS + 3000) });
    expect(countdown).toEqual({ totalMs: HOUR_MS + 2 * MINUTE_MS + 3000, hours: 1, minutes: 2, seconds: 3 });
    expect(formatCountdown(countdown)).toBe('01:02:03');
    expect(getCountdown(START, { now: START + 1 }).totalMs).toBe(0);
  });
});
