import type { LightStep } from '@flaglight/core';

type Strobe = Extract<LightStep, { kind: 'strobe' }>;
type SetState = Extract<LightStep, { kind: 'set-state' }>;

/**
 * A strobe as timed set-states: `color` and `fromColor` alternate every half period, starting with
 * `color`. When a driver cannot change that fast (`minHalfPeriodMs`), the half period stretches and
 * the strobe keeps its total length with fewer flashes.
 */
export function expandStrobe(step: Strobe, minHalfPeriodMs = 0): SetState[] {
  const total = step.periodMs * step.cycles;
  const half = Math.max(step.periodMs / 2, minHalfPeriodMs);
  const count = Math.max(1, Math.floor(total / half + 1e-9));
  return Array.from({ length: count }, (_, k) => ({
    kind: 'set-state' as const,
    atMs: step.atMs + k * half,
    color: k % 2 === 0 ? step.color : step.fromColor,
    brightness: step.brightness,
    transitionMs: 0,
  }));
}
