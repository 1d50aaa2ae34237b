import type { Race, RaceSessionTime } from '../types/race.js';

export type SessionKind = 'practice' | 'qualifying' | 'sprint' | 'sprint-qualifying' | 'race';

/** SPEC §9 session colours. */
export const SESSION_COLORS: Readonly<Record<SessionKind, string>> = {
  practice: 'blue',
  qualifying: 'purple',
  sprint: 'orange',
  'sprint-qualifying': 'pink',
  race: 'green',
};

export interface ScheduledSession {
  key: string;
  label: string;
  kind: SessionKind;
  color: string;
  /** Start as epoch ms (UTC). */
  startMs: number;
}

export interface ScheduledRace {
  season: string;
  round: number;
  raceName: string;
  circuitName: string;
  locality: string;
  country: string;
  sessions: ScheduledSession[];
}

const SESSION_FIELDS: readonly { field: keyof Race; label: string; kind: SessionKind }[] = [
  { field: 'FirstPractice', label: 'Practice 1', kind: 'practice' },
  { field: 'SecondPractice', label: 'Practice 2', kind: 'practice' },
  { field: 'ThirdPractice', label: 'Practice 3', kind: 'practice' },
  { field: 'SprintQualifying', label: 'Sprint Qualifying', kind: 'sprint-qualifying' },
  { field: 'SprintShootout', label: 'Sprint Qualifying', kind: 'sprint-qualifying' },
  { field: 'Sprint', label: 'Sprint', kind: 'sprint' },
  { field: 'Qualifying', label: 'Qualifying', kind: 'qualifying' },
];

/** Parses a Jolpica date and time (UTC); a missing time reads as midnight UTC. */
export function parseSessionStart(session: RaceSessionTime | undefined): number | null {
  if (session === undefined) return null;
  const time = session.time ?? '00:00:00Z';
  const ms = Date.parse(`${session.date}T${time.endsWith('Z') ? time : `${time}Z`}`);
  return Number.isNaN(ms) ? null : ms;
}

/** Every session of a race weekend, oldest first, with its kind and colour. */
export function listRaceSessions(race: Race): ScheduledSession[] {
  const sessions: ScheduledSession[] = [];
  for (const { field, label, kind } of SESSION_FIELDS) {
    const startMs = parseSessionStart(race[field] as RaceSessionTime | undefined);
    if (startMs !== null) sessions.push({ key: field, label, kind, color: SESSION_COLORS[kind], startMs });
  }
  const raceStart = parseSessionStart({ date: race.date, time: race.time });
  if (raceStart !== null) {
    sessions.push({
      key: 'Race',
      label: 'Race',
      kind: 'race',
      color: SESSION_COLORS.race,
      startMs: raceStart,
    });
  }
  return sessions.sort((a, b) => a.startMs - b.startMs);
}

/** Groups a season's races with their sessions, by round. */
export function groupSeason(races: readonly Race[]): ScheduledRace[] {
  return races
    .map((race) => ({
      season: race.season,
      round: Number(race.round),
      raceName: race.raceName,
      circuitName: race.Circuit.circuitName,
      locality: race.Circuit.Location.locality,
      country: race.Circuit.Location.country,
      sessions: listRaceSessions(race),
    }))
    .sort((a, b) => a.round - b.round);
}

/** The race start times of a season, for the trial-length rule. */
export function listRaceStarts(races: readonly Race[]): number[] {
  return races
    .map((race) => parseSessionStart({ date: race.date, time: race.time }))
    .filter((ms): ms is number => ms !== null);
}

/** The first race whose weekend has a session starting at or after `now`, or null. */
export function findNextRace(races: readonly Race[], { now }: { now: number }): ScheduledRace | null {
  return groupSeason(races).find((race) => race.sessions.some((session) => session.startMs >= now)) ?? null;
}

/** Formats a session start in the viewer's time zone with Intl (e.g. "Sun, Jul 6, 3:00 PM"). */
export function formatSessionTime(
  startMs: number,
  { timeZone, locale = 'en-US' }: { timeZone: string; locale?: string },
): string {
  return new Intl.DateTimeFormat(locale, {
    timeZone,
    weekday: 'short',
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
  }).format(startMs);
}
