import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { requireRecordingName } from '../shared/recording-names.js';

/** A JSON object as the feed sends it. */
export type FeedRecord = Record<string, unknown>;

export type ReplayedTopic = 'RaceControlMessages' | 'TrackStatus' | 'SessionStatus';

/** One line of a `live_timing` stream: what changes, and when (ms since the archive stream started). */
export interface FeedEvent {
  offsetMs: number;
  topic: ReplayedTopic;
  /** RaceControlMessages: the record's index in the session's list. */
  index?: number;
  /** RaceControlMessages: the record as sent; TrackStatus/SessionStatus: the line without its offset. */
  value: FeedRecord;
}

/** A fixture file's `live_timing` streams, merged on their shared clock. */
export interface Recording {
  id: string;
  /** SessionInfo built from the fixture's `session` block. */
  sessionInfo: FeedRecord;
  /** The instant (UTC ms) the archive stream started: feed timestamps are this + offset. */
  streamStartMs: number;
  /** Offset of the last event (at least 1 s). */
  lengthMs: number;
  /** Every event in stream order (offsets never decrease). */
  events: FeedEvent[];
}

interface StreamLine {
  stream_offset?: string;
  [key: string]: unknown;
}

interface FixtureFile {
  session?: Record<string, unknown>;
  live_timing?: {
    race_control_stream?: { stream_offset?: string; index?: number; record?: FeedRecord }[];
    track_status_stream?: StreamLine[];
    session_status_stream?: StreamLine[];
  };
}

/** Where packages/data keeps the recordings (the same files as ../shared/fixtures/race-control). */
export const RECORDINGS_DIR = fileURLToPath(new URL('../../../data/race-control/', import.meta.url));

/** `01:12:28.768` → ms; null when malformed. */
export function parseStreamOffset(offset: string | undefined): number | null {
  const m = /^(\d+):(\d{2}):(\d{2})(?:\.(\d{1,3}))?$/.exec(offset ?? '');
  if (!m) return null;
  const ms = Number((m[4] ?? '0').padEnd(3, '0'));
  return ((Number(m[1]) * 60 + Number(m[2])) * 60 + Number(m[3])) * 1000 + ms;
}

export function formatStreamOffset(ms: number): string {
  const total = Math.max(0, Math.round(ms));
  const h = Math.floor(total / 3_600_000);
  const m = Math.floor(total / 60_000) % 60;
  const s = Math.floor(total / 1000) % 60;
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${pad(h)}:${pad(m)}:${pad(s)}.${pad(total % 1000, 3)}`;
}

function utcMs(record: FeedRecord | undefined): number | null {
  const utc = record?.Utc;
  if (typeof utc !== 'string') return null;
  const ms = Date.parse(/(Z|[+-]\d{2}:\d{2})$/.test(utc) ? utc : `${utc}Z`);
  return Number.isNaN(ms) ? null : ms;
}

function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? null;
}

function buildSessionInfo(session: Record<string, unknown>): FeedRecord {
  const meetingName = typeof session.meeting === 'string' ? session.meeting : 'Grand Prix';
  const circuit = typeof session.circuit_short_name === 'string' ? session.circuit_short_name : '';
  return {
    Meeting: {
      Key: session.meeting_key ?? null,
      Name: meetingName,
      OfficialName:
        `FORMULA 1 ${meetingName.toUpperCase()} ${typeof session.year === 'number' ? session.year : ''}`.trim(),
      Location: circuit,
      Circuit: { ShortName: circuit },
    },
    ArchiveStatus: { Status: 'Generating' },
    Key: session.session_key ?? null,
    Type: session.session_type ?? null,
    Name: session.session_name ?? null,
    StartDate: session.date_start_local ?? null,
    EndDate: session.date_end_local ?? null,
    GmtOffset: session.gmt_offset ?? '00:00:00',
    Path: session.path ?? null,
  };
}

/**
 * Reads a fixture's `live_timing` streams. Lines without a `stream_offset` (partial recordings)
 * are placed by their `Utc` after the first one; offsets within a stream never decrease (arrival
 * order is kept, as the fixtures keep it).
 */
export function parseRecording(id: string, file: FixtureFile): Recording {
  const live = file.live_timing ?? {};
  const rcm = live.race_control_stream ?? [];
  const starts = rcm.flatMap((line) => {
    const offset = parseStreamOffset(line.stream_offset);
    const utc = utcMs(line.record);
    return offset !== null && utc !== null ? [utc - offset] : [];
  });
  const firstUtc = rcm.map((line) => utcMs(line.record)).find((ms) => ms !== null) ?? null;
  const streamStartMs = median(starts) ?? firstUtc ?? 0;

  const events: (FeedEvent & { order: number })[] = [];
  let order = 0;
  let last = 0;
  rcm.forEach((line, position) => {
    const utc = utcMs(line.record);
    const raw = parseStreamOffset(line.stream_offset) ?? (utc !== null ? utc - streamStartMs : last);
    last = Math.max(last, raw);
    events.push({
      offsetMs: last,
      topic: 'RaceControlMessages',
      index: typeof line.index === 'number' ? line.index : position,
      value: line.record ?? {},
      order: order++,
    });
  });
  for (const [topic, stream] of [
    ['TrackStatus', live.track_status_stream ?? []],
    ['SessionStatus', live.session_status_stream ?? []],
  ] as const) {
    let previous = 0;
    for (const line of stream) {
      const { stream_offset: offset, ...value } = line;
      previous = Math.max(previous, parseStreamOffset(offset) ?? previous);
      events.push({ offsetMs: previous, topic, value, order: order++ });
    }
  }
  events.sort((a, b) => a.offsetMs - b.offsetMs || a.order - b.order);
  const lengthMs = Math.max(1000, ...events.map((e) => e.offsetMs));
  return {
    id,
    sessionInfo: buildSessionInfo(file.session ?? {}),
    streamStartMs,
    lengthMs,
    events: events.map(({ order: _order, ...event }) => event),
  };
}

/**
 * A recording of packages/data's list, by its exact id (`2021-saudi-arabia-race`). Never a path:
 * the name comes from control routes anyone on the demo origin can call.
 */
export function loadRecording(name: string): Recording {
  const id = requireRecordingName(name);
  let file: FixtureFile;
  try {
    file = JSON.parse(readFileSync(`${RECORDINGS_DIR}${id}.json`, 'utf8')) as FixtureFile;
  } catch {
    // The reason (a path, the file's first bytes) stays on the server.
    throw new Error(`recording "${id}" could not be read`);
  }
  return parseRecording(id, file);
}

/** No session on the feed: what F1 serves between weekends, as far as Flaglight reads it. */
export function emptyRecording(): Recording {
  return { id: 'none', sessionInfo: {}, streamStartMs: 0, lengthMs: 1000, events: [] };
}

/** The recording under another session's keys (SessionInfo `Key`, `Meeting.Key`). */
export function withKeys(recording: Recording, sessionKey: number, meetingKey: number): Recording {
  const meeting = recording.sessionInfo.Meeting;
  return {
    ...recording,
    sessionInfo: {
      ...recording.sessionInfo,
      Key: sessionKey,
      Meeting: { ...(typeof meeting === 'object' && meeting !== null ? meeting : {}), Key: meetingKey },
    },
  };
}
