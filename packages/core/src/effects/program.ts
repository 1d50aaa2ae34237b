import { TEST_FLAG_HOLD_MS } from '../constants.js';
import { EFFECT_FLAGS, isMomentary, type EffectFlag } from '../flags/types.js';
import { DEFAULT_LOOK_SET } from '../looks/presets.js';
import { createLookSteps } from '../looks/steps.js';
import type { LookSet } from '../looks/types.js';
import type { LightColor } from './colors.js';
import type { EffectResult, LightStep } from './light-step.js';

export type { EffectResult, LightProgram, LightStep } from './light-step.js';

/** True for the flags SPEC §4 gives an effect. */
export function isEffectFlag(flag: unknown): flag is EffectFlag {
  return typeof flag === 'string' && (EFFECT_FLAGS as readonly string[]).includes(flag);
}

function stepEnd(step: LightStep): number {
  if (step.kind === 'strobe') return step.atMs + step.periodMs * step.cycles;
  if (step.kind === 'set-state') return step.atMs + step.transitionMs;
  return step.atMs;
}

function stepsFor(flag: EffectFlag, lookSet: LookSet): LightStep[] {
  const look = lookSet.flags[flag];
  return look.kind === 'leave' ? [] : createLookSteps(flag, look, lookSet);
}

/**
 * The timed program for a flag in a fan's look set; without one, or with TRACKSIDE, exactly SPEC §4
 * "Light effects". An unknown flag gives a warning and no program (the caller logs it and ignores
 * the flag). A flag the set leaves alone (`{ kind: 'leave' }`) is ok with no steps and a duration of
 * 0: a player then changes nothing, and the lights keep what they showed.
 */
export function createLightProgram(flag: unknown, lookSet: LookSet = DEFAULT_LOOK_SET): EffectResult {
  if (!isEffectFlag(flag)) return { ok: false, warning: `Unknown flag type: ${String(flag)}` };
  const steps = stepsFor(flag, lookSet);
  return { ok: true, program: { flag, steps, durationMs: Math.max(0, ...steps.map(stepEnd)) } };
}

/**
 * A test of a flag (SPEC §2 "Test your lights"): its effect, its settled look held for
 * TEST_FLAG_HOLD_MS, then a `restore` to the flag the lights showed before it. A test is momentary:
 * it never becomes the lights' lasting flag, so the race's own flag comes back. A flag the look set
 * leaves alone tests as no steps at all: nothing changed, so nothing is restored.
 */
export function createTestProgram(flag: unknown, lookSet: LookSet = DEFAULT_LOOK_SET): EffectResult {
  const result = createLightProgram(flag, lookSet);
  if (!result.ok || result.program.steps.length === 0) return result;
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
 * drivers that cannot play timed effects. Null for the momentary fastest lap and for a flag the look
 * set leaves alone.
 */
export function getSettledLook(
  flag: EffectFlag,
  lookSet: LookSet = DEFAULT_LOOK_SET,
): { color: LightColor; brightness: number } | null {
  const settled = stepsFor(flag, lookSet)
    .filter((step): step is Extract<LightStep, { kind: 'set-state' }> => step.kind === 'set-state')
    .at(-1);
  return isMomentary(flag) || settled === undefined
    ? null
    : { color: settled.color, brightness: settled.brightness };
}
