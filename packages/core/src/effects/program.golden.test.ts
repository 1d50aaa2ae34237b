import { describe, expect, test } from 'vitest';
import { EFFECT_FLAGS, type EffectFlag } from '../flags/types.js';
import { TRACKSIDE } from '../looks/presets.js';
import type { LookSet } from '../looks/types.js';
import { createLightProgram, createTestProgram, getSettledLook, type LightProgram } from './program.js';

/*
 * The programs every flag played before fans could choose their looks, written out by hand from
 * that code: the Trackside look set must play exactly these, step for step, so that accounts which
 * never chose a look see no change at all.
 */

const green = { name: 'green', hue: 120, saturation: 1 };
const yellow = { name: 'yellow', hue: 60, saturation: 1 };
const red = { name: 'red', hue: 0, saturation: 1 };
const orange = { name: 'orange', hue: 30, saturation: 1 };
const white = { name: 'white', hue: 0, saturation: 0 };
const black = { name: 'black', hue: 0, saturation: 0, off: true };
const purple = { name: 'purple', hue: 280, saturation: 1 };

const steadyThenDim = (color: typeof green) => [
  { kind: 'set-state', atMs: 0, color, brightness: 1, transitionMs: 200 },
  { kind: 'set-state', atMs: 5000, color, brightness: 0.5, transitionMs: 0 },
];
const cautionStrobe = (color: typeof green) => [
  { kind: 'strobe', atMs: 0, color, fromColor: black, brightness: 1, periodMs: 100, cycles: 10 },
  { kind: 'set-state', atMs: 1500, color, brightness: 0.5, transitionMs: 0 },
];
const checkeredStrobe = [
  { kind: 'strobe', atMs: 0, color: white, fromColor: black, brightness: 1, periodMs: 200, cycles: 15 },
  { kind: 'set-state', atMs: 3500, color: white, brightness: 1, transitionMs: 0 },
];

const FROZEN_PROGRAMS: Record<EffectFlag, { steps: unknown[]; durationMs: number }> = {
  green: { steps: steadyThenDim(green), durationMs: 5000 },
  red: { steps: cautionStrobe(red), durationMs: 1500 },
  yellow: { steps: cautionStrobe(yellow), durationMs: 1500 },
  checkered: { steps: checkeredStrobe, durationMs: 3500 },
  safety: { steps: cautionStrobe(yellow), durationMs: 1500 },
  vsc: { steps: steadyThenDim(orange), durationMs: 5000 },
  vsc_ending: { steps: steadyThenDim(orange), durationMs: 5000 },
  fastest_lap: {
    steps: [
      { kind: 'set-state', atMs: 0, color: purple, brightness: 1, transitionMs: 0 },
      { kind: 'restore', atMs: 3000 },
    ],
    durationMs: 3000,
  },
};

/** A test holds the settled look 3 s after the effect, then restores (the flag's own restore dropped). */
const FROZEN_TESTS: Record<EffectFlag, { steps: unknown[]; durationMs: number }> = {
  green: { steps: [...steadyThenDim(green), { kind: 'restore', atMs: 8000 }], durationMs: 8000 },
  red: { steps: [...cautionStrobe(red), { kind: 'restore', atMs: 4500 }], durationMs: 4500 },
  yellow: { steps: [...cautionStrobe(yellow), { kind: 'restore', atMs: 4500 }], durationMs: 4500 },
  checkered: { steps: [...checkeredStrobe, { kind: 'restore', atMs: 6500 }], durationMs: 6500 },
  safety: { steps: [...cautionStrobe(yellow), { kind: 'restore', atMs: 4500 }], durationMs: 4500 },
  vsc: { steps: [...steadyThenDim(orange), { kind: 'restore', atMs: 8000 }], durationMs: 8000 },
  vsc_ending: { steps: [...steadyThenDim(orange), { kind: 'restore', atMs: 8000 }], durationMs: 8000 },
  fastest_lap: {
    steps: [
      { kind: 'set-state', atMs: 0, color: purple, brightness: 1, transitionMs: 0 },
      { kind: 'restore', atMs: 6000 },
    ],
    durationMs: 6000,
  },
};

const FROZEN_SETTLED: Record<EffectFlag, { color: unknown; brightness: number } | null> = {
  green: { color: green, brightness: 0.5 },
  red: { color: red, brightness: 0.5 },
  yellow: { color: yellow, brightness: 0.5 },
  checkered: { color: white, brightness: 1 },
  safety: { color: yellow, brightness: 0.5 },
  vsc: { color: orange, brightness: 0.5 },
  vsc_ending: { color: orange, brightness: 0.5 },
  fastest_lap: null,
};

function unwrap(result: ReturnType<typeof createLightProgram>): LightProgram {
  if (!result.ok) throw new Error(result.warning);
  return result.program;
}

const withoutLookSet = { name: 'no look set', looks: undefined };
const trackside = { name: 'the Trackside look set', looks: TRACKSIDE };

describe.each([withoutLookSet, trackside])('golden programs with $name', ({ looks }: { looks?: LookSet }) => {
  test.each(EFFECT_FLAGS)('%s plays exactly what it played before looks existed', (flag) => {
    expect(unwrap(createLightProgram(flag, looks))).toEqual({ flag, ...FROZEN_PROGRAMS[flag] });
  });

  test.each(EFFECT_FLAGS)('a test of %s plays exactly what it played before looks existed', (flag) => {
    expect(unwrap(createTestProgram(flag, looks))).toEqual({ flag, ...FROZEN_TESTS[flag] });
  });

  test.each(EFFECT_FLAGS)('%s settles on exactly the look it settled on before', (flag) => {
    expect(getSettledLook(flag, looks)).toEqual(FROZEN_SETTLED[flag]);
  });
});
