import { describe, expect, test } from 'vitest';
import { createLightProgram } from '../effects/program.js';
import { EFFECT_FLAGS } from '../flags/types.js';
import {
  FLAG_LOOK_HOLD_MS,
  getMinimumEffectMs,
  getStrobeTiming,
  LOOK_BRIGHTNESS_MAX,
  LOOK_BRIGHTNESS_MIN,
} from './limits.js';
import { CALM, DEFAULT_LOOK_SET, LOOK_PRESET_IDS, LOOK_PRESETS, NIGHT_RACE, TRACKSIDE } from './presets.js';
import { LOOK_EFFECT_KINDS, type LookSet, type ShowLook } from './types.js';

const shownLooks = (set: LookSet) =>
  EFFECT_FLAGS.flatMap((flag) => {
    const look = set.flags[flag];
    return look.kind === 'show' ? [{ flag, look }] : [];
  });

const allSteps = (set: LookSet) =>
  EFFECT_FLAGS.flatMap((flag) => {
    const result = createLightProgram(flag, set);
    return result.ok ? result.program.steps : [];
  });

describe('look presets', () => {
  test('Trackside is the default, listed first; every preset has a unique id, a name and a line', () => {
    expect(DEFAULT_LOOK_SET).toBe(TRACKSIDE);
    expect(LOOK_PRESETS.map((preset) => preset.id)).toEqual([...LOOK_PRESET_IDS]);
    expect(LOOK_PRESETS[0]?.looks).toBe(TRACKSIDE);
    for (const preset of LOOK_PRESETS) expect(preset.name && preset.description).toBeTruthy();
  });

  test.each(LOOK_PRESETS)('$name gives every flag a look within its limits', ({ looks }) => {
    expect(Object.keys(looks.flags).sort()).toEqual([...EFFECT_FLAGS].sort());
    for (const { flag, look } of shownLooks(looks)) {
      expect(LOOK_EFFECT_KINDS).toContain(look.effect.kind);
      expect(look.effectMs).toBeGreaterThanOrEqual(getMinimumEffectMs(flag, look.effect));
      expect(look.effectMs).toBeLessThanOrEqual(FLAG_LOOK_HOLD_MS[flag]);
      for (const percent of [look.brightness, look.settleBrightness]) {
        expect(percent).toBeGreaterThanOrEqual(LOOK_BRIGHTNESS_MIN);
        expect(percent).toBeLessThanOrEqual(Math.min(LOOK_BRIGHTNESS_MAX, looks.brightnessCap));
      }
    }
  });

  test('Calm: no flashing, only steady colour or slow breaths, never above 60%', () => {
    expect(CALM.noFlashing).toBe(true);
    expect(CALM.brightnessCap).toBeLessThanOrEqual(60);
    expect(new Set(shownLooks(CALM).map(({ look }) => look.effect.kind))).toEqual(
      new Set(['steady', 'breathe']),
    );
    expect(allSteps(CALM).some((step) => step.kind === 'strobe')).toBe(false);
  });

  test('Night race: dim, no strobes, pulses at most one a second, fastest laps left alone', () => {
    expect(NIGHT_RACE.brightnessCap).toBeLessThanOrEqual(40);
    const effects = shownLooks(NIGHT_RACE).map(({ look }) => look.effect.kind);
    expect(effects).not.toContain('strobe');
    expect(effects).toContain('pulse');
    for (const step of allSteps(NIGHT_RACE))
      if (step.kind === 'strobe') expect(step.periodMs).toBeGreaterThanOrEqual(1000);
    expect(NIGHT_RACE.flags.fastest_lap).toEqual({ kind: 'leave' });
  });
});

describe('look limits', () => {
  test('a lasting flag holds an effect up to 30 s, the momentary fastest lap up to 10 s', () => {
    for (const flag of EFFECT_FLAGS)
      expect(FLAG_LOOK_HOLD_MS[flag]).toBe(flag === 'fastest_lap' ? 10_000 : 30_000);
  });

  test("the shortest effect: a steady fade, SPEC's whole strobe, the pulses at their fastest, one breath", () => {
    expect(getMinimumEffectMs('green', { kind: 'steady' })).toBe(200);
    expect(getMinimumEffectMs('fastest_lap', { kind: 'steady' })).toBe(0);
    expect(getMinimumEffectMs('red', { kind: 'strobe' })).toBe(1000);
    expect(getMinimumEffectMs('checkered', { kind: 'strobe' })).toBe(3000);
    expect(getMinimumEffectMs('yellow', { kind: 'pulse', count: 4 })).toBe(400);
    expect(getMinimumEffectMs('vsc', { kind: 'breathe' })).toBe(3000);
    expect(getStrobeTiming('safety')).toEqual({ periodMs: 100, cycles: 10 });
  });

  test('Trackside keeps every look as SPEC §4 words it', () => {
    const red = TRACKSIDE.flags.red as ShowLook;
    expect(red).toMatchObject({
      effect: { kind: 'strobe' },
      brightness: 100,
      effectMs: 1500,
      settleBrightness: 50,
    });
    expect(TRACKSIDE).toMatchObject({ noFlashing: false, brightnessCap: 100 });
  });
});
