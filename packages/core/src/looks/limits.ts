import {
  CAUTION_STROBE_CYCLES,
  CAUTION_STROBE_PERIOD_MS,
  CHECKERED_STROBE_CYCLES,
  CHECKERED_STROBE_PERIOD_MS,
  GREEN_TRANSITION_MS,
  SECOND_MS,
} from '../constants.js';
import type { EffectFlag } from '../flags/types.js';
import type { LookEffect } from './types.js';

/** A look's brightness, settle brightness and a look set's cap: whole percents in this range. */
export const LOOK_BRIGHTNESS_MIN = 1;
export const LOOK_BRIGHTNESS_MAX = 100;
/** Pulses a look may ask for. */
export const LOOK_PULSE_MIN_COUNT = 1;
export const LOOK_PULSE_MAX_COUNT = 10;

/**
 * The hold of a lasting flag: the longest its effect may run before the look settles. A flag is a
 * signal; past 30 s an effect stops telling the room something changed and just becomes the look
 * (SPEC's longest effect, green's, settles after 5 s).
 */
export const LOOK_HOLD_MS = 30 * SECOND_MS;
/**
 * The hold of the momentary fastest lap: how long its look may show before the lights go back to
 * the lasting flag. Shorter than a lasting flag's: fastest laps come often, and while one shows the
 * room cannot see the race's own flag.
 */
export const FASTEST_LAP_LOOK_HOLD_MS = 10 * SECOND_MS;

/** Each flag's hold: a look's `effectMs` is at most this. */
export const FLAG_LOOK_HOLD_MS: Readonly<Record<EffectFlag, number>> = {
  green: LOOK_HOLD_MS,
  red: LOOK_HOLD_MS,
  yellow: LOOK_HOLD_MS,
  checkered: LOOK_HOLD_MS,
  safety: LOOK_HOLD_MS,
  vsc: LOOK_HOLD_MS,
  vsc_ending: LOOK_HOLD_MS,
  fastest_lap: FASTEST_LAP_LOOK_HOLD_MS,
};

/** A pulse is never faster than SPEC §4's caution strobe, whatever its count and time. */
export const PULSE_MIN_PERIOD_MS = CAUTION_STROBE_PERIOD_MS;
/** One breath: half of it fading up, half fading down. */
export const BREATHE_PERIOD_MS = 3 * SECOND_MS;
/** The bottom of a breath, as a share of the look's brightness (never below 1%). */
export const BREATHE_LOW_RATIO = 0.2;
/** WCAG 2.3.1 "Three Flashes or Below Threshold": changes of brightness or colour in any second. */
export const NO_FLASH_MAX_CHANGES_PER_SECOND = 3;
/**
 * With no flashing, a pulse's period is at least this: two changes a second, below the three of
 * WCAG 2.3.1 with room for the settle that follows it.
 */
export const NO_FLASH_MIN_PERIOD_MS = SECOND_MS;

/** SPEC §4's strobe of a flag: white/black 0.2 s × 15 for chequered, 0.1 s × 10 for the others. */
export function getStrobeTiming(flag: EffectFlag): { periodMs: number; cycles: number } {
  return flag === 'checkered'
    ? { periodMs: CHECKERED_STROBE_PERIOD_MS, cycles: CHECKERED_STROBE_CYCLES }
    : { periodMs: CAUTION_STROBE_PERIOD_MS, cycles: CAUTION_STROBE_CYCLES };
}

/** The fade of a steady look: SPEC's 0.2 s as green's; the momentary fastest lap snaps in. */
export function getSteadyFadeMs(flag: EffectFlag): number {
  return flag === 'fastest_lap' ? 0 : GREEN_TRANSITION_MS;
}

/**
 * The shortest `effectMs` an effect fits in for a flag: a steady look's fade, SPEC's whole strobe,
 * `count` pulses at their fastest, one breath. The contract refuses a look below it; a program built
 * from one anyway settles when the effect has ended.
 */
export function getMinimumEffectMs(flag: EffectFlag, effect: LookEffect): number {
  switch (effect.kind) {
    case 'steady':
      return getSteadyFadeMs(flag);
    case 'strobe': {
      const { periodMs, cycles } = getStrobeTiming(flag);
      return periodMs * cycles;
    }
    case 'pulse':
      return effect.count * PULSE_MIN_PERIOD_MS;
    case 'breathe':
      return BREATHE_PERIOD_MS;
  }
}
