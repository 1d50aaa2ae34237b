import fc from 'fast-check';
import {
  EFFECT_FLAGS,
  FLAG_LOOK_HOLD_MS,
  getMinimumEffectMs,
  LOOK_PULSE_MAX_COUNT,
  type EffectFlag,
  type FlagLook,
  type LookEffect,
  type LookSet,
} from '../src/index.js';

// For tests only (`@flaglight/core/testing`): what no shipped code imports.

export interface LookSetArbitraryOptions {
  /** Whether the set has No flashing on; any by default. */
  noFlashing?: fc.Arbitrary<boolean>;
  /**
   * How long each effect plays: `contract` as the contract takes it (at least as long as the effect
   * needs, at most the flag's hold), `any` from 0 (shorter than the effect needs too, which core
   * stretches) to the flag's hold.
   */
  effectMs?: 'contract' | 'any';
  /**
   * A lower ceiling than the hold: runs against real simulators stay short, and the densest programs
   * are the short ones (a pulse is never faster than SPEC's strobe, so more time only spreads the
   * same changes out).
   */
  maxEffectMs?: number;
}

const percent = fc.integer({ min: 1, max: 100 });

const effectArbitrary: fc.Arbitrary<LookEffect> = fc.oneof(
  fc.constant({ kind: 'steady' as const }),
  fc.constant({ kind: 'strobe' as const }),
  fc.constant({ kind: 'breathe' as const }),
  fc.integer({ min: 1, max: LOOK_PULSE_MAX_COUNT }).map((count) => ({ kind: 'pulse' as const, count })),
);

/**
 * Any look set a fan can choose, for the property tests over core's programs, the players, the
 * drivers and the server's Govee link: a flag left alone one time in six, else a look in any colour,
 * brightness, effect and settled brightness, under any brightness cap.
 */
export function lookSetArbitrary({
  noFlashing = fc.boolean(),
  effectMs = 'contract',
  maxEffectMs = Number.POSITIVE_INFINITY,
}: LookSetArbitraryOptions = {}): fc.Arbitrary<LookSet> {
  const flagLook = (flag: EffectFlag): fc.Arbitrary<FlagLook> =>
    fc.oneof(
      { weight: 1, arbitrary: fc.constant({ kind: 'leave' as const }) },
      {
        weight: 5,
        arbitrary: effectArbitrary.chain((effect) => {
          const max = Math.min(maxEffectMs, FLAG_LOOK_HOLD_MS[flag]);
          const min = effectMs === 'contract' ? Math.min(getMinimumEffectMs(flag, effect), max) : 0;
          return fc.record({
            kind: fc.constant('show' as const),
            color: fc.record({
              name: fc.constantFrom('red', 'teal', 'custom'),
              hue: fc.double({ min: 0, max: 360, noNaN: true, maxExcluded: true }),
              saturation: fc.double({ min: 0, max: 1, noNaN: true }),
            }),
            brightness: percent,
            effect: fc.constant(effect),
            effectMs: fc.integer({ min, max }),
            settleBrightness: percent,
          });
        }),
      },
    );
  return fc.record({
    flags: fc.record(
      Object.fromEntries(EFFECT_FLAGS.map((flag) => [flag, flagLook(flag)])) as Record<
        EffectFlag,
        fc.Arbitrary<FlagLook>
      >,
    ),
    noFlashing,
    brightnessCap: percent,
  });
}
