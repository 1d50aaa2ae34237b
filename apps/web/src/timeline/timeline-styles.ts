import type { TimelineState } from '@flaglight/core';

/** Each period's colour: the flag swatches of flags/flag-styles.ts (literal, so Tailwind sees them). */
export const TIMELINE_SWATCHES: Readonly<Record<TimelineState, string>> = {
  green: 'bg-flag-green',
  yellow: 'bg-flag-yellow',
  safety_car: 'bg-flag-safety',
  vsc: 'bg-flag-vsc',
  red: 'bg-flag-red',
  checkered: 'bg-checkered',
};

/** A share of the strip as a CSS percentage. */
export const percentOf = (ms: number, lengthMs: number): string =>
  `${lengthMs > 0 ? Math.min(100, Math.max(0, (ms / lengthMs) * 100)) : 0}%`;
