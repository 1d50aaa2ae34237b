import {
  getFollowedSessionKind,
  isSessionFollowed,
  type FollowedSessionKind,
  type LightFollowSettings,
  type SessionDescription,
} from '@flaglight/core';
import type { CurrentSession } from './live-api';
import type { LiveTarget } from './live-connection-state';

/** What a followed target says of its session: the live session's name and type, a replay's name. */
export function describeTargetSession(target: LiveTarget): SessionDescription | null {
  if (target.kind === 'live')
    return target.session ? { session_name: target.session.name, session_type: target.session.type } : null;
  return target.sessionName ? { session_name: target.sessionName } : null;
}

/**
 * Which session a target is, for "as it was" (a snapshot per session): a replay by its recording's
 * session key, a live session by its name and start. The same session followed again (a replay
 * moved to another minute, a reconnect) keeps its snapshot; another one ends the one before.
 */
export function describeTargetKey(target: LiveTarget): string {
  if (target.kind === 'replay') return `replay:${target.sessionKey}`;
  return target.session ? `live:${target.session.date_start}:${target.session.name}` : 'live';
}

/**
 * Whether the session of a snapshot an earlier page kept (`describeTargetKey`) is over by now: a
 * replay or a test stopped with the page that played it; a live session once it is no longer the
 * live one (`current`: the server's answer, asked only for a live session).
 */
export async function isKeptSessionOver(
  key: string,
  current: () => Promise<CurrentSession>,
): Promise<boolean> {
  if (key !== 'live' && !key.startsWith('live:')) return true;
  const now = await current();
  return now.kind !== 'live' || describeTargetKey({ kind: 'live', session: now.session }) !== key;
}

/** The session kinds as a fan reads them, plural ("practice sessions"). */
const KIND_WORDS: Record<FollowedSessionKind, string> = {
  practice: 'practice sessions',
  qualifying: 'qualifying',
  sprint_qualifying: 'sprint qualifying',
  sprint: 'sprints',
  race: 'races',
};

/**
 * The kind of session followed when the account's follow settings leave it out (its flags then
 * drive no light), in words; null when the lights follow it.
 */
export function describeUnfollowedSession(
  target: LiveTarget | null,
  follow: LightFollowSettings | undefined,
): string | null {
  const session = target ? describeTargetSession(target) : null;
  if (!session || isSessionFollowed(follow, session)) return null;
  const kind = getFollowedSessionKind(session);
  return kind ? KIND_WORDS[kind] : null;
}
