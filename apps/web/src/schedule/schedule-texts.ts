import type { SessionKind } from '@flaglight/core';

/** SPEC §8 schedule texts, verbatim. */
export const SCHEDULE_TEXTS = {
  failed: 'Failed to load race schedule',
  empty: 'No race schedule available',
  fallback: 'Using fallback data',
  loading: 'Loading the race schedule…',
  nextRace: 'Next race',
} as const;

/** SPEC §9 session colours (practice blue, qualifying purple, sprint orange, sprint qualifying pink, race green). */
export const SESSION_COLOR_VALUES: Record<string, string> = {
  blue: '#4da3ff',
  purple: 'var(--color-flag-fastest-lap)',
  orange: 'var(--color-flag-vsc)',
  pink: '#ff5fa2',
  green: 'var(--color-flag-green)',
};

export const SESSION_KIND_LABELS: Record<SessionKind, string> = {
  practice: 'Practice',
  qualifying: 'Qualifying',
  sprint: 'Sprint',
  'sprint-qualifying': 'Sprint Qualifying',
  race: 'Race',
};
