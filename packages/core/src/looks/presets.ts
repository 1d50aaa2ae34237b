import {
  CAUTION_SOLID_AFTER_MS,
  CHECKERED_SOLID_AFTER_MS,
  DIM_BRIGHTNESS,
  FASTEST_LAP_SHOW_MS,
  FULL_BRIGHTNESS,
  GREEN_DIM_AFTER_MS,
  SECOND_MS,
} from '../constants.js';
import { COLOR_PRESETS, FASTEST_LAP_PURPLE } from '../effects/colors.js';
import type { LookColor, LookEffect, LookSet, ShowLook } from './types.js';

type Timing = Pick<ShowLook, 'brightness' | 'effectMs' | 'settleBrightness'>;

function show(color: LookColor, effect: LookEffect, timing: Timing): ShowLook {
  return { kind: 'show', color, effect, ...timing };
}

const STEADY: LookEffect = { kind: 'steady' };
const STROBE: LookEffect = { kind: 'strobe' };
const BREATHE: LookEffect = { kind: 'breathe' };
const pulses = (count: number): LookEffect => ({ kind: 'pulse', count });

const FULL = FULL_BRIGHTNESS * 100;
const DIM = DIM_BRIGHTNESS * 100;
const dimAfterGreen: Timing = { brightness: FULL, effectMs: GREEN_DIM_AFTER_MS, settleBrightness: DIM };
const dimAfterCaution: Timing = { brightness: FULL, effectMs: CAUTION_SOLID_AFTER_MS, settleBrightness: DIM };

/** SPEC §4 "Light effects" exactly: the programs every flag played before fans chose their looks. */
export const TRACKSIDE: LookSet = {
  flags: {
    green: show(COLOR_PRESETS.green, STEADY, dimAfterGreen),
    red: show(COLOR_PRESETS.red, STROBE, dimAfterCaution),
    yellow: show(COLOR_PRESETS.yellow, STROBE, dimAfterCaution),
    checkered: show(COLOR_PRESETS.white, STROBE, {
      brightness: FULL,
      effectMs: CHECKERED_SOLID_AFTER_MS,
      settleBrightness: FULL,
    }),
    safety: show(COLOR_PRESETS.yellow, STROBE, dimAfterCaution),
    vsc: show(COLOR_PRESETS.orange, STEADY, dimAfterGreen),
    vsc_ending: show(COLOR_PRESETS.orange, STEADY, dimAfterGreen),
    fastest_lap: show(FASTEST_LAP_PURPLE, STEADY, {
      brightness: FULL,
      effectMs: FASTEST_LAP_SHOW_MS,
      settleBrightness: FULL,
    }),
  },
  noFlashing: false,
  brightnessCap: 100,
};

const calmSteady: Timing = { brightness: 50, effectMs: 3 * SECOND_MS, settleBrightness: 40 };
const calmBreath: Timing = { brightness: 60, effectMs: 6 * SECOND_MS, settleBrightness: 40 };

/**
 * Nothing flashes and nothing is bright: cautions and the flag breathe slowly, the rest fade in
 * steady, all at most 60%.
 */
export const CALM: LookSet = {
  flags: {
    green: show(COLOR_PRESETS.green, STEADY, calmSteady),
    red: show(COLOR_PRESETS.red, BREATHE, { ...calmBreath, settleBrightness: 50 }),
    yellow: show(COLOR_PRESETS.yellow, BREATHE, calmBreath),
    checkered: show(COLOR_PRESETS.white, BREATHE, { ...calmBreath, settleBrightness: 50 }),
    safety: show(COLOR_PRESETS.yellow, BREATHE, calmBreath),
    vsc: show(COLOR_PRESETS.orange, STEADY, calmSteady),
    vsc_ending: show(COLOR_PRESETS.orange, STEADY, calmSteady),
    fastest_lap: show(FASTEST_LAP_PURPLE, STEADY, { ...calmSteady, settleBrightness: 50 }),
  },
  noFlashing: true,
  brightnessCap: 60,
};

const nightPulse = (effectMs: number): Timing => ({ brightness: 35, effectMs, settleBrightness: 20 });

/**
 * For a dark room late at night: at most 35%, no strobes, a few slow pulses (one a second) for the
 * flags that ask for attention, and fastest laps leave the lights alone.
 */
export const NIGHT_RACE: LookSet = {
  flags: {
    green: show(COLOR_PRESETS.green, STEADY, nightPulse(3 * SECOND_MS)),
    red: show(COLOR_PRESETS.red, pulses(3), { ...nightPulse(3 * SECOND_MS), settleBrightness: 25 }),
    yellow: show(COLOR_PRESETS.yellow, pulses(2), nightPulse(2 * SECOND_MS)),
    checkered: show(COLOR_PRESETS.white, pulses(5), { ...nightPulse(5 * SECOND_MS), settleBrightness: 30 }),
    safety: show(COLOR_PRESETS.yellow, pulses(3), nightPulse(3 * SECOND_MS)),
    vsc: show(COLOR_PRESETS.orange, STEADY, nightPulse(3 * SECOND_MS)),
    vsc_ending: show(COLOR_PRESETS.orange, pulses(2), nightPulse(2 * SECOND_MS)),
    fastest_lap: { kind: 'leave' },
  },
  noFlashing: false,
  brightnessCap: 35,
};

/** The look set of every account that never chose one. */
export const DEFAULT_LOOK_SET: LookSet = TRACKSIDE;

export const LOOK_PRESET_IDS = ['trackside', 'calm', 'night-race'] as const;
export type LookPresetId = (typeof LOOK_PRESET_IDS)[number];

/** A ready-made look set a fan can pick (or start from): its id, the name and a line to show. */
export interface LookPreset {
  id: LookPresetId;
  name: string;
  description: string;
  looks: LookSet;
}

/** The presets in the order a settings screen lists them; Trackside, the default, first. */
export const LOOK_PRESETS: readonly LookPreset[] = [
  {
    id: 'trackside',
    name: 'Trackside',
    description: 'Bright strobes for cautions and the chequered flag, as marshals wave them.',
    looks: TRACKSIDE,
  },
  {
    id: 'calm',
    name: 'Calm',
    description: 'No flashing, softer light: slow breathing for cautions, steady colour for the rest.',
    looks: CALM,
  },
  {
    id: 'night-race',
    name: 'Night race',
    description: 'Dim light for a dark room: a few slow pulses, no strobes, fastest laps left out.',
    looks: NIGHT_RACE,
  },
];
