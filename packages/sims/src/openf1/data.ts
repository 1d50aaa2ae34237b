import { type BundledSession, loadBundledSessions, type RaceControlRow } from '@flaglight/data';
import { formatOpenF1Date } from '../shared/clock.js';
import { buildMeetingRow, buildSessionRow, type MeetingRow, type SessionRow } from './catalog.js';
import { type LatestKeys } from './filters.js';
import { type Replay } from './replay.js';

export interface LocationRow {
  date: string;
  driver_number: number;
  meeting_key: number;
  session_key: number;
  x: number;
  y: number;
  z: number;
}

export type Endpoint = 'sessions' | 'meetings' | 'race_control' | 'location';
export const ENDPOINTS: readonly Endpoint[] = ['sessions', 'meetings', 'race_control', 'location'];

/** A sample ~3.7 Hz apart, as OpenF1 records positions. */
const LOCATION_STEP_MS = 270;
const LOCATION_POINTS_PER_CAR = 5;
/** `latest` switches to a session 60 s before its start (reference §1.3). */
const LATEST_LEAD_MS = 60_000;

function locationRows(
  b: BundledSession,
  sessionKey: number,
  meetingKey: number,
  start: number,
): LocationRow[] {
  const rows: LocationRow[] = [];
  for (let k = 0; k < LOCATION_POINTS_PER_CAR; k += 1) {
    b.drivers.forEach((driver, i) => {
      const angle = i * 0.31 + k * 0.02;
      const radius = 2000 + i * 15;
      rows.push({
        date: formatOpenF1Date(start + k * LOCATION_STEP_MS + i * 11),
        driver_number: driver,
        meeting_key: meetingKey,
        session_key: sessionKey,
        x: Math.round(radius * Math.cos(angle)),
        y: Math.round(radius * Math.sin(angle)),
        z: 100 + (i % 5),
      });
    });
  }
  return rows;
}

function firstGreen(b: BundledSession): number {
  const i = b.messages.findIndex((m) => m.category === 'Flag' && m.flag === 'GREEN');
  const first = Date.parse(b.messages[0]?.date ?? '') || b.scheduledStart;
  return first + (b.offsets[Math.max(0, i)] ?? 0);
}

/** The historical (non-live) form of every bundled session, under its original keys and dates. */
class Archive {
  readonly bundles = loadBundledSessions();
  readonly sessions: SessionRow[] = this.bundles.map((b) =>
    buildSessionRow(
      b,
      { sessionKey: b.sessionKey, meetingKey: b.meetingKey, start: b.scheduledStart, end: b.scheduledEnd },
      formatOpenF1Date,
    ),
  );
  readonly meetings: MeetingRow[] = [...new Set(this.bundles.map((b) => b.meetingKey))].map((key) => {
    const group = this.bundles.filter((b) => b.meetingKey === key);
    return buildMeetingRow(
      group[0]!,
      {
        meetingKey: key,
        start: Math.min(...group.map((b) => b.scheduledStart)),
        end: Math.max(...group.map((b) => b.scheduledEnd)),
      },
      formatOpenF1Date,
    );
  });
  readonly raceControl: RaceControlRow[] = this.bundles.flatMap((b) => b.messages);
  readonly location: LocationRow[] = this.bundles.flatMap((b) =>
    locationRows(b, b.sessionKey, b.meetingKey, firstGreen(b)),
  );
}

let archive: Archive | null = null;
function getArchive(): Archive {
  archive ??= new Archive();
  return archive;
}

/** Every row the simulated OpenF1 holds at instant `t`: the archive plus the live replays. */
export function rowsAt(endpoint: Endpoint, replays: readonly Replay[], t: number): object[] {
  const a = getArchive();
  switch (endpoint) {
    case 'sessions':
      return [...a.sessions, ...replays.map((r) => replaySessionRow(r))];
    case 'meetings':
      return [...a.meetings, ...replayMeetingRows(replays)];
    case 'race_control':
      return [...a.raceControl, ...replays.flatMap((r) => r.rows(t))];
    case 'location':
      return [
        ...a.location,
        ...replays.flatMap((r) =>
          locationRows(r.bundle, r.sessionKey, r.meetingKey, r.startedAt).filter(
            (row) => Date.parse(row.date) <= t,
          ),
        ),
      ];
  }
}

export function replaySessionRow(r: Replay): SessionRow {
  return buildSessionRow(
    r.bundle,
    { sessionKey: r.sessionKey, meetingKey: r.meetingKey, start: r.startedAt, end: r.endsAt() },
    formatOpenF1Date,
  );
}

function replayMeetingRows(replays: readonly Replay[]): MeetingRow[] {
  const keys = [...new Set(replays.map((r) => r.meetingKey))];
  return keys.map((key) => {
    const group = replays.filter((r) => r.meetingKey === key);
    return buildMeetingRow(
      group[0]!.bundle,
      {
        meetingKey: key,
        start: Math.min(...group.map((r) => r.startedAt)),
        end: Math.max(...group.map((r) => r.endsAt())),
      },
      formatOpenF1Date,
    );
  });
}

/** `session_key=latest`: the most recent non-cancelled session whose start is at most 60 s away. */
export function latestKeys(replays: readonly Replay[], t: number): LatestKeys {
  let best: { start: number; session: number; meeting: number } | null = null;
  const consider = (start: number, session: number, meeting: number): void => {
    if (start > t + LATEST_LEAD_MS) return;
    if (!best || start >= best.start) best = { start, session, meeting };
  };
  for (const b of getArchive().bundles) consider(b.scheduledStart, b.sessionKey, b.meetingKey);
  for (const r of replays) consider(r.startedAt, r.sessionKey, r.meetingKey);
  const found = best as { start: number; session: number; meeting: number } | null;
  return { session_key: found?.session ?? null, meeting_key: found?.meeting ?? null };
}

export function toCsv(rows: object[]): string {
  const records = rows as Record<string, unknown>[];
  const columns = [...new Set(records.flatMap((r) => Object.keys(r)))].sort();
  const cell = (v: unknown): string => {
    if (v === null || v === undefined) return '';
    // eslint-disable-next-line @typescript-eslint/no-base-to-string -- cells are JSON values; arrays print as the real CSV does
    const s = String(v);
    return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  };
  return (
    [columns.join(','), ...records.map((r) => columns.map((c) => cell(r[c])).join(','))].join('\n') + '\n'
  );
}
