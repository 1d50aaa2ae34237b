/**
 * When the lights follow and what the room does once the racing calms down or ends: which kinds of
 * session drive the lights, what a long green does, and what the session's end does. Kept in the
 * account's preferences beside the look set (`lightFollow`); absent means DEFAULT_LIGHT_FOLLOW, which
 * is what Flaglight did before fans could choose: every session, green held, the last look left on.
 */

/** The kinds of session a fan can follow or not, in the order a settings screen lists them. */
export const FOLLOWED_SESSION_KINDS = [
  'practice',
  'qualifying',
  'sprint_qualifying',
  'sprint',
  'race',
] as const;
export type FollowedSessionKind = (typeof FOLLOWED_SESSION_KINDS)[number];

/** What the lights do once green has held `afterSeconds`. */
export const AFTER_GREEN_ACTIONS = ['keep', 'dim', 'give-back'] as const;
export type AfterGreenAction = (typeof AFTER_GREEN_ACTIONS)[number];

/**
 * What the lights do when the session ends: the room as it was before the session's first flag
 * (each light's own power, colour and brightness, read before Flaglight first changed it), off, or
 * the last look left on.
 */
export const SESSION_END_ACTIONS = ['as-it-was', 'off', 'leave'] as const;
export type SessionEndAction = (typeof SESSION_END_ACTIONS)[number];

/** The shortest and longest hold a fan can set before the after-green action (seconds). */
export const AFTER_GREEN_MIN_SECONDS = 5;
export const AFTER_GREEN_MAX_SECONDS = 3600;
/** The brightness (percent) a dimmed green settles at. */
export const AFTER_GREEN_DIM_PERCENT = 10;

export interface LightFollowSettings {
  /** The kinds of session that drive the lights; the others leave them alone. */
  sessions: FollowedSessionKind[];
  /** Once green has held `afterSeconds` (AFTER_GREEN_MIN_SECONDS…MAX): keep it, dim it, or give the room back. */
  afterGreen: { action: AfterGreenAction; afterSeconds: number };
  sessionEnd: SessionEndAction;
}

export const DEFAULT_LIGHT_FOLLOW: LightFollowSettings = {
  sessions: [...FOLLOWED_SESSION_KINDS],
  afterGreen: { action: 'keep', afterSeconds: 60 },
  sessionEnd: 'leave',
};

/** What a session says of itself: OpenF1's `session_name`/`session_type`, or F1 live timing's Name/Type. */
export interface SessionDescription {
  session_name?: string | null;
  session_type?: string | null;
}

/**
 * The kind of a session from its name (OpenF1 and F1 live timing both call a sprint's type "Race"
 * and a sprint qualifying's "Qualifying", so the name decides), or null when it says nothing known.
 * "Sprint Shootout" is 2023's name for sprint qualifying.
 */
export function getFollowedSessionKind(session: SessionDescription): FollowedSessionKind | null {
  const name = (session.session_name ?? '').trim().toLowerCase();
  const type = (session.session_type ?? '').trim().toLowerCase();
  if (/sprint\s*(qualifying|shootout)/.test(name)) return 'sprint_qualifying';
  if (/^sprint\b/.test(name)) return 'sprint';
  if (/practice|^fp\d/.test(name) || type === 'practice') return 'practice';
  if (/qualifying/.test(name) || type === 'qualifying') return 'qualifying';
  if (/race|grand prix/.test(name) || type === 'race') return 'race';
  return null;
}

/**
 * Whether a session drives the lights. A session whose kind cannot be told follows (a fan who left
 * every kind on expects the lights; one who turned some off still sees the session's flags on screen).
 */
export function isSessionFollowed(
  settings: LightFollowSettings | undefined,
  session: SessionDescription,
): boolean {
  const sessions = (settings ?? DEFAULT_LIGHT_FOLLOW).sessions;
  const kind = getFollowedSessionKind(session);
  return kind === null || sessions.includes(kind);
}
