import { hsbToRgb, hsbToXy } from '@flaglight/core/color';

// Home Assistant's light rules as the simulator applies them (reference home-assistant-mqtt-wled.md
// §1.2–§1.4): which keys a service call takes, and what a light shows after one.

export type HaColorMode = 'onoff' | 'brightness' | 'color_temp' | 'hs' | 'xy' | 'rgb' | 'rgbw' | 'rgbww';

/** `supported_features` bits (reference §1.2). */
export const HA_FEATURE = { effect: 4, flash: 8, transition: 32 } as const;

export interface HaSimLightSpec {
  entityId: string;
  name: string;
  /** The area the template answers; null = none. */
  area: string | null;
  modes: readonly HaColorMode[];
  features: number;
  minKelvin?: number;
  maxKelvin?: number;
  /** How it is before anyone changes it (default off): what "as it was" reads and gives back. */
  first?: { on: boolean; brightness?: number; hs?: [number, number]; kelvin?: number };
}

export interface HaSimLight {
  spec: HaSimLightSpec;
  on: boolean;
  unavailable: boolean;
  /** 0–255. */
  brightness: number;
  /** The colour as hue (0–360) and saturation (0–100); null while a colour temperature shows. */
  hs: [number, number] | null;
  kelvin: number | null;
  lastFlash: string | null;
  lastTransition: number | null;
  lastChanged: number;
}

const COLOUR_MODES: readonly HaColorMode[] = ['hs', 'xy', 'rgb', 'rgbw', 'rgbww'];
const COLOUR_KEYS = [
  'rgb_color',
  'xy_color',
  'hs_color',
  'rgbw_color',
  'rgbww_color',
  'color_temp_kelvin',
  'color_name',
  'white',
] as const;
const TURN_ON_KEYS = new Set<string>([
  'entity_id',
  'brightness',
  'brightness_pct',
  'transition',
  'flash',
  'effect',
  ...COLOUR_KEYS,
]);
const TURN_OFF_KEYS = new Set(['entity_id', 'transition', 'flash']);

export const hasColour = (spec: HaSimLightSpec) => spec.modes.some((m) => COLOUR_MODES.includes(m));
const kelvinRange = (spec: HaSimLightSpec) => [spec.minKelvin ?? 2000, spec.maxKelvin ?? 6535] as const;

export function newLight(spec: HaSimLightSpec, now: number): HaSimLight {
  const first = spec.first;
  return {
    spec,
    on: first?.on ?? false,
    unavailable: false,
    brightness: first?.brightness ?? 255,
    hs: first?.hs && hasColour(spec) ? [...first.hs] : hasColour(spec) ? [0, 0] : null,
    kelvin:
      first?.kelvin !== undefined && !first.hs
        ? first.kelvin
        : spec.modes.includes('color_temp') && !hasColour(spec)
          ? 4000
          : null,
    lastFlash: null,
    lastTransition: null,
    lastChanged: now,
  };
}

export class HaBadRequest extends Error {}

const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const tuple = (v: unknown, n: number, min: number, max: number): number[] | null =>
  Array.isArray(v) && v.length === n && v.every((c) => isNumber(c) && c >= min && c <= max)
    ? (v as number[])
    : null;

/** The entity ids a call names; a 400 for anything that is not a string or a list of them. */
export function targetIds(body: Record<string, unknown>): string[] {
  const ids = body.entity_id;
  if (typeof ids === 'string') return ids.split(',').map((id) => id.trim());
  if (Array.isArray(ids) && ids.every((id) => typeof id === 'string')) return ids;
  throw new HaBadRequest("Entity ID is an invalid entity ID for dictionary value @ data['entity_id']");
}

