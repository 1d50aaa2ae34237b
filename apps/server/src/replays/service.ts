import { MAX_REPLAYS_PER_ADDRESS, type ReplayInfo } from '@flaglight/contract';
import {
  deriveFlagTimeline,
  deriveRaceControlTimelineChanges,
  LiveSessionSchema,
  type FlagTimeline,
  type ReplayChoice,
} from '@flaglight/core';
import { loadBundledSessions, type BundledSession } from '@flaglight/data';
import type { LiveHub } from '../live/hub.js';
import type { ReplayOwner } from '../live/replay-slots.js';
import type { OpenF1Client } from '../openf1/client.js';

export type { ReplayChoice } from '@flaglight/core';

function suggestedStart(b: BundledSession): number {
  const i = b.messages.findIndex((m) => m.category === 'Flag' && m.flag === 'GREEN');
  const offset = i >= 0 ? (b.offsets[i] ?? 0) : 0;
  return Math.max(0, Math.floor(offset / 60_000) - 1);
}

/** Recordings never change: each one's timeline is derived once per process. */
const timelines = new Map<string, FlagTimeline>();

/** A recording's flag timeline on the replay's clock: 0 is its first record, as `startMinutes` counts. */
export function recordingTimeline(b: BundledSession): FlagTimeline {
  let timeline = timelines.get(b.id);
  if (!timeline) {
    // The replay follower counts its position from the earliest record.
    const first = Math.min(...b.messages.map((m) => Date.parse(m.date)).filter(Number.isFinite));
    timeline = deriveFlagTimeline(deriveRaceControlTimelineChanges(b.messages), {
      start: first,
      end: first + b.lengthMs,
    });
    timelines.set(b.id, timeline);
  }
  return timeline;
}

/** The 429s of a start refused for others' replays (the caller's own never count against it). */
export const REPLAY_REFUSALS = {
  address:
    `${MAX_REPLAYS_PER_ADDRESS} replays started from your internet address are running (the most one ` +
    'address may run). One ends a minute after nobody watches it: please try again then.',
  instance:
    'This server is running as many replays as it can. One ends a minute after nobody watches it: ' +
    'please try again then.',
} as const;

export type ReplayStart =
  { ok: true; sessionKey: number; info: ReplayInfo } | { ok: false; status: number; error: string };

/** Replays: bundled recordings offline, any OpenF1 historical session online. */
export function createReplayService(options: { hub: LiveHub; client: OpenF1Client }) {
  const { hub, client } = options;

  function bundled(): ReplayChoice[] {
    return loadBundledSessions().map((b) => ({
      source: 'bundled' as const,
      id: b.id,
      year: b.year,
      meetingName: b.meetingName,
      sessionName: b.sessionName,
      sessionType: b.sessionType,
      dateStart: new Date(b.scheduledStart).toISOString(),
      suggestedStartMinutes: suggestedStart(b),
      messages: b.messages.length,
      lengthMinutes: Math.round(b.lengthMs / 60_000),
      timeline: recordingTimeline(b),
    }));
  }

  async function historical(
    year: number,
  ): Promise<{ ok: true; sessions: ReplayChoice[] } | { ok: false; error: string }> {
    const result = await client.get<unknown[]>(`/v1/sessions?year=${year}`);
    if (!result.ok) return { ok: false, error: result.message };
    const rows = Array.isArray(result.data) ? result.data : [];
    const sessions = rows
      .map((row) => LiveSessionSchema.safeParse(row))
      .flatMap((p) => (p.success ? [p.data] : []))
      .filter((s) => !s.is_cancelled && s.date_end && Date.parse(s.date_end) < Date.now())
      .map((s) => ({
        source: 'openf1' as const,
        id: String(s.session_key),
        year: s.year ?? year,
        meetingName: s.country_name ?? s.location ?? '',
        sessionName: s.session_name ?? '',
        sessionType: s.session_type ?? '',
        dateStart: s.date_start,
        suggestedStartMinutes: 0,
      }));
    return { ok: true, sessions };
  }

  /** Starts a replay for `owner`; its oldest replays end if its caps need room (`findReplaySlot`). */
  async function start(
    input: {
      source: 'bundled' | 'openf1';
      id: string;
      speed: number;
      startMinutes: number;
    },
    owner: ReplayOwner,
  ): Promise<ReplayStart> {
    let messages: readonly unknown[];
    let about: Omit<ReplayInfo, 'speed' | 'startMinutes'>;
    if (input.source === 'bundled') {
      const b = loadBundledSessions().find((s) => s.id === input.id);
      if (!b) return { ok: false, status: 404, error: `No bundled recording "${input.id}"` };
      messages = b.messages;
      about = {
        source: 'bundled',
        id: b.id,
        meetingName: b.meetingName,
        sessionName: b.sessionName,
        year: b.year,
      };
    } else {
      if (!/^\d{1,7}$/.test(input.id))
        return { ok: false, status: 400, error: 'id must be an OpenF1 session key' };
      const result = await client.get<unknown[]>(`/v1/race_control?session_key=${input.id}`);
      if (!result.ok)
        return { ok: false, status: result.kind === 'rate-limited' ? 429 : 502, error: result.message };
      messages = Array.isArray(result.data) ? result.data : [];
      if (messages.length === 0)
        return { ok: false, status: 404, error: `No race-control messages for session ${input.id}` };
      about = { source: 'openf1', id: input.id };
    }
    const info: ReplayInfo = { ...about, speed: input.speed, startMinutes: input.startMinutes };
    const started = hub.tryStartReplay(
      { messages, speed: input.speed, positionMs: input.startMinutes * 60_000, info },
      owner,
    );
    if (!started.ok) return { ok: false, status: 429, error: REPLAY_REFUSALS[started.reason] };
    return { ok: true, sessionKey: started.sessionKey, info };
  }

  return { bundled, historical, start };
}

export type ReplayService = ReturnType<typeof createReplayService>;
