export {
  type BundledCalendar,
  CALENDAR_2026_PATH,
  type ErgastRace,
  type ErgastSessionTime,
  loadCalendar2026,
  raceStart,
} from './calendar.js';
export {
  type BundledSession,
  findBundledSession,
  loadBundledSessions,
  type RaceControlRow,
} from './race-control.js';
