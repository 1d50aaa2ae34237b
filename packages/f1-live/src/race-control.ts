import { type RaceControlMessage } from '@flaglight/core';
import { type FeedValue, isFeedObject } from './merge.js';

/** The keys OpenF1 uses for a session: SessionInfo `Key` and `Meeting.Key`. */
export interface SessionKeys {
  sessionKey: number | null;
  meetingKey: number | null;
}

function text(value: FeedValue | undefined): string | null {
  return typeof value === 'string' ? value : null;
}

function integer(value: FeedValue | undefined): number | null {
  if (typeof value === 'number' && Number.isFinite(value)) return Math.trunc(value);
  if (typeof value === 'string' && /^\s*-?\d+\s*$/.test(value)) return Number.parseInt(value, 10);
  return null;
}

/** `2026-03-15T07:04:00` (UTC without a zone, as the feed writes it) → `2026-03-15T07:04:00+00:00`. */
export function feedUtcToOpenF1Date(utc: string | null): string | null {
  if (utc === null) return null;
  if (/(Z|[+-]\d{2}:?\d{2})$/i.test(utc)) return utc.replace(/Z$/i, '+00:00');
  return `${utc}+00:00`;
}

/**
 * A live-timing RaceControlMessages record in the OpenF1 /v1/race_control shape the core tracker
 * takes (fixtures README): date = Utc + `+00:00`, lap_number = Lap, driver_number =
 * int(RacingNumber), category, flag, scope, sector and message copied; absent fields are null.
 */
export function toRaceControlMessage(record: unknown, keys?: SessionKeys): RaceControlMessage {
  const r = isFeedObject(record) ? record : {};
  return {
    date: feedUtcToOpenF1Date(text(r.Utc)),
    session_key: keys?.sessionKey ?? null,
    meeting_key: keys?.meetingKey ?? null,
    driver_number: integer(r.RacingNumber),
    lap_number: integer(r.Lap),
    category: text(r.Category),
    flag: text(r.Flag),
    scope: text(r.Scope),
    sector: integer(r.Sector),
    message: text(r.Message),
    qualifying_phase: null,
  };
}
