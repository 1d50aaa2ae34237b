import { describe, expect, test } from 'vitest';
import { COLOR_PRESETS, FASTEST_LAP_PURPLE } from '../effects/colors.js';
import {
  createLightProgram,
  createTestProgram,
  getSettledLook,
  type LightProgram,
} from '../effects/program.js';
import { EFFECT_FLAGS, type EffectFlag } from '../flags/types.js';
import { TRACKSIDE } from './presets.js';
import type { FlagLook, LookEffect, LookSet, ShowLook } from './types.js';

const red = COLOR_PRESETS.red;
const black = COLOR_PRESETS.black;

const look = (effect: LookEffect, over: Partial<ShowLook> = {}): ShowLook => ({
  kind: 'show',
  color: red,
  brightness: 80,
  effect,
  effectMs: 3000,
  settleBrightness: 40,
  ...over,
});

/** Trackside with one flag's look replaced. */
const setWith = (flag: EffectFlag, flagLook: FlagLook, over: Partial<LookSet> = {}): LookSet => ({
  ...TRACKSIDE,
  flags: { ...TRACKSIDE.flags, [flag]: flagLook },
  ...over,
});

function program(flag: EffectFlag, lookSet: LookSet): LightProgram {
  const result = createLightProgram(flag, lookSet);
  if (!result.ok) throw new Error(result.warning);
  return result.program;
}

describe('each effect as steps', () => {
  test('steady fades in over 0.2 s at its brightness, then settles at effectMs', () => {
    expect(program('red', setWith('red', look({ kind: 'steady' }))).steps).toEqual([
      { kind: 'set-state', atMs: 0, color: red, brightness: 0.8, transitionMs: 200 },
      { kind: 'set-state', atMs: 3000, color: red, brightness: 0.4, transitionMs: 0 },
    ]);
  });

  test("a strobe is SPEC's: the caution strobe on any flag but chequered, the chequered one there", () => {
    const green = program('green', setWith('green', look({ kind: 'strobe' })));
    expect(green.steps[0]).toMatchObject({ kind: 'strobe', fromColor: black, periodMs: 100, cycles: 10 });
    const checkered = program(
      'checkered',
      setWith('checkered', look({ kind: 'strobe' }, { effectMs: 4000 })),
    );
    expect(checkered.steps[0]).toMatchObject({ kind: 'strobe', color: red, periodMs: 200, cycles: 15 });
    expect(checkered.steps[1]).toMatchObject({ kind: 'set-state', atMs: 4000, brightness: 0.4 });
  });

  test('pulses are spread over effectMs as one on-off strobe step', () => {
    expect(program('red', setWith('red', look({ kind: 'pulse', count: 3 }))).steps).toEqual([
      { kind: 'strobe', atMs: 0, color: red, fromColor: black, brightness: 0.8, periodMs: 1000, cycles: 3 },
      { kind: 'set-state', atMs: 3000, color: red, brightness: 0.4, transitionMs: 0 },
    ]);
  });

  test("pulses are never faster than SPEC's strobe: too short an effectMs settles when they end", () => {
    const steps = program('red', setWith('red', look({ kind: 'pulse', count: 10 }, { effectMs: 500 }))).steps;
    expect(steps[0]).toMatchObject({ periodMs: 100, cycles: 10 });
    expect(steps[1]).toMatchObject({ kind: 'set-state', atMs: 1000 });
  });

  test('breathe fades up and down for the whole breaths that fit, down to a fifth of its brightness', () => {
    const steps = program(
      'red',
      setWith('red', look({ kind: 'breathe' }, { effectMs: 7000, brightness: 60 })),
    ).steps;
    expect(steps).toEqual([
      { kind: 'set-state', atMs: 0, color: red, brightness: 0.6, transitionMs: 1500 },
      { kind: 'set-state', atMs: 1500, color: red, brightness: 0.12, transitionMs: 1500 },
      { kind: 'set-state', atMs: 3000, color: red, brightness: 0.6, transitionMs: 1500 },
      { kind: 'set-state', atMs: 4500, color: red, brightness: 0.12, transitionMs: 1500 },
      { kind: 'set-state', atMs: 7000, color: red, brightness: 0.4, transitionMs: 0 },
    ]);
  });

  test('a breath shorter than one takes one, and its bottom is never below 1%', () => {
    const steps = program(
      'red',
      setWith('red', look({ kind: 'breathe' }, { effectMs: 0, brightness: 3 })),
    ).steps;
    expect(steps.map((step) => [step.atMs, step.kind === 'set-state' && step.brightness])).toEqual([
      [0, 0.03],
      [1500, 0.01],
      [3000, 0.4],
    ]);
  });

  test('a fastest lap snaps in and gives the lights back at effectMs, whatever its effect', () => {
    const steady = program(
      'fastest_lap',
      setWith('fastest_lap', look({ kind: 'steady' }, { color: FASTEST_LAP_PURPLE })),
    );
    expect(steady.steps).toEqual([
      { kind: 'set-state', atMs: 0, color: FASTEST_LAP_PURPLE, brightness: 0.8, transitionMs: 0 },
      { kind: 'restore', atMs: 3000 },
    ]);
    const strobe = program('fastest_lap', setWith('fastest_lap', look({ kind: 'strobe' }, { effectMs: 0 })));
    expect(strobe.steps.at(-1)).toEqual({ kind: 'restore', atMs: 1000 });
    expect(getSettledLook('fastest_lap', setWith('fastest_lap', look({ kind: 'steady' })))).toBeNull();
  });

  test('no step is brighter than the cap, the settled look included', () => {
    const capped = setWith('red', look({ kind: 'steady' }, { brightness: 100, settleBrightness: 90 }), {
      brightnessCap: 30,
    });
    expect(program('red', capped).steps.map((step) => step.kind === 'set-state' && step.brightness)).toEqual([
      0.3, 0.3,
    ]);
    expect(
      program('checkered', capped).steps.map((step) => step.kind !== 'restore' && step.brightness),
    ).toEqual([0.3, 0.3]);
    expect(getSettledLook('red', capped)).toEqual({ color: red, brightness: 0.3 });
  });
});

describe('a flag left alone', () => {
  const leaveAll: LookSet = {
    ...TRACKSIDE,
    flags: Object.fromEntries(EFFECT_FLAGS.map((flag) => [flag, { kind: 'leave' }])) as LookSet['flags'],
  };

  test.each(EFFECT_FLAGS)(
    '%s plays a program with no steps, tests as one, and settles on nothing',
    (flag) => {
      expect(createLightProgram(flag, leaveAll)).toEqual({
        ok: true,
        program: { flag, steps: [], durationMs: 0 },
      });
      expect(createTestProgram(flag, leaveAll)).toEqual({
        ok: true,
        program: { flag, steps: [], durationMs: 0 },
      });
      expect(getSettledLook(flag, leaveAll)).toBeNull();
    },
  );

  test('leaving one flag changes no other', () => {
    const leaveGreen = setWith('green', { kind: 'leave' });
    for (const flag of EFFECT_FLAGS.filter((f) => f !== 'green'))
      expect(createLightProgram(flag, leaveGreen)).toEqual(createLightProgram(flag));
  });

  test('an unknown flag is still a warning, whatever the look set', () => {
    expect(createLightProgram('blue', leaveAll)).toEqual({ ok: false, warning: 'Unknown flag type: blue' });
  });
});
