import {
  CAUTION_SOLID_AFTER_MS,
  CAUTION_STROBE_CYCLES,
  CAUTION_STROBE_PERIOD_MS,
  CHECKERED_SOLID_AFTER_MS,
  CHECKERED_STROBE_CYCLES,
  CHECKERED_STROBE_PERIOD_MS,
  DIM_BRIGHTNESS,
  FASTEST_LAP_SHOW_MS,
  FULL_BRIGHTNESS,
  GREEN_DIM_AFTER_MS,
  GREEN_TRANSITION_MS,
  TEST_FLAG_HOLD_MS,
} from '../constants.js';
import { EFFECT_FLAGS, type EffectFlag } from '../flags/types.js';
import { COLOR_PRESETS, FASTEST_LAP_PURPLE, type LightColor } from './colors.js';

/**
 * One command of a light program. `atMs` is the offset from the flag's start, so a player
 * schedules every step against one clock instead of chaining waits (no drift).
 */
export type LightStep =
  | {
      kind: 'set-state';
      atMs: number;
      color: LightColor;
      brightness: number;
      /** Fade time of the change. */
      transitionMs: number;
    }
  | {
      /**
       * Alternates `color` and `fromColor` every half period for `cycles` periods. LIFX cloud
       * sends it as one pulse request (color, from_color, period s, cycles); Hue and the
       * screen play it as 2 × cycles state changes.
       */
      kind: 'strobe';
      atMs: number;
      color: LightColor;
      fromColor: LightColor;
      brightness: number;
      periodMs: number;
      cycles: number;
    }
  | {
      /** Return to the lasting state's look (after the momentary fastest lap). */
      kind: 'restore';
      atMs: number;
    };

export interface LightProgram {
  flag: EffectFlag;
  steps: LightStep[];
  /** When the last step has finished. */
  durationMs: number;
}

export type EffectResult = { ok: true; program: LightProgram } | { ok: false; warning: string };

/** True for the flags SPEC §4 gives an effect. */
export function isEffectFlag(flag: unknown): flag is EffectFlag {
  return typeof flag === 'string' && (EFFECT_FLAGS as readonly string[]).includes(flag);
}

function steady(color: LightColor): LightStep[] {
  return [
    { kind: 'set-state', atMs: 0, color, brightness: FULL_BRIGHTNESS, transitionMs: GREEN_TRANSITION_MS },
    { kind: 'set-state', atMs: GREEN_DIM_AFTER_MS, color, brightness: DIM_BRIGHTNESS, transitionMs: 0 },
  ];
}

function caution(color: LightColor): LightStep[] {
  return [
    {
      kind: 'strobe',
      atMs: 0,
      color,
      fromColor: COLOR_PRESETS.black,
      brightness: FULL_BRIGHTNESS,
      periodMs: CAUTION_STROBE_PERIOD_MS,
      cycles: CAUTION_STROBE_CYCLES,
    },
    { kind: 'set-state', atMs: CAUTION_SOLID_AFTER_MS, color, brightness: DIM_BRIGHTNESS, transitionMs: 0 },
  ];
}

function stepEnd(step: LightStep): number {
  if (step.kind === 'strobe') return step.atMs + step.periodMs * step.cycles;
  if (step.kind === 'set-state') return step.atMs + step.transitionMs;
  return step.atMs;
}

function stepsFor(flag: EffectFlag): LightStep[] {
  switch (flag) {
    case 'green':
      return steady(COLOR_PRESETS.green);
    case 'yellow':
    case 'safety':
      return caution(COLOR_PRESETS.yellow);
    case 'red':
      return caution(COLOR_PRESETS.red);
    case 'vsc':
    case 'vsc_ending':
      return steady(COLOR_PRESETS.orange);
    case 'fastest_lap':
      return [
        {
          kind: 'set-state',
          atMs: 0,
          color: FASTEST_LAP_PURPLE,
          brightness: FULL_BRIGHTNESS,
          transitionMs: 0,
        },
        { kind: 'restore', atMs: FASTEST_LAP_SHOW_MS },
      ];
    case 'checkered':
      return [
        {
          kind: 'strobe',
          atMs: 0,
          color: COLOR_PRESETS.white,
          fromColor: COLOR_PRESETS.black,
          brightness: FULL_BRIGHTNESS,
          periodMs: CHECKERED_STROBE_PERIOD_MS,
          cycles: CHECKERED_STROBE_CYCLES,
        },
        {
          kind: 'set-state',
          atMs: CHECKERED_SOLID_AFTER_MS,
          color: COLOR_PRESETS.white,
          brightness: FULL_BRIGHTNESS,
          transitionMs: 0,
        },
      ];
  }
}

/**
 * SPEC §4 "Light effects": the timed program for a flag. An unknown flag gives a warning and no
 * program (the caller logs it and ignores the flag).
 */
export function createLightProgram(flag: unknown): EffectResult {
  if (!isEffectFlag(flag)) return { ok: false, warning: `Unknown flag type: ${String(flag)}` };
  const steps = stepsFor(flag);
  return { ok: true, program: { flag, steps, durationMs: Math.max(...steps.map(stepEnd)) } };
}

/**
 * A test of a flag (SPEC §2 "Test your lights"): its effect, its settled look held for
 * TEST_FLAG_HOLD_MS, then a `restore` to the flag the lights showed before it. A test is momentary:
 * it never becomes the lights' lasting flag, so the race's own flag comes back.
 */
export function createTestProgram(flag: unknown): EffectResult {
  const result = createLightProgram(flag);
  if (!result.ok) return result;
  const restoreAt = result.program.durationMs + TEST_FLAG_HOLD_MS;
  return {
    ok: true,
    program: {
      flag: result.program.flag,
      steps: [
        ...result.program.steps.filter((step) => step.kind !== 'restore'),
        { kind: 'restore', atMs: restoreAt },
      ],
      durationMs: restoreAt,
    },
  };
}

/**
 * The look a flag settles on (the last set-state), used to restore after a fastest lap and by
 * drivers that cannot play timed effects.
 */
export function getSettledLook(flag: EffectFlag): { color: LightColor; brightness: number } | null {
  const settled = stepsFor(flag)
    .filter((step): step is Extract<LightStep, { kind: 'set-state' }> => step.kind === 'set-state')
    .at(-1);
  return flag === 'fastest_lap' || settled === undefined
    ? null
    : { color: settled.color, brightness: settled.brightness };
}
