/** A light colour: hue in degrees (0-360), saturation 0-1; brightness travels on the step. */
export interface LightColor {
  name: string;
  hue: number;
  saturation: number;
  /** Set only for black, which is "light off" at any brightness. */
  off?: boolean;
}

/** SPEC §4 Hue presets: red 0, orange 30, yellow 60, green 120, blue 240, plus white and black. */
export const COLOR_PRESETS = {
  red: { name: 'red', hue: 0, saturation: 1 },
  orange: { name: 'orange', hue: 30, saturation: 1 },
  yellow: { name: 'yellow', hue: 60, saturation: 1 },
  green: { name: 'green', hue: 120, saturation: 1 },
  blue: { name: 'blue', hue: 240, saturation: 1 },
  white: { name: 'white', hue: 0, saturation: 0 },
  black: { name: 'black', hue: 0, saturation: 0, off: true },
} as const satisfies Record<string, LightColor>;

export type ColorPresetName = keyof typeof COLOR_PRESETS;

/** Fastest-lap purple: SPEC §4 says it is not one of the presets (hue as LIFX's "purple"). */
export const FASTEST_LAP_PURPLE: LightColor = { name: 'purple', hue: 280, saturation: 1 };
