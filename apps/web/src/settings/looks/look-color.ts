import { COLOR_PRESETS, FASTEST_LAP_PURPLE, hsbToRgb, type LookColor } from '@flaglight/core';

/** The ready colours a fan picks with one press: SPEC §4's presets and the fastest lap's purple. */
export const LOOK_COLOR_CHOICES: readonly LookColor[] = [
  COLOR_PRESETS.red,
  COLOR_PRESETS.orange,
  COLOR_PRESETS.yellow,
  COLOR_PRESETS.green,
  COLOR_PRESETS.blue,
  FASTEST_LAP_PURPLE,
  COLOR_PRESETS.white,
].map(({ name, hue, saturation }) => ({ name, hue, saturation }));

/** Hue names for a picked colour, by where its hue falls (degrees, the start of each range). */
const HUE_NAMES: readonly [number, string][] = [
  [0, 'red'],
  [15, 'orange'],
  [45, 'yellow'],
  [70, 'lime'],
  [90, 'green'],
  [150, 'teal'],
  [175, 'cyan'],
  [195, 'sky blue'],
  [215, 'blue'],
  [255, 'violet'],
  [275, 'purple'],
  [295, 'magenta'],
  [325, 'pink'],
  [345, 'red'],
];

/** A plain name for a colour the fan picked: the screen and the companion show it. */
export function nameColor(hue: number, saturation: number): string {
  if (saturation < 0.15) return 'white';
  const base = [...HUE_NAMES].reverse().find(([start]) => hue >= start)?.[1] ?? 'red';
  return saturation < 0.6 ? `pale ${base}` : base;
}

const hex2 = (value: number) => value.toString(16).padStart(2, '0');

/** `#rrggbb` of a look's colour at full brightness (what a colour picker shows). */
export function colorToHex(color: Pick<LookColor, 'hue' | 'saturation'>): string {
  const { r, g, b } = hsbToRgb({ hue: color.hue, saturation: color.saturation, brightness: 1 });
  return `#${hex2(r)}${hex2(g)}${hex2(b)}`;
}

/** A CSS colour for a swatch of a look at `brightness` percent (never quite black, so it shows). */
export function colorToCss(color: Pick<LookColor, 'hue' | 'saturation'>, brightness = 100): string {
  const level = Math.max(0.15, brightness / 100);
  const { r, g, b } = hsbToRgb({ hue: color.hue, saturation: color.saturation, brightness: level });
  return `rgb(${r} ${g} ${b})`;
}

/**
 * A colour picker's `#rrggbb` as a look's colour: its hue (whole degrees) and saturation (two
 * places); its value is dropped, since a look's brightness is set on its own. Null for text that is
 * not a hex colour.
 */
export function hexToColor(hex: string): LookColor | null {
  const match = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex.trim());
  if (!match) return null;
  const [r, g, b] = match.slice(1).map((part) => parseInt(part, 16) / 255) as [number, number, number];
  const max = Math.max(r, g, b);
  const delta = max - Math.min(r, g, b);
  let hue = 0;
  if (delta > 0) {
    if (max === r) hue = 60 * (((g - b) / delta + 6) % 6);
    else if (max === g) hue = 60 * ((b - r) / delta + 2);
    else hue = 60 * ((r - g) / delta + 4);
  }
  const saturation = max === 0 ? 0 : Math.round((delta / max) * 100) / 100;
  const wholeHue = Math.round(hue) % 360;
  return { name: nameColor(wholeHue, saturation), hue: wholeHue, saturation };
}

/** True when two colours are the same light (the name aside). */
export function sameColor(
  a: Pick<LookColor, 'hue' | 'saturation'>,
  b: Pick<LookColor, 'hue' | 'saturation'>,
) {
  if (a.saturation === 0 && b.saturation === 0) return true;
  return a.hue === b.hue && a.saturation === b.saturation;
}
