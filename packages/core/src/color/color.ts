/** A CIE 1931 chromaticity point. */
export interface XyPoint {
  x: number;
  y: number;
}

export interface Gamut {
  red: XyPoint;
  green: XyPoint;
  blue: XyPoint;
}

/** Hue gamuts A, B and C (reference/external-apis.md §3.7). */
export const HUE_GAMUTS = {
  A: { red: { x: 0.704, y: 0.296 }, green: { x: 0.2151, y: 0.7106 }, blue: { x: 0.138, y: 0.08 } },
  B: { red: { x: 0.675, y: 0.322 }, green: { x: 0.409, y: 0.518 }, blue: { x: 0.167, y: 0.04 } },
  C: { red: { x: 0.6915, y: 0.3083 }, green: { x: 0.17, y: 0.7 }, blue: { x: 0.1532, y: 0.0475 } },
} as const satisfies Record<string, Gamut>;

export type GamutName = keyof typeof HUE_GAMUTS;

export const D65_WHITE: XyPoint = { x: 0.3127, y: 0.329 };

/** Hue/saturation/brightness (hue 0-360, the rest 0-1) → sRGB 0-255. */
export function hsbToRgb({
  hue,
  saturation,
  brightness,
}: {
  hue: number;
  saturation: number;
  brightness: number;
}): {
  r: number;
  g: number;
  b: number;
} {
  const h = (((hue % 360) + 360) % 360) / 60;
  const s = Math.min(1, Math.max(0, saturation));
  const v = Math.min(1, Math.max(0, brightness));
  const c = v * s;
  const x = c * (1 - Math.abs((h % 2) - 1));
  const m = v - c;
  const [r, g, b] =
    h < 1
      ? [c, x, 0]
      : h < 2
        ? [x, c, 0]
        : h < 3
          ? [0, c, x]
          : h < 4
            ? [0, x, c]
            : h < 5
              ? [x, 0, c]
              : [c, 0, x];
  return { r: Math.round((r + m) * 255), g: Math.round((g + m) * 255), b: Math.round((b + m) * 255) };
}

const expand = (channel: number): number => {
  const c = Math.min(255, Math.max(0, channel)) / 255;
  return c > 0.04045 ? ((c + 0.055) / 1.055) ** 2.4 : c / 12.92;
};

function cross(a: XyPoint, b: XyPoint): number {
  return a.x * b.y - a.y * b.x;
}

function sub(a: XyPoint, b: XyPoint): XyPoint {
  return { x: a.x - b.x, y: a.y - b.y };
}

/** True when the point lies inside (or on) the gamut triangle. */
export function isInGamut(point: XyPoint, gamut: Gamut): boolean {
  const d1 = cross(sub(gamut.green, gamut.red), sub(point, gamut.red));
  const d2 = cross(sub(gamut.blue, gamut.green), sub(point, gamut.green));
  const d3 = cross(sub(gamut.red, gamut.blue), sub(point, gamut.blue));
  // A tolerance so points clamped onto an edge count as inside despite rounding.
  const EPSILON = 1e-9;
  const negative = d1 < -EPSILON || d2 < -EPSILON || d3 < -EPSILON;
  const positive = d1 > EPSILON || d2 > EPSILON || d3 > EPSILON;
  return !(negative && positive);
}

function closestOnSegment(point: XyPoint, a: XyPoint, b: XyPoint): XyPoint {
  const ab = sub(b, a);
  const t = Math.min(
    1,
    Math.max(0, ((point.x - a.x) * ab.x + (point.y - a.y) * ab.y) / (ab.x ** 2 + ab.y ** 2)),
  );
  return { x: a.x + ab.x * t, y: a.y + ab.y * t };
}

/** Moves a point outside the gamut to the closest point on the triangle's edges. */
export function clampToGamut(point: XyPoint, gamut: Gamut): XyPoint {
  if (isInGamut(point, gamut)) return point;
  const candidates = [
    closestOnSegment(point, gamut.red, gamut.green),
    closestOnSegment(point, gamut.green, gamut.blue),
    closestOnSegment(point, gamut.blue, gamut.red),
  ];
  const distance = (p: XyPoint) => (p.x - point.x) ** 2 + (p.y - point.y) ** 2;
  return candidates.reduce((best, p) => (distance(p) < distance(best) ? p : best));
}

/** sRGB 0-255 → CIE xy (Philips wide-gamut D65 matrix), clamped into `gamut`; black gives the white point. */
export function rgbToXy(
  { r, g, b }: { r: number; g: number; b: number },
  gamut: Gamut = HUE_GAMUTS.C,
): XyPoint & { luminance: number } {
  const [rl, gl, bl] = [expand(r), expand(g), expand(b)];
  const X = 0.664511 * rl + 0.154324 * gl + 0.162028 * bl;
  const Y = 0.283881 * rl + 0.668433 * gl + 0.047685 * bl;
  const Z = 0.000088 * rl + 0.07231 * gl + 0.986039 * bl;
  const sum = X + Y + Z;
  if (sum === 0) return { ...D65_WHITE, luminance: 0 };
  return { ...clampToGamut({ x: X / sum, y: Y / sum }, gamut), luminance: Y };
}

/** Hue/saturation/brightness → CIE xy within a gamut (brightness itself goes to the light's dimming). */
export function hsbToXy(color: { hue: number; saturation: number }, gamut: Gamut = HUE_GAMUTS.C): XyPoint {
  const { x, y } = rgbToXy(hsbToRgb({ ...color, brightness: 1 }), gamut);
  return { x, y };
}

const round = (value: number, digits: number): number => Number(value.toFixed(digits));

/** A LIFX colour string (reference §2.3): `hue:H saturation:S [brightness:B]`; black is `brightness:0`. */
export function formatLifxColor(color: {
  hue: number;
  saturation: number;
  brightness?: number;
  off?: boolean;
}): string {
  if (color.off) return 'brightness:0';
  const parts = [
    `hue:${round(color.hue, 2)}`,
    `saturation:${round(Math.min(1, Math.max(0, color.saturation)), 3)}`,
  ];
  if (color.brightness !== undefined)
    parts.push(`brightness:${round(Math.min(1, Math.max(0, color.brightness)), 3)}`);
  return parts.join(' ');
}
