import { api, PUBLIC_READS_PER_MINUTE } from '@flaglight/contract';
import {
  findNextRace,
  parseSessionStart,
  type CurrentLiveSessionData,
  type CurrentRaceData,
  type LiveSession,
  type Race,
} from '@flaglight/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { fromContract } from '../http/contract-route.js';
import type { ScheduleService } from './service.js';

const WEEKEND_MS = 4 * 24 * 3_600_000;

function iso(session: { date: string; time?: string | undefined } | undefined): string | null {
  const ms = parseSessionStart(session);
  return ms === null ? null : new Date(ms).toISOString();
}

function slugify(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

/** The race weekend a session belongs to: the race within four days after its start. */
function raceOf(
  races: readonly Race[],
  startMs: number,
  country: string | null | undefined,
): Race | undefined {
  return races.find((race) => {
    if (!country || race.Circuit.Location.country.toLowerCase() !== country.toLowerCase()) return false;
    const raceMs = parseSessionStart({ date: race.date, time: race.time });
    return raceMs !== null && raceMs >= startMs - 3_600_000 && raceMs - startMs <= WEEKEND_MS;
  });
}

export function describeLiveSession(session: LiveSession, races: readonly Race[]): CurrentLiveSessionData {
  const race = raceOf(races, Date.parse(session.date_start), session.country_name);
  const country = session.country_name ?? session.location ?? 'Formula 1';
  return {
    name: session.session_name ?? 'Session',
    date_start: session.date_start,
    date_end: session.date_end ?? session.date_start,
    type: session.session_type ?? 'Race',
    race_name: race?.raceName ?? `${country} Grand Prix`,
    circuit_name: race?.Circuit.circuitName ?? session.circuit_short_name ?? session.location ?? '',
  };
}

export function describeRace(race: Race): CurrentRaceData {
  return {
    name: race.raceName,
    slug: slugify(race.raceName),
    round: Number(race.round),
    location: `${race.Circuit.Location.locality}, ${race.Circuit.Location.country}`,
    latitude: Number(race.Circuit.Location.lat),
    longitude: Number(race.Circuit.Location.long),
    sessions: {
      fp1: iso(race.FirstPractice),
      fp2: iso(race.SecondPractice ?? race.SprintQualifying ?? race.SprintShootout),
      fp3: iso(race.ThirdPractice ?? race.Sprint),
      qualifying: iso(race.Qualifying),
      gp: iso({ date: race.date, time: race.time }),
    },
  };
}

/** SPEC §7 `GET /api/f1/current` and the Race Schedule panel's `GET /api/f1/schedule`. */
export async function scheduleRoutes(
  fastify: FastifyInstance,
  opts: {
    schedule: ScheduleService;
    liveSession: () => Promise<LiveSession | null>;
    now: () => number;
  },
) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.route({
    ...fromContract(api.schedule.schedule, { rateLimitPerMinute: PUBLIC_READS_PER_MINUTE }),
    handler: async () => {
      const schedule = await opts.schedule.schedule();
      return {
        success: true as const,
        season: schedule.season,
        races: schedule.races,
        fallback: schedule.fallback,
        ...(schedule.message ? { message: schedule.message } : {}),
      };
    },
  });

  app.route({
    ...fromContract(api.schedule.current, { rateLimitPerMinute: PUBLIC_READS_PER_MINUTE }),
    handler: async () => {
      const schedule = await opts.schedule.schedule();
      const extra = schedule.fallback ? { fallback: true, message: schedule.message } : {};
      const live = await opts.liveSession().catch(() => null);
      if (live) {
        return {
          success: true as const,
          live: true,
          data: describeLiveSession(live, schedule.races),
          ...extra,
        };
      }
      const next = findNextRace(schedule.races, { now: opts.now() });
      const race = next ? schedule.races.find((r) => Number(r.round) === next.round) : undefined;
      return { success: true as const, live: false, data: race ? describeRace(race) : null, ...extra };
    },
  });
}
