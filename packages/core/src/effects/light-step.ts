import type { EffectFlag } from '../flags/types.js';
import type { LightColor } from './colors.js';

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

/** The timed steps a player schedules when a flag comes. */
export interface LightProgram {
  flag: EffectFlag;
  /** In `atMs` order. Empty when the look set leaves the flag alone: play nothing. */
  steps: LightStep[];
  /** When the last step has finished. */
  durationMs: number;
}

/** A flag's program, or a warning for a flag no effect exists for. */
export type EffectResult = { ok: true; program: LightProgram } | { ok: false; warning: string };
