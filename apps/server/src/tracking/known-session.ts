import { ReplayInfoSchema } from '@flaglight/contract';
import type { LiveSession, Race } from '@flaglight/core';
import { describeLiveSession } from '../schedule/routes.js';

/** A session the server itself knows: what the post-race e-mail says of it (never the client's words). */
export interface KnownSession {
  /**
   * Which real session it is, for "one e-mail per account and session": `live:<session key>`, or
   * the recording a replay plays (`replay:bundled:<id>`, `replay:openf1:<key>`), whatever replay
   * key this instance gave it.
   */
  ref: string;
  /** "Saudi Arabia Grand Prix – Race"; null when the server has no name for it. */
  title: string | null;
  /** When it started (ISO): the start of the e-mail's timeline; null to start at its first flag. */
  start: string | null;
}

export interface SessionLookupDeps {
  /** What a replay running on this instance plays (the live hub's), or null. */
  replayInfo: (sessionKey: number) => Record<string, unknown> | null;
  /** The session live now (the live hub's: F1 live timing, else OpenF1). */
  liveSession: () => Promise<LiveSession | null>;
  /** The season's races, to name a live session as `/api/f1/current` does. */
  races: () => Promise<readonly Race[]>;
}

function describeReplay(sessionKey: number, info: Record<string, unknown>): KnownSession {
  const replay = ReplayInfoSchema.safeParse(info);
  if (!replay.success) return { ref: `replay:key:${sessionKey}`, title: null, start: null };
  const { source, id, meetingName, sessionName, year } = replay.data;
  const name = [year && meetingName ? `${year} ${meetingName}` : meetingName, sessionName]
    .filter(Boolean)
    .join(' – ');
  return { ref: `replay:${source}:${id}`, title: name ? `${name} (replay)` : null, start: null };
}

/**
 * The session a client says it follows, as the server knows it: a replay running on this instance,
 * or the session live now. Any other key (a past session, a made-up one) is no session the server
 * can vouch for: null, and no e-mail.
 */
export function createSessionLookup(deps: SessionLookupDeps) {
  return async function findKnownSession(sessionKey: number): Promise<KnownSession | null> {
    if (!Number.isSafeInteger(sessionKey) || sessionKey <= 0) return null;
    const replay = deps.replayInfo(sessionKey);
    if (replay) return describeReplay(sessionKey, replay);
    const live = await deps.liveSession().catch(() => null);
    if (live?.session_key !== sessionKey) return null;
    const races = await deps.races().catch(() => []);
    const named = describeLiveSession(live, races);
    return { ref: `live:${sessionKey}`, title: `${named.race_name} – ${named.name}`, start: live.date_start };
  };
}

export type FindKnownSession = ReturnType<typeof createSessionLookup>;
