import { listRaceStarts, type Race } from '@flaglight/core';
import { loadCalendar2026 } from '@flaglight/data';
import type { JolpicaClient } from './client.js';

/**
 * Cache lifetimes: a good schedule 1 h (it changes a few times a season; Jolpica allows 500
 * requests an hour and asks for aggressive caching, reference §5.1); after a failure the bundled
 * calendar is served and Jolpica is asked again after 1 min, not on every request.
 */
export const SCHEDULE_TTL_MS = 60 * 60_000;
export const SCHEDULE_FAILURE_TTL_MS = 60_000;
export const FALLBACK_MESSAGE = 'Using fallback data';

export interface Schedule {
  season: string;
  races: Race[];
  fallback: boolean;
  message?: string;
}

/** The season schedule from Jolpica, cached, with the bundled calendar as fallback (SPEC §8). */
export function createScheduleService(options: { client: JolpicaClient; now: () => number }) {
  let cached: { until: number; schedule: Schedule } | null = null;
  let pending: Promise<Schedule> | null = null;

  function fallback(): Schedule {
    const calendar = loadCalendar2026();
    return {
      season: calendar.season,
      races: calendar.Races,
      fallback: true,
      message: FALLBACK_MESSAGE,
    };
  }

  async function load(): Promise<Schedule> {
    const result = await options.client.currentSeason();
    const schedule: Schedule =
      result.ok && result.races.length > 0
        ? { season: result.season, races: result.races, fallback: false }
        : fallback();
    cached = {
      until: options.now() + (schedule.fallback ? SCHEDULE_FAILURE_TTL_MS : SCHEDULE_TTL_MS),
      schedule,
    };
    return schedule;
  }

  async function schedule(): Promise<Schedule> {
    if (cached && cached.until > options.now()) return cached.schedule;
    pending ??= load().finally(() => {
      pending = null;
    });
    return pending;
  }

  return {
    schedule,
    /** Race start times, for the trial-length rule (DESIGN §6). */
    raceStarts: async (): Promise<Date[]> => {
      const { races } = await schedule();
      return listRaceStarts(races).map((ms) => new Date(ms));
    },
  };
}

export type ScheduleService = ReturnType<typeof createScheduleService>;
