import {
  EFFECT_FLAGS,
  FLAG_LOOK_HOLD_MS,
  getMinimumEffectMs,
  LOOK_PULSE_MAX_COUNT,
  type EffectFlag,
  type FlagLook,
  type LookEffect,
  type LookSet,
} from '@flaglight/core';
import fc from 'fast-check';

/**
 * Any look set a fan can choose (as the contract takes it), for property tests over players and drivers. `maxEffectMs` keeps
 * runs against real simulators short: the densest programs are the short ones (a pulse is never
 * faster than SPEC's strobe, so more time only spreads the same changes out).
 */
export function lookSetArbitrary(
  noFlashing: fc.Arbitrary<boolean> = fc.boolean(),
  maxEffectMs = 6_000,
): fc.Arbitrary<LookSet> {
  const effect: fc.Arbitrary<LookEffect> = fc.oneof(
    fc.constant({ kind: 'steady' as const }),
    fc.constant({ kind: 'strobe' as const }),
    fc.constant({ kind: 'breathe' as const }),
    fc.integer({ min: 1, max: LOOK_PULSE_MAX_COUNT }).map((count) => ({ kind: 'pulse' as const, count })),
  );
  const percent = fc.integer({ min: 1, max: 100 });
  const flagLook = (flag: EffectFlag): fc.Arbitrary<FlagLook> =>
    fc.oneof(
      { weight: 1, arbitrary: fc.constant({ kind: 'leave' as const }) },
      {
        weight: 5,
        // As the contract takes them: an effect at least as long as it needs, at most the hold.
        arbitrary: effect.chain((chosen) => {
          const max = Math.min(maxEffectMs, FLAG_LOOK_HOLD_MS[flag]);
          return fc.record({
            kind: fc.constant('show' as const),
            color: fc.record({
              name: fc.constantFrom('red', 'teal', 'custom'),
              hue: fc.double({ min: 0, max: 360, noNaN: true, maxExcluded: true }),
              saturation: fc.double({ min: 0, max: 1, noNaN: true }),
            }),
            brightness: percent,
            effect: fc.constant(chosen),
            effectMs: fc.integer({ min: Math.min(getMinimumEffectMs(flag, chosen), max), max }),
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
