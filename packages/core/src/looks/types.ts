import type { LightColor } from '../effects/colors.js';
import type { EffectFlag } from '../flags/types.js';

/**
 * The colour of a look: a LightColor (hue 0-360 degrees, saturation 0-1, a name the screen and the
 * companion show) without `off`: a look always lights the lights; "leave" is how a fan keeps them
 * out of a flag.
 */
export type LookColor = Omit<LightColor, 'off'>;

/** The effects a look can play before it settles, in the order a settings screen lists them. */
export const LOOK_EFFECT_KINDS = ['steady', 'pulse', 'strobe', 'breathe'] as const;
export type LookEffectKind = (typeof LOOK_EFFECT_KINDS)[number];

/**
 * What a look does during its `effectMs`:
 * - `steady`: the colour comes on (a 0.2 s fade, as SPEC §4's green; a momentary fastest lap snaps in);
 * - `pulse`: `count` (1-10) on-off pulses spread over `effectMs`, never faster than SPEC's strobe;
 * - `strobe`: SPEC §4's strobe for the flag (white/black 0.2 s × 15 for chequered, 0.1 s × 10 for
 *   the others);
 * - `breathe`: slow fades up and down (BREATHE_PERIOD_MS a breath) for as many whole breaths as fit.
 */
export type LookEffect =
  { kind: 'steady' } | { kind: 'pulse'; count: number } | { kind: 'strobe' } | { kind: 'breathe' };

/**
 * A look a flag shows: its effect at `brightness` for `effectMs`, then the colour settles at
 * `settleBrightness` and stays until the next flag. For the momentary fastest lap nothing settles:
 * after `effectMs` the lights go back to the lasting flag's look, and `settleBrightness` is unused.
 */
export interface ShowLook {
  kind: 'show';
  color: LookColor;
  /** Percent, 1-100, while the effect plays. */
  brightness: number;
  effect: LookEffect;
  /** How long the effect runs before the look settles: 0 up to the flag's hold (FLAG_LOOK_HOLD_MS). */
  effectMs: number;
  /** Percent, 1-100, of the settled look. */
  settleBrightness: number;
}

/** "Leave the lights as they are": the flag plays a program with no steps, so players change nothing. */
export interface LeaveLook {
  kind: 'leave';
}

/** What one flag does to the lights: a look, or nothing at all. */
export type FlagLook = ShowLook | LeaveLook;

/**
 * A fan's choice of how every flag looks. `yellow` covers sector and double yellows, `safety` is the
 * safety car; every EffectFlag has an entry.
 */
export interface LookSet {
  flags: Record<EffectFlag, FlagLook>;
  /**
   * No program changes brightness or colour more than 3 times in any second (WCAG 2.3.1): a strobe
   * plays as the steady look and a pulse is slowed to at most one a second.
   */
  noFlashing: boolean;
  /** Percent, 1-100: no step of any program is brighter, whatever a look asks. */
  brightnessCap: number;
}
