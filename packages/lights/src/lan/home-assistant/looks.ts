import { hsbToRgb, hsbToXy } from '@flaglight/core';
import { isOff, type LightStateCommand } from '../../driver.js';

// Home Assistant's light entities and the one service call that shows a look on each (reference
// home-assistant-mqtt-wled.md §1.2–§1.4).

/** `supported_features` bits. */
export const HA_FEATURE_FLASH = 8;
export const HA_FEATURE_TRANSITION = 32;
/** More light entities than any home has; an answer listing more is cut here. */
export const HOME_ASSISTANT_MAX_LIGHTS = 500;
/** HA's defaults when a light does not say (§1.2). */
const DEFAULT_MIN_KELVIN = 2000;
const DEFAULT_MAX_KELVIN = 6535;
/** White on a light with a colour temperature: daylight, within its range. */
export const HOME_ASSISTANT_WHITE_KELVIN = 5000;
/** White on a white-only light whose flags are warm or cool ends: a neutral middle. */
const NEUTRAL_KELVIN = 4000;

const COLOUR_MODES = new Set(['hs', 'xy', 'rgb', 'rgbw', 'rgbww']);
const RGB_MODES = new Set(['hs', 'rgb', 'rgbw', 'rgbww']);

export interface HomeAssistantLight {
  entityId: string;
  name: string;
  area: string | null;
  modes: string[];
  features: number;
  minKelvin: number;
  maxKelvin: number;
  /** False while HA says `unavailable` (the device left its network). */
  available: boolean;
}

export type HomeAssistantService = 'turn_on' | 'turn_off';

export interface HomeAssistantCall {
  service: HomeAssistantService;
  body: Record<string, unknown>;
}

const ENTITY_ID = /^light\.[a-z0-9_]{1,200}$/;

/** The `light.*` entities of a `GET /api/states` answer; anything malformed is skipped. */
export function parseHomeAssistantLights(states: unknown): HomeAssistantLight[] {
  if (!Array.isArray(states)) return [];
  const lights: HomeAssistantLight[] = [];
  for (const state of states) {
    if (lights.length >= HOME_ASSISTANT_MAX_LIGHTS) break;
    if (typeof state !== 'object' || state === null) continue;
    const { entity_id: id, state: value, attributes } = state as Record<string, unknown>;
    if (typeof id !== 'string' || !ENTITY_ID.test(id)) continue;
    const a = (typeof attributes === 'object' && attributes !== null ? attributes : {}) as Record<
      string,
      unknown
    >;
    const modes = Array.isArray(a.supported_color_modes)
      ? a.supported_color_modes.filter((m): m is string => typeof m === 'string').slice(0, 10)
      : [];
    const kelvin = (v: unknown, fallback: number) =>
      typeof v === 'number' && Number.isFinite(v) && v >= 1000 && v <= 20_000 ? v : fallback;
    lights.push({
      entityId: id,
      name: typeof a.friendly_name === 'string' && a.friendly_name.trim() ? a.friendly_name : id,
      area: null,
      modes: modes.length > 0 ? modes : ['onoff'],
      features:
        typeof a.supported_features === 'number' && Number.isInteger(a.supported_features)
          ? a.supported_features
          : 0,
      minKelvin: kelvin(a.min_color_temp_kelvin, DEFAULT_MIN_KELVIN),
      maxKelvin: kelvin(a.max_color_temp_kelvin, DEFAULT_MAX_KELVIN),
      available: value !== 'unavailable',
    });
  }
  return lights;
}

/** The template of §1.6: each light's area (its own, else its device's), as JSON pairs. */
export const HOME_ASSISTANT_AREA_TEMPLATE =
  '[{% for s in states.light %}{{ [s.entity_id, area_name(s.entity_id)] | tojson }}{{ "," if not loop.last }}{% endfor %}]';

