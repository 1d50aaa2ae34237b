import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export interface ErgastSessionTime {
  date: string;
  time: string;
}

/** One race of a Jolpica/Ergast RaceTable: every value a string, times UTC with `Z` (reference §5.1). */
export interface ErgastRace {
  season: string;
  round: string;
  url?: string;
  raceName: string;
  Circuit: {
    circuitId: string;
    url?: string;
    circuitName: string;
    Location: { lat: string; long: string; locality: string; country: string };
  };
  date: string;
  time?: string;
  FirstPractice?: ErgastSessionTime;
  SecondPractice?: ErgastSessionTime;
  ThirdPractice?: ErgastSessionTime;
  SprintQualifying?: ErgastSessionTime;
  Sprint?: ErgastSessionTime;
  Qualifying?: ErgastSessionTime;
}

export interface BundledCalendar {
  season: string;
  source: string;
  Races: ErgastRace[];
}

/** Absolute path of the bundled 2026 calendar (packages/data/calendar-2026.json). */
export const CALENDAR_2026_PATH = fileURLToPath(new URL('../calendar-2026.json', import.meta.url));

let cache: BundledCalendar | null = null;

/** The complete 2026 calendar from reference §5.2, in Jolpica's shape; also the server's fallback calendar. */
export function loadCalendar2026(): BundledCalendar {
  cache ??= JSON.parse(readFileSync(CALENDAR_2026_PATH, 'utf8')) as BundledCalendar;
  return structuredClone(cache);
}

/** The race start (UTC ms) of a calendar entry. */
export function raceStart(race: ErgastRace): number {
  return Date.parse(`${race.date}T${race.time ?? '00:00:00Z'}`);
}
