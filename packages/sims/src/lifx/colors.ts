import { hsbToRgb } from '@flaglight/core/color';
/** A partial HSBK, as a LIFX colour string sets it (reference §2.3): only the parts it names. */
export interface HsbkPatch {
  hue?: number;
  saturation?: number;
  brightness?: number;
  kelvin?: number;
}

/** The nine colour names LIFX knows, with their hues (white only drops saturation). */
export const LIFX_COLOR_NAMES: Record<string, HsbkPatch> = {
  white: { saturation: 0 },
  red: { hue: 0, saturation: 1 },
  orange: { hue: 36, saturation: 1 },
  yellow: { hue: 60, saturation: 1 },
  cyan: { hue: 180, saturation: 1 },
  green: { hue: 120, saturation: 1 },
  blue: { hue: 250, saturation: 1 },
  purple: { hue: 280, saturation: 1 },
  pink: { hue: 325, saturation: 1 },
};

export type ParsedColor = { ok: true; value: HsbkPatch } | { ok: false; error: string };

function rgbToHsb(r: number, g: number, b: number): Required<Omit<HsbkPatch, 'kelvin'>> {
  const [rn, gn, bn] = [r / 255, g / 255, b / 255];
  const max = Math.max(rn, gn, bn);
  const min = Math.min(rn, gn, bn);
  const d = max - min;
  let hue = 0;
  if (d > 0) {
    if (max === rn) hue = 60 * (((gn - bn) / d) % 6);
    else if (max === gn) hue = 60 * ((bn - rn) / d + 2);
    else hue = 60 * ((rn - gn) / d + 4);
  }
  return { hue: (hue + 360) % 360, saturation: max === 0 ? 0 : d / max, brightness: max };
}

function fraction(text: string): number | null {
  if (!/^\d+(\.\d+)?$|^\.\d+$/.test(text)) return null;
  const value = Number(text);
  return value >= 0 && value <= 1 ? value : null;
}

/** Parses a LIFX colour string (names, hue:, saturation:, brightness:, kelvin:, #RRGGBB, rgb:R,G,B). */
export function parseLifxColor(input: unknown): ParsedColor {
  if (typeof input !== 'string' || input.trim() === '') return { ok: false, error: 'color is missing' };
  const value: HsbkPatch = {};
  const bad = { ok: false as const, error: `Unable to parse color: ${input}` };
  for (const part of input.trim().toLowerCase().split(/\s+/)) {
    const named = LIFX_COLOR_NAMES[part];
    if (named) {
      Object.assign(value, named);
      continue;
    }
    const hex = /^#?([0-9a-f]{6})$/.exec(part);
    if (hex?.[1] && part.startsWith('#')) {
      const n = parseInt(hex[1], 16);
      Object.assign(value, rgbToHsb((n >> 16) & 255, (n >> 8) & 255, n & 255));
      continue;
    }
    const [key, arg = ''] = part.split(/:(.*)/s, 2) as [string, string?];
    if (key === 'rgb') {
      const channels = arg.split(',');
      if (channels.length !== 3 || channels.some((c) => !/^\d{1,3}$/.test(c) || Number(c) > 255)) return bad;
      const [r, g, b] = channels.map(Number) as [number, number, number];
      Object.assign(value, rgbToHsb(r, g, b));
    } else if (key === 'hue') {
      const hue = /^\d+(\.\d+)?$/.test(arg) ? Number(arg) : NaN;
      if (!(hue >= 0 && hue <= 360)) return bad;
      value.hue = hue % 360;
    } else if (key === 'saturation' || key === 'brightness') {
      const f = fraction(arg);
      if (f === null) return bad;
      value[key] = f;
    } else if (key === 'kelvin') {
      const k = /^\d+$/.test(arg) ? Number(arg) : NaN;
      if (!(k >= 1500 && k <= 9000)) return bad;
      value.kelvin = k;
      value.saturation = 0;
    } else {
      return bad;
    }
  }
  return { ok: true, value };
}

/** A rough sRGB for a kelvin white (enough to show warm vs cool on the demo page). */
function kelvinToRgb(kelvin: number): [number, number, number] {
  const t = kelvin / 100;
  const r = t <= 66 ? 255 : 329.7 * (t - 60) ** -0.1332;
  const g = t <= 66 ? 99.47 * Math.log(t) - 161.12 : 288.12 * (t - 60) ** -0.0755;
  const b = t >= 66 ? 255 : t <= 19 ? 0 : 138.52 * Math.log(t - 10) - 305.04;
  const clamp = (v: number) => Math.max(0, Math.min(255, v));
  return [clamp(r), clamp(g), clamp(b)];
}

/** HSBK → `#rrggbb` for display; saturation 0 shows the kelvin white. */
export function hsbkToHex(c: {
  hue: number;
  saturation: number;
  brightness: number;
  kelvin: number;
}): string {
  const v = Math.max(0, Math.min(1, c.brightness));
  let rgb: [number, number, number];
  if (c.saturation <= 0) {
    rgb = kelvinToRgb(c.kelvin).map((x) => x * v) as [number, number, number];
  } else {
    const { r, g, b } = hsbToRgb({ hue: c.hue, saturation: Math.min(1, c.saturation), brightness: v });
    rgb = [r, g, b];
  }
  return `#${rgb.map((x) => Math.round(x).toString(16).padStart(2, '0')).join('')}`;
}
