import { type BundledSession } from '@flaglight/data';
import { findCircuit } from './circuits.js';

export interface SessionRow {
  circuit_key: number;
  circuit_short_name: string;
  country_code: string;
  country_key: number;
  country_name: string;
  date_end: string;
  date_start: string;
  gmt_offset: string;
  is_cancelled: boolean;
  location: string;
  meeting_key: number;
  session_key: number;
  session_name: string;
  session_type: string;
  year: number;
}

export interface MeetingRow {
  circuit_image: string | null;
  circuit_info_url: string | null;
  circuit_key: number;
  circuit_short_name: string;
  circuit_type: string;
  country_code: string;
  country_flag: string | null;
  country_key: number;
  country_name: string;
  date_end: string;
  date_start: string;
  gmt_offset: string;
  is_cancelled: boolean;
  location: string;
  meeting_key: number;
  meeting_name: string;
  meeting_official_name: string;
  year: number;
}

export interface SessionPlacement {
  sessionKey: number;
  meetingKey: number;
  start: number;
  end: number;
}

export function buildSessionRow(
  b: BundledSession,
  at: SessionPlacement,
  formatDate: (ms: number) => string,
): SessionRow {
  const c = findCircuit(b.circuitShortName);
  return {
    circuit_key: c.circuit_key,
    circuit_short_name: c.circuit_short_name,
    country_code: c.country_code,
    country_key: c.country_key,
    country_name: c.country_name,
    date_end: formatDate(at.end),
    date_start: formatDate(at.start),
    gmt_offset: b.gmtOffset,
    is_cancelled: false,
    location: c.location,
    meeting_key: at.meetingKey,
    session_key: at.sessionKey,
    session_name: b.sessionName,
    session_type: b.sessionType,
    year: new Date(at.start).getUTCFullYear(),
  };
}

export function buildMeetingRow(
  b: BundledSession,
  at: { meetingKey: number; start: number; end: number },
  formatDate: (ms: number) => string,
): MeetingRow {
  const c = findCircuit(b.circuitShortName);
  const year = new Date(at.start).getUTCFullYear();
  return {
    circuit_image: null,
    circuit_info_url: null,
    circuit_key: c.circuit_key,
    circuit_short_name: c.circuit_short_name,
    circuit_type: c.circuit_type,
    country_code: c.country_code,
    country_flag: null,
    country_key: c.country_key,
    country_name: c.country_name,
    date_end: formatDate(at.end),
    date_start: formatDate(at.start),
    gmt_offset: b.gmtOffset,
    is_cancelled: false,
    location: c.location,
    meeting_key: at.meetingKey,
    meeting_name: b.meetingName,
    meeting_official_name: `FORMULA 1 ${b.meetingName.toUpperCase()} ${year}`,
    year,
  };
}
