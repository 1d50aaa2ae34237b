import { COLOR_PRESETS, type LightColor } from '../effects/colors.js';
import type { LightStep } from '../effects/light-step.js';
import { isMomentary, type EffectFlag } from '../flags/types.js';
import {
  BREATHE_LOW_RATIO,
  BREATHE_PERIOD_MS,
  LOOK_BRIGHTNESS_MIN,
  NO_FLASH_MIN_PERIOD_MS,
  PULSE_MIN_PERIOD_MS,
  getSteadyFadeMs,
  getStrobeTiming,
} from './limits.js';
import type { LookEffect, LookSet, ShowLook } from './types.js';

/** What a look's effect plays from 0, and when its last change has finished. */
interface EffectSteps {
  steps: LightStep[];
  endMs: number;
}

/** Everything an effect needs: the flag, the look, the colour and the capped step brightness. */
interface EffectInput {
  flag: EffectFlag;
  look: ShowLook;
  color: LightColor;
  noFlashing: boolean;
  level: (percent: number) => number;
}

function steadySteps({ flag, look, color, level }: EffectInput): EffectSteps {
  const transitionMs = getSteadyFadeMs(flag);
  return {
    steps: [{ kind: 'set-state', atMs: 0, color, brightness: level(look.brightness), transitionMs }],
    endMs: transitionMs,
  };
}

/** On-off alternation as one strobe step, so LIFX's cloud still sends it as one request. */
function onOffSteps(input: EffectInput, periodMs: number, cycles: number): EffectSteps {
  const step: LightStep = {
    kind: 'strobe',
    atMs: 0,
    color: input.color,
    fromColor: COLOR_PRESETS.black,
    brightness: input.level(input.look.brightness),
    periodMs,
    cycles,
  };
  return { steps: [step], endMs: periodMs * cycles };
}

/** The pulses spread over `effectMs`; slowed to NO_FLASH_MIN_PERIOD_MS with no flashing. */
function pulseSteps(input: EffectInput, count: number): EffectSteps {
  const spread = Math.floor(input.look.effectMs / count);
  const floor = input.noFlashing ? NO_FLASH_MIN_PERIOD_MS : PULSE_MIN_PERIOD_MS;
  return onOffSteps(input, Math.max(spread, floor), count);
}

/** Whole breaths that fit in `effectMs` (at least one): a fade up, then a fade down, each half a breath. */
function breatheSteps({ look, color, level }: EffectInput): EffectSteps {
  const breaths = Math.max(1, Math.floor(look.effectMs / BREATHE_PERIOD_MS));
  const halfMs = BREATHE_PERIOD_MS / 2;
  const low = level(Math.max(LOOK_BRIGHTNESS_MIN, look.brightness * BREATHE_LOW_RATIO));
  const steps = Array.from({ length: breaths }, (_, i): LightStep[] => [
    {
      kind: 'set-state',
      atMs: i * BREATHE_PERIOD_MS,
      color,
      brightness: level(look.brightness),
      transitionMs: halfMs,
    },
    { kind: 'set-state', atMs: i * BREATHE_PERIOD_MS + halfMs, color, brightness: low, transitionMs: halfMs },
  ]).flat();
  return { steps, endMs: breaths * BREATHE_PERIOD_MS };
}

/** With no flashing a strobe plays as the steady look; the other effects adapt their own timing. */
function effectToPlay(effect: LookEffect, noFlashing: boolean): LookEffect {
  return noFlashing && effect.kind === 'strobe' ? { kind: 'steady' } : effect;
}

function effectSteps(input: EffectInput): EffectSteps {
  const effect = effectToPlay(input.look.effect, input.noFlashing);
  switch (effect.kind) {
    case 'steady':
      return steadySteps(input);
    case 'strobe': {
      const { periodMs, cycles } = getStrobeTiming(input.flag);
      return onOffSteps(input, periodMs, cycles);
    }
    case 'pulse':
      return pulseSteps(input, effect.count);
    case 'breathe':
      return breatheSteps(input);
  }
}

/**
 * The steps of a flag's look: its effect from 0, then at `effectMs` (or when the effect has ended, if
 * later) the settled look, or for the momentary fastest lap a `restore` of the lasting flag's look.
 * No step is brighter than the set's `brightnessCap`.
 */
export function createLookSteps(flag: EffectFlag, look: ShowLook, lookSet: LookSet): LightStep[] {
  const level = (percent: number) => Math.min(percent, lookSet.brightnessCap) / 100;
  const color: LightColor = look.color;
  const effect = effectSteps({ flag, look, color, noFlashing: lookSet.noFlashing, level });
  const settleAt = Math.max(look.effectMs, effect.endMs);
  const settle: LightStep = isMomentary(flag)
    ? { kind: 'restore', atMs: settleAt }
    : {
        kind: 'set-state',
        atMs: settleAt,
        color,
        brightness: level(look.settleBrightness),
        transitionMs: 0,
      };
  return [...effect.steps, settle];
}