/** Checks a `light.turn_on` / `turn_off` body as HA's schema does: unknown keys, two colours, ranges. */
export function checkServiceBody(service: 'turn_on' | 'turn_off', body: Record<string, unknown>): void {
  const allowed = service === 'turn_on' ? TURN_ON_KEYS : TURN_OFF_KEYS;
  for (const key of Object.keys(body))
    if (!allowed.has(key)) throw new HaBadRequest(`extra keys not allowed @ data['${key}']`);
  targetIds(body);
  if (COLOUR_KEYS.filter((k) => k in body).length > 1)
    throw new HaBadRequest('two or more values in the same group of exclusion');
  const bad = (key: string) => new HaBadRequest(`invalid value for dictionary value @ data['${key}']`);
  if ('brightness' in body && !isNumber(body.brightness)) throw bad('brightness');
  if ('brightness_pct' in body && !(isNumber(body.brightness_pct) && body.brightness_pct <= 100))
    throw bad('brightness_pct');
  if ('rgb_color' in body && !tuple(body.rgb_color, 3, 0, 255)) throw bad('rgb_color');
  if ('xy_color' in body && !tuple(body.xy_color, 2, 0, 1)) throw bad('xy_color');
  if ('hs_color' in body && !(tuple(body.hs_color, 2, 0, 360) && (body.hs_color as number[])[1]! <= 100))
    throw bad('hs_color');
  if ('color_temp_kelvin' in body && !isNumber(body.color_temp_kelvin)) throw bad('color_temp_kelvin');
  if ('transition' in body && !(isNumber(body.transition) && body.transition >= 0)) throw bad('transition');
  if ('flash' in body && body.flash !== 'short' && body.flash !== 'long') throw bad('flash');
}

/** sRGB 0–255 → hue 0–360 and saturation 0–100. */
export function rgbToHs([r, g, b]: readonly number[]): [number, number] {
  const [rr, gg, bb] = [r! / 255, g! / 255, b! / 255];
  const max = Math.max(rr, gg, bb);
  const delta = max - Math.min(rr, gg, bb);
  let hue = 0;
  if (delta > 0) {
    if (max === rr) hue = 60 * (((gg - bb) / delta) % 6);
    else if (max === gg) hue = 60 * ((bb - rr) / delta + 2);
    else hue = 60 * ((rr - gg) / delta + 4);
  }
  return [(hue + 360) % 360, max === 0 ? 0 : (delta / max) * 100];
}

/** CIE xy → sRGB 0–255 at full brightness (HA's `color_xy_to_RGB`, wide-gamut D65 matrix). */
export function xyToRgb(x: number, y: number): [number, number, number] {
  const Y = 1;
  const X = (Y / Math.max(y, 1e-6)) * x;
  const Z = (Y / Math.max(y, 1e-6)) * (1 - x - y);
  const linear = [
    X * 1.656492 - Y * 0.354851 - Z * 0.255038,
    -X * 0.707196 + Y * 1.655397 + Z * 0.036152,
    X * 0.051713 - Y * 0.121364 + Z * 1.01153,
  ].map((c) => Math.max(0, c));
  const max = Math.max(...linear, 1e-9);
  return linear.map((c) => {
    const v = c / max;
    return Math.round(255 * (v <= 0.0031308 ? 12.92 * v : 1.055 * v ** (1 / 2.4) - 0.055));
  }) as [number, number, number];
}

/** McCamy's formula, as HA turns a colour into a temperature for a colour-temperature-only light (§1.4). */
function xyToKelvin(x: number, y: number): number {
  const n = (x - 0.332) / (0.1858 - y);
  return Math.round(449 * n ** 3 + 3525 * n ** 2 + 6823.3 * n + 5520.33);
}

function requestedHs(body: Record<string, unknown>): [number, number] | null {
  if (Array.isArray(body.hs_color)) return [body.hs_color[0] as number, body.hs_color[1] as number];
  if (Array.isArray(body.rgb_color)) return rgbToHs(body.rgb_color as number[]);
  if (Array.isArray(body.rgbw_color) || Array.isArray(body.rgbww_color))
    return rgbToHs(((body.rgbw_color ?? body.rgbww_color) as number[]).slice(0, 3));
  if (Array.isArray(body.xy_color))
    return rgbToHs(xyToRgb(body.xy_color[0] as number, body.xy_color[1] as number));
  return null;
}

