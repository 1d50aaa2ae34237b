import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** An OpenF1 /v1/race_control row. */
export interface RaceControlRow {
  category: string;
  date: string;
  driver_number: number | null;
  flag: string | null;
  lap_number: number | null;
  meeting_key: number;
  message: string;
  qualifying_phase: number | null;
  scope: string | null;
  sector: number | null;
  session_key: number;
}

interface FixtureFile {
  session: {
    year: number;
    meeting: string;
    session_name: string;
    session_type: string;
    session_key: number;
    meeting_key: number;
    circuit_short_name: string;
    date_start_local?: string;
    date_end_local?: string;
    gmt_offset?: string;
  };
  complete: boolean;
  messages: Omit<RaceControlRow, 'qualifying_phase'>[];
}

/** One recorded real session bundled in packages/data/race-control. */
export interface BundledSession {
  /** File name without `.json`, e.g. `2021-saudi-arabia-race`. */
  id: string;
  year: number;
  meetingName: string;
  /** As OpenF1 names it today (the 2023 "Sprint Shootout" is "Sprint Qualifying"). */
  sessionName: string;
  sessionType: string;
  sessionKey: number;
  meetingKey: number;
  circuitShortName: string;
  gmtOffset: string;
  /** Scheduled start and end (UTC ms) when the recording says them, else the first and last message. */
  scheduledStart: number;
  scheduledEnd: number;
  /** Messages as recorded, in recorded (arrival) order, with `qualifying_phase` filled in. */
  messages: RaceControlRow[];
  /** Per message: ms after the first message, never decreasing (arrival order is kept). */
  offsets: number[];
  /** First to last message, at least the scheduled length. */
  lengthMs: number;
  /** Car numbers seen in the messages (for the synthetic location data). */
  drivers: number[];
}

const DATA_DIR = fileURLToPath(new URL('../race-control/', import.meta.url));
/** Car numbers given location points when the messages name few cars. */
const FALLBACK_DRIVERS = [1, 4, 10, 11, 14, 16, 18, 20, 22, 23, 24, 27, 31, 44, 55, 63, 77, 81];

function offsetMs(gmtOffset: string): number {
  const m = /^(-)?(\d{2}):(\d{2}):(\d{2})$/.exec(gmtOffset);
  if (!m) return 0;
  const ms = ((Number(m[2]) * 60 + Number(m[3])) * 60 + Number(m[4])) * 1000;
  return m[1] ? -ms : ms;
}

function localToUtc(local: string | undefined, gmtOffset: string): number | null {
  if (!local) return null;
  const ms = Date.parse(`${local}Z`);
  return Number.isNaN(ms) ? null : ms - offsetMs(gmtOffset);
}

function normaliseSessionName(name: string): string {
  return name === 'Sprint Shootout' ? 'Sprint Qualifying' : name;
}

const PHASED_CATEGORIES = new Set(['Flag', 'CarEvent', 'SafetyCar', 'SessionStatus']);

/** Qualifying rows carry the part they belong to: 1, then one more after each part's chequered flag. */
function withQualifyingPhase(messages: FixtureFile['messages'], isQualifying: boolean): RaceControlRow[] {
  let phase = 1;
  return messages.map((m) => {
    const row: RaceControlRow = {
      ...m,
      qualifying_phase: isQualifying && PHASED_CATEGORIES.has(m.category) ? phase : null,
    };
    if (isQualifying && m.category === 'Flag' && m.flag === 'CHEQUERED') phase = Math.min(3, phase + 1);
    return row;
  });
}

function toBundled(id: string, file: FixtureFile): BundledSession {
  const s = file.session;
  const gmtOffset = s.gmt_offset ?? '00:00:00';
  const times = file.messages.map((m) => Date.parse(m.date));
  const first = times[0] ?? 0;
  const offsets: number[] = [];
  let last = 0;
  for (const t of times) {
    last = Math.max(last, t - first);
    offsets.push(last);
  }
  const scheduledStart = localToUtc(s.date_start_local, gmtOffset) ?? first;
  const scheduledEnd = localToUtc(s.date_end_local, gmtOffset) ?? first + last;
  const named = file.messages.map((m) => m.driver_number).filter((n): n is number => n !== null);
  const drivers = [...new Set([...named, ...FALLBACK_DRIVERS])].sort((a, b) => a - b).slice(0, 24);
  return {
    id,
    year: s.year,
    meetingName: s.meeting,
    sessionName: normaliseSessionName(s.session_name),
    sessionType: s.session_type,
    sessionKey: s.session_key,
    meetingKey: s.meeting_key,
    circuitShortName: s.circuit_short_name,
    gmtOffset,
    scheduledStart,
    scheduledEnd,
    messages: withQualifyingPhase(file.messages, s.session_type === 'Qualifying'),
    offsets,
    lengthMs: Math.max(last, scheduledEnd - scheduledStart),
    drivers,
  };
}

let cache: BundledSession[] | null = null;

/** Every bundled recording, read once, sorted by date. */
export function loadBundledSessions(): BundledSession[] {
  if (!cache) {
    cache = readdirSync(DATA_DIR)
      .filter((f) => f.endsWith('.json'))
      .map((f) => toBundled(f.slice(0, -5), JSON.parse(readFileSync(DATA_DIR + f, 'utf8')) as FixtureFile))
      .sort((a, b) => a.scheduledStart - b.scheduledStart);
  }
  return cache;
}

export function findBundledSession(id: string): BundledSession | undefined {
  return loadBundledSessions().find((b) => b.id === id || String(b.sessionKey) === id);
}
