import { HOUR_MS } from '../constants.js';
import type { Race, SessionSummary } from '../types/race.js';
import { toEpochMs, type Instant } from './activity.js';

/** SPEC §4: default times of the fixed fallback race. */
export const FALLBACK_RACE_TIME = '15:00:00Z';
export const FALLBACK_QUALIFYING_TIME = '16:00:00Z';
export const FALLBACK_PRACTICE_NAME = 'Practice Session';

function isoDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/**
 * The fixed fallback race (a Baku entry) used when no schedule is found: the race on `raceDate`
 * at 15:00 UTC, qualifying the day before at 16:00 UTC.
 */
export function createFallbackRace({ raceDate, season }: { raceDate: string; season?: string }): Race {
  const raceMs = Date.parse(`${raceDate}T00:00:00Z`);
  return {
    season: season ?? raceDate.slice(0, 4),
    round: '0',
    raceName: 'Azerbaijan Grand Prix',
    Circuit: {
      circuitId: 'baku',
      url: 'https://en.wikipedia.org/wiki/Baku_City_Circuit',
      circuitName: 'Baku City Circuit',
      Location: { lat: '40.3725', long: '49.8533', locality: 'Baku', country: 'Azerbaijan' },
    },
    date: raceDate,
    time: FALLBACK_RACE_TIME,
    Qualifying: { date: isoDay(raceMs - 24 * HOUR_MS), time: FALLBACK_QUALIFYING_TIME },
  };
}

/**
 * SPEC §4: with no session found, a placeholder practice session starting now, live for the
 * usual window, so the dashboard still has something to connect to.
 */
export function createFallbackPracticeSession({ now }: { now: Instant }): SessionSummary {
  const startMs = toEpochMs(now);
  const start = new Date(startMs).toISOString();
  return {
    session_name: FALLBACK_PRACTICE_NAME,
    date: start.slice(0, 10),
    time: `${start.slice(11, 19)}Z`,
    date_start: start,
    date_end: new Date(startMs + HOUR_MS).toISOString(),
    session_type: 'Practice',
    race_name: 'Azerbaijan Grand Prix',
    circuit_name: 'Baku City Circuit',
    is_active: true,
  };
}
