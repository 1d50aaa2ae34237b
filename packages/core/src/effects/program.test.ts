import { describe, expect, test } from 'vitest';
import { TEST_FLAG_HOLD_MS } from '../constants.js';
import { EFFECT_FLAGS } from '../flags/types.js';
import { COLOR_PRESETS, FASTEST_LAP_PURPLE } from './colors.js';
import {
  createLightProgram,
  createTestProgram,
  getSettledLook,
  isEffectFlag,
  type LightProgram,
} from './program.js';

function program(flag: string): LightProgram {
  const result = createLightProgram(flag);
  if (!result.ok) throw new Error(result.warning);
  return result.program;
}

describe('SPEC §4 light effects', () => {
  test('green: full brightness over 0.2 s, then 50% after 5 s', () => {
    expect(program('green').steps).toEqual([
      { kind: 'set-state', atMs: 0, color: COLOR_PRESETS.green, brightness: 1, transitionMs: 200 },
      { kind: 'set-state', atMs: 5000, color: COLOR_PRESETS.green, brightness: 0.5, transitionMs: 0 },
    ]);
    expect(program('green').durationMs).toBe(5000);
  });

  test.each([
    ['yellow', COLOR_PRESETS.yellow],
    ['safety', COLOR_PRESETS.yellow],
    ['red', COLOR_PRESETS.red],
  ])('%s: 1 s strobe (0.1 s period, 10 cycles), then solid 50% after 1.5 s', (flag, color) => {
    expect(program(flag).steps).toEqual([
      {
        kind: 'strobe',
        atMs: 0,
        color,
        fromColor: COLOR_PRESETS.black,
        brightness: 1,
        periodMs: 100,
        cycles: 10,
      },
      { kind: 'set-state', atMs: 1500, color, brightness: 0.5, transitionMs: 0 },
    ]);
  });

  test('the caution strobe lasts exactly 1 s', () => {
    const [strobe] = program('red').steps;
    expect(strobe?.kind === 'strobe' && strobe.periodMs * strobe.cycles).toBe(1000);
  });

  test.each(['vsc', 'vsc_ending'])('%s is orange', (flag) => {
    const colors = program(flag).steps.map((step) => (step.kind === 'set-state' ? step.color : null));
    expect(colors).toEqual([COLOR_PRESETS.orange, COLOR_PRESETS.orange]);
  });

  test('fastest_lap is purple, not a preset, then returns to the lasting state', () => {
    expect(program('fastest_lap').steps).toEqual([
      { kind: 'set-state', atMs: 0, color: FASTEST_LAP_PURPLE, brightness: 1, transitionMs: 0 },
      { kind: 'restore', atMs: 3000 },
    ]);
    expect(Object.keys(COLOR_PRESETS)).not.toContain('purple');
  });

  test('checkered: white/black strobe, 0.2 s period, 15 cycles, then solid white after 3.5 s', () => {
    expect(program('checkered').steps).toEqual([
      {
        kind: 'strobe',
        atMs: 0,
        color: COLOR_PRESETS.white,
        fromColor: COLOR_PRESETS.black,
        brightness: 1,
        periodMs: 200,
        cycles: 15,
      },
      { kind: 'set-state', atMs: 3500, color: COLOR_PRESETS.white, brightness: 1, transitionMs: 0 },
    ]);
  });

  test.each(['blue', '', 'GREEN', null, 42])('unknown flag %j gives a warning and no program', (flag) => {
    const result = createLightProgram(flag);
    expect(result.ok).toBe(false);
    expect(result).toHaveProperty('warning');
    expect(isEffectFlag(flag)).toBe(false);
  });

  test('every program step is in offset order', () => {
    for (const flag of [
      'green',
      'red',
      'yellow',
      'checkered',
      'safety',
      'vsc',
      'vsc_ending',
      'fastest_lap',
    ]) {
      const offsets = program(flag).steps.map((step) => step.atMs);
      expect(offsets).toEqual([...offsets].sort((a, b) => a - b));
    }
  });

  test('the settled look is what a flag ends on; a fastest lap has none', () => {
    expect(getSettledLook('red')).toEqual({ color: COLOR_PRESETS.red, brightness: 0.5 });
    expect(getSettledLook('checkered')).toEqual({ color: COLOR_PRESETS.white, brightness: 1 });
    expect(getSettledLook('fastest_lap')).toBeNull();
  });
});

describe('colour presets', () => {
  test('red 0, orange 30, yellow 60, green 120, blue 240, plus white and black', () => {
    expect(Object.fromEntries(Object.entries(COLOR_PRESETS).map(([name, c]) => [name, c.hue]))).toEqual({
      red: 0,
      orange: 30,
      yellow: 60,
      green: 120,
      blue: 240,
      white: 0,
      black: 0,
    });
    expect(COLOR_PRESETS.white.saturation).toBe(0);
    expect(COLOR_PRESETS.black.off).toBe(true);
  });
});

describe('test flags', () => {
  test('a test plays the flag, holds its look, then restores the lasting flag', () => {
    for (const flag of EFFECT_FLAGS) {
      const plain = createLightProgram(flag);
      const tested = createTestProgram(flag);
      if (!plain.ok || !tested.ok) throw new Error(flag);
      const restoreAt = plain.program.durationMs + TEST_FLAG_HOLD_MS;
      expect(tested.program.durationMs).toBe(restoreAt);
      expect(tested.program.steps.at(-1)).toEqual({ kind: 'restore', atMs: restoreAt });
      expect(tested.program.steps.filter((step) => step.kind === 'restore')).toHaveLength(1);
    }
  });

  test('an unknown flag is a warning, as for a race flag', () => {
    expect(createTestProgram('purple')).toEqual({ ok: false, warning: 'Unknown flag type: purple' });
  });
});
