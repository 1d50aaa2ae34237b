import type { LightState } from '../flags/types.js';
import { toEpochMs, type Instant } from './activity.js';

/** What the session-ending rule needs to know about a tracked session. */
export interface TrackedSession {
  sessionName?: string | null;
  sessionType?: string | null;
  dateEnd?: string | null;
}

/** True for a race or a sprint (OpenF1 reports both with session_type "Race"). */
export function isRaceOrSprint(session: TrackedSession): boolean {
  const type = (session.sessionType ?? '').trim().toLowerCase();
  const name = (session.sessionName ?? '').trim().toLowerCase();
  if (name.includes('qualifying') || name.includes('shootout')) return false;
  return type === 'race' || name === 'race' || name === 'sprint';
}

/**
 * DESIGN §6: the tracked session ends (post-race e-mail) when OpenF1's `date_end` has passed,
 * or on the chequered flag of a race or sprint; never at the chequered flag of Q1 or Q2.
 */
export function shouldEndTrackedSession(
  session: TrackedSession,
  { now, state }: { now: Instant; state?: LightState | null },
): boolean {
  const endMs = session.dateEnd ? Date.parse(session.dateEnd) : Number.NaN;
  if (!Number.isNaN(endMs) && toEpochMs(now) >= endMs) return true;
  return state === 'checkered' && isRaceOrSprint(session);
}