/** `[["light.desk","Office"],["light.hall",null]]` → entity id → area name; anything else → empty. */
export function parseHomeAssistantAreas(text: string): Map<string, string> {
  const areas = new Map<string, string>();
  let pairs: unknown;
  try {
    pairs = JSON.parse(text) as unknown;
  } catch {
    return areas;
  }
  if (!Array.isArray(pairs)) return areas;
  for (const pair of pairs.slice(0, HOME_ASSISTANT_MAX_LIGHTS * 2)) {
    if (!Array.isArray(pair) || typeof pair[0] !== 'string' || typeof pair[1] !== 'string') continue;
    if (pair[1].trim()) areas.set(pair[0], pair[1].slice(0, 80));
  }
  return areas;
}

export const hasColour = (light: Pick<HomeAssistantLight, 'modes'>) =>
  light.modes.some((m) => COLOUR_MODES.has(m));

/** A short description of what the light can show, for the device list. */
export function describeModes(light: HomeAssistantLight): string {
  if (hasColour(light)) return 'colour';
  if (light.modes.includes('color_temp')) return 'white (colour temperature)';
  if (light.modes.includes('brightness')) return 'dimmable';
  return 'on/off';
}

const clamp = (v: number, min: number, max: number) => Math.min(max, Math.max(min, Math.round(v)));

/**
 * The one service call that shows `look` on `light`: `turn_off` for an off look; else `turn_on`
 * with `brightness` (not for on/off-only lights) and one colour key: `rgb_color` (`xy_color` for
 * an xy-only light), `color_temp_kelvin` for white on a light with a colour temperature. A
 * white-only light cannot show a flag's colour (HA would turn red into a meaningless 6280 K, §1.4):
 * it shows warm white for red, orange and yellow, cool white for the others, and its brightness.
 * `transition` only where `supported_features` lists it; `flash` only in a strobe's call
 * (`homeAssistantFlashCall`).
 */
export function homeAssistantCall(light: HomeAssistantLight, look: LightStateCommand): HomeAssistantCall {
  const transition =
    light.features & HA_FEATURE_TRANSITION ? { transition: Math.round(look.transitionMs / 100) / 10 } : {};
  const entity = { entity_id: light.entityId };
  if (isOff(look) || look.brightness <= 0) return { service: 'turn_off', body: { ...entity, ...transition } };
  const dimmable = !(light.modes.length === 1 && light.modes[0] === 'onoff');
  const brightness = dimmable ? { brightness: clamp(look.brightness * 255, 1, 255) } : {};
  const white = look.color.saturation < 0.05;
  const kelvin = (k: number) => ({ color_temp_kelvin: clamp(k, light.minKelvin, light.maxKelvin) });
  let colour: Record<string, unknown> = {};
  if (hasColour(light)) {
    if (white && light.modes.includes('color_temp')) colour = kelvin(HOME_ASSISTANT_WHITE_KELVIN);
    else if (!light.modes.some((m) => RGB_MODES.has(m))) {
      const { x, y } = hsbToXy(look.color);
      colour = { xy_color: [Number(x.toFixed(4)), Number(y.toFixed(4))] };
    } else {
      const { r, g, b } = hsbToRgb({ ...look.color, brightness: 1 });
      colour = { rgb_color: [r, g, b] };
    }
  } else if (light.modes.includes('color_temp')) {
    const hue = ((look.color.hue % 360) + 360) % 360;
    const warm = hue <= 90 || hue >= 330;
    colour = kelvin(white ? NEUTRAL_KELVIN : warm ? light.minKelvin : light.maxKelvin);
  }
  return { service: 'turn_on', body: { ...entity, ...colour, ...brightness, ...transition } };
}

/**
 * A strobe's start on a light that flashes by itself: its look's call with `flash: short`, one blink
 * of the device's own (about a second on Hue, ZHA and Zigbee2MQTT lights, SPEC's caution strobe),
 * ending on the look. Never `long`: on several integrations it blinks for 15 s or until stopped, and
 * would outlast the flag. A light without the flash feature, or an off look, gets the plain call.
 */
export function homeAssistantFlashCall(
  light: HomeAssistantLight,
  look: LightStateCommand,
): HomeAssistantCall {
  const call = homeAssistantCall(light, look);
  if (!(light.features & HA_FEATURE_FLASH) || call.service !== 'turn_on') return call;
  return { service: 'turn_on', body: { ...call.body, flash: 'short' } };
}