/** Applies a checked service call to one light (HA's conversions: never an error, §1.4). */
export function applyService(
  light: HaSimLight,
  service: 'turn_on' | 'turn_off',
  body: Record<string, unknown>,
  now: number,
): void {
  const { spec } = light;
  light.lastFlash = spec.features & HA_FEATURE.flash && typeof body.flash === 'string' ? body.flash : null;
  light.lastTransition =
    spec.features & HA_FEATURE.transition && isNumber(body.transition) ? body.transition : null;
  light.lastChanged = now;
  if (service === 'turn_off') {
    light.on = false;
    return;
  }
  const dimmable = !(spec.modes.length === 1 && spec.modes[0] === 'onoff');
  const brightness = isNumber(body.brightness)
    ? body.brightness
    : isNumber(body.brightness_pct)
      ? (body.brightness_pct * 255) / 100
      : null;
  if (brightness !== null && Math.round(brightness) <= 0) {
    light.on = false;
    return;
  }
  light.on = true;
  if (brightness !== null && dimmable) light.brightness = Math.min(255, Math.round(brightness));
  const hs = requestedHs(body);
  const kelvin = isNumber(body.color_temp_kelvin) ? body.color_temp_kelvin : null;
  const [min, max] = kelvinRange(spec);
  const clampK = (k: number) => Math.min(max, Math.max(min, Math.round(k)));
  if (hasColour(spec)) {
    if (hs) {
      light.hs = hs;
      light.kelvin = null;
    } else if (kelvin !== null) {
      if (spec.modes.includes('color_temp')) {
        light.kelvin = clampK(kelvin);
        light.hs = null;
      } else light.hs = [0, 0];
    }
  } else if (spec.modes.includes('color_temp')) {
    if (kelvin !== null) light.kelvin = clampK(kelvin);
    else if (hs) {
      const { x, y } = hsbToXy({ hue: hs[0], saturation: hs[1] / 100 });
      light.kelvin = clampK(xyToKelvin(x, y));
    }
  }
}

/** The light as `/api/states` shows it (unavailable: capabilities, name and features only). */
export function stateObject(light: HaSimLight): Record<string, unknown> {
  const { spec } = light;
  const [min, max] = kelvinRange(spec);
  const base: Record<string, unknown> = {
    friendly_name: spec.name,
    supported_features: spec.features,
    supported_color_modes: spec.modes,
    ...(spec.modes.includes('color_temp') ? { min_color_temp_kelvin: min, max_color_temp_kelvin: max } : {}),
  };
  const stamp = new Date(light.lastChanged).toISOString();
  const context = { id: stamp.replace(/\D/g, '').slice(0, 26), parent_id: null, user_id: null };
  const wrap = (state: string, attributes: Record<string, unknown>) => ({
    entity_id: spec.entityId,
    state,
    attributes,
    last_changed: stamp,
    last_updated: stamp,
    context,
  });
  if (light.unavailable) return wrap('unavailable', { ...base, restored: true });
  if (!light.on)
    return wrap('off', {
      ...base,
      color_mode: null,
      brightness: null,
      ...(hasColour(spec) ? { hs_color: null, rgb_color: null, xy_color: null } : {}),
      ...(spec.modes.includes('color_temp') ? { color_temp_kelvin: null } : {}),
    });
  const dimmable = !(spec.modes.length === 1 && spec.modes[0] === 'onoff');
  const colour =
    light.hs === null
      ? {}
      : {
          hs_color: light.hs,
          rgb_color: Object.values(
            hsbToRgb({ hue: light.hs[0], saturation: light.hs[1] / 100, brightness: 1 }),
          ),
          xy_color: Object.values(hsbToXy({ hue: light.hs[0], saturation: light.hs[1] / 100 })).map(
            (v) => Math.round(v * 1000) / 1000,
          ),
        };
  return wrap('on', {
    ...base,
    color_mode: light.hs !== null ? spec.modes.find((m) => COLOUR_MODES.includes(m)) : spec.modes[0],
    ...(dimmable ? { brightness: light.brightness } : {}),
    ...colour,
    ...(light.kelvin !== null ? { color_temp_kelvin: light.kelvin } : {}),
  });
}

/** A CSS colour for the light now: its colour, a white for a temperature, black when off. */
export function lightHex(light: HaSimLight): string {
  if (!light.on || light.unavailable) return '#000000';
  const v = light.brightness / 255;
  const rgb =
    light.hs !== null
      ? hsbToRgb({ hue: light.hs[0], saturation: light.hs[1] / 100, brightness: v })
      : hsbToRgb({
          hue: 35,
          saturation: light.kelvin !== null && light.kelvin < 3500 ? 0.25 : 0,
          brightness: v,
        });
  return `#${[rgb.r, rgb.g, rgb.b].map((c) => c.toString(16).padStart(2, '0')).join('')}`;
}
