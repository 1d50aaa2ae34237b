import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { lookSetArbitrary } from '../../test-support/index.js';
import { SECOND_MS } from '../constants.js';
import { COLOR_PRESETS } from '../effects/colors.js';
import type { LightProgram, LightStep } from '../effects/light-step.js';
import { createLightProgram, createTestProgram } from '../effects/program.js';
import { EFFECT_FLAGS } from '../flags/types.js';
import { getMinimumEffectMs, NO_FLASH_MAX_CHANGES_PER_SECOND } from './limits.js';
import { TRACKSIDE } from './presets.js';
import type { LookSet, ShowLook } from './types.js';

/** Any look the types allow: effectMs from 0 (below an effect's minimum too) up to the flag's hold. */
const lookSet = (noFlashing = fc.boolean()): fc.Arbitrary<LookSet> =>
  lookSetArbitrary({ noFlashing, effectMs: 'any' });

/** Every program a look set makes: each flag's, and each flag's test. */
function programsOf(looks: LookSet): LightProgram[] {
  return EFFECT_FLAGS.flatMap((flag) =>
    [createLightProgram(flag, looks), createTestProgram(flag, looks)].map((result) => {
      if (!result.ok) throw new Error(result.warning);
      return result.program;
    }),
  );
}

/** When each change of brightness or colour happens: a strobe makes two a period, spread over it. */
function changeTimes(steps: LightStep[]): number[] {
  return steps.flatMap((step) =>
    step.kind === 'strobe'
      ? Array.from({ length: 2 * step.cycles }, (_, k) => step.atMs + (k * step.periodMs) / 2)
      : [step.atMs],
  );
}

/** The most changes in any one second; the busiest window starts at a change. */
function busiestSecond(steps: LightStep[]): number {
  const times = changeTimes(steps).sort((a, b) => a - b);
  return Math.max(
    0,
    ...times.map((start) => times.filter((t) => t >= start && t < start + SECOND_MS).length),
  );
}

function stepEnd(step: LightStep): number {
  if (step.kind === 'strobe') return step.atMs + step.periodMs * step.cycles;
  return step.atMs + (step.kind === 'set-state' ? step.transitionMs : 0);
}

describe('look sets, for any looks a fan can choose', () => {
  test('with no flashing, no second of any program has more than 3 changes (WCAG 2.3.1)', () => {
    fc.assert(
      fc.property(lookSet(fc.constant(true)), (looks) => {
        for (const program of programsOf(looks))
          expect(busiestSecond(program.steps), program.flag).toBeLessThanOrEqual(
            NO_FLASH_MAX_CHANGES_PER_SECOND,
          );
      }),
    );
  });

  test('no step of any program is brighter than the cap', () => {
    fc.assert(
      fc.property(lookSet(), (looks) => {
        for (const step of programsOf(looks).flatMap((program) => program.steps))
          if (step.kind !== 'restore') expect(step.brightness).toBeLessThanOrEqual(looks.brightnessCap / 100);
      }),
    );
  });

  test('every program is finite, its steps in order, and over when its last step is', () => {
    fc.assert(
      fc.property(lookSet(), (looks) => {
        for (const { steps, durationMs } of programsOf(looks)) {
          const numbers = steps.flatMap((step) => Object.values(step).filter((v) => typeof v === 'number'));
          expect(numbers.every((n) => Number.isFinite(n) && n >= 0)).toBe(true);
          const offsets = steps.map((step) => step.atMs);
          expect(offsets).toEqual([...offsets].sort((a, b) => a - b));
          expect(durationMs).toBe(Math.max(0, ...steps.map(stepEnd)));
        }
      }),
    );
  });

  test('a look whose effect fits its effectMs settles exactly then; with no flashing never sooner', () => {
    fc.assert(
      fc.property(lookSet(), (looks) => {
        for (const flag of EFFECT_FLAGS) {
          const look = looks.flags[flag];
          const result = createLightProgram(flag, looks);
          if (look.kind === 'leave' || !result.ok) continue;
          const settledAt = result.program.steps.at(-1)?.atMs;
          if (looks.noFlashing) expect(settledAt).toBeGreaterThanOrEqual(look.effectMs);
          else if (look.effectMs >= getMinimumEffectMs(flag, look.effect))
            expect(settledAt).toBe(look.effectMs);
        }
      }),
    );
  });
});

describe('no flashing', () => {
  const calmTrackside: LookSet = { ...TRACKSIDE, noFlashing: true };

  test("the counter sees Trackside's strobes: 20 changes in the caution's first second", () => {
    const red = createLightProgram('red');
    expect(red.ok && busiestSecond(red.program.steps)).toBe(20);
  });

  test('a strobe plays as the steady look, and settles as before', () => {
    const red = createLightProgram('red', calmTrackside);
    expect(red.ok && red.program.steps).toEqual([
      { kind: 'set-state', atMs: 0, color: COLOR_PRESETS.red, brightness: 1, transitionMs: 200 },
      { kind: 'set-state', atMs: 1500, color: COLOR_PRESETS.red, brightness: 0.5, transitionMs: 0 },
    ]);
    const checkered = createLightProgram('checkered', calmTrackside);
    expect(checkered.ok && checkered.program.steps.map((step) => step.kind)).toEqual([
      'set-state',
      'set-state',
    ]);
  });

  test('pulses are slowed to one a second, and the look settles when the last has ended', () => {
    const yellowLook = TRACKSIDE.flags.yellow as ShowLook;
    const fast: LookSet = {
      ...calmTrackside,
      flags: {
        ...TRACKSIDE.flags,
        yellow: { ...yellowLook, effect: { kind: 'pulse', count: 4 } },
      },
    };
    const yellow = createLightProgram('yellow', fast);
    expect(yellow.ok && yellow.program.steps.map((step) => [step.kind, step.atMs])).toEqual([
      ['strobe', 0],
      ['set-state', 4000],
    ]);
    expect(yellow.ok && yellow.program.steps[0]).toMatchObject({ periodMs: 1000, cycles: 4 });
  });

  test('steady looks and breaths are already slow and play as they are', () => {
    for (const flag of ['green', 'vsc', 'fastest_lap'] as const)
      expect(createLightProgram(flag, calmTrackside)).toEqual(createLightProgram(flag));
  });
});
