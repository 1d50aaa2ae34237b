import { type Bulb, type Hsbk } from './bulbs.js';
import { type HsbkPatch, parseLifxColor } from './colors.js';

type Body = Record<string, unknown>;

const STATE_FIELDS = new Set(['power', 'color', 'brightness', 'duration', 'infrared', 'fast', 'selector']);

/** What a `PUT .../state` (or one entry of `PUT /v1/lights/states`) asks of a bulb. */
export interface StateChange {
  power?: 'on' | 'off';
  color?: HsbkPatch;
  brightness?: number;
}

type Validation<T> = { ok: true; value: T; warnings: Body } | { ok: false; error: string; field: string };

/** Checks a state body as LIFX does: the first bad field is a 422, unknown fields are warnings. */
export function validateState(raw: Body): Validation<StateChange & { fast: boolean }> {
  const out: StateChange & { fast: boolean } = { fast: false };
  const unknown: Body = {};
  for (const [key, value] of Object.entries(raw)) if (!STATE_FIELDS.has(key)) unknown[key] = value;
  if (raw.power !== undefined) {
    if (raw.power !== 'on' && raw.power !== 'off')
      return { ok: false, field: 'power', error: 'power must be "on" or "off"' };
    out.power = raw.power;
  }
  if (raw.color !== undefined) {
    const parsed = parseLifxColor(raw.color);
    if (!parsed.ok) return { ok: false, field: 'color', error: parsed.error };
    out.color = parsed.value;
  }
  for (const key of ['brightness', 'infrared'] as const) {
    const v = raw[key];
    if (v !== undefined && (typeof v !== 'number' || v < 0 || v > 1))
      return { ok: false, field: key, error: `${key} must be a number between 0.0 and 1.0` };
  }
  if (typeof raw.brightness === 'number') out.brightness = raw.brightness;
  if (raw.duration !== undefined && (typeof raw.duration !== 'number' || raw.duration < 0))
    return { ok: false, field: 'duration', error: 'duration must be a non-negative number' };
  if (raw.fast !== undefined) {
    if (typeof raw.fast !== 'boolean') return { ok: false, field: 'fast', error: 'fast must be a boolean' };
    out.fast = raw.fast;
  }
  return { ok: true, value: out, warnings: unknown };
}

/** Applies a change to a connected bulb (an offline one ignores it); any running effect stops. */
export function applyState(bulb: Bulb, change: StateChange): void {
  if (!bulb.connected) return;
  bulb.effect = null;
  if (change.power) bulb.power = change.power;
  if (change.color) {
    const { hue, saturation, brightness, kelvin } = change.color;
    if (hue !== undefined) bulb.hue = hue;
    if (saturation !== undefined) bulb.saturation = saturation;
    if (brightness !== undefined) bulb.brightness = brightness;
    if (kelvin !== undefined) bulb.kelvin = kelvin;
  }
  if (change.brightness !== undefined) bulb.brightness = change.brightness;
}

/** A full colour: the patch's components, the bulb's own where the patch has none. */
export function fillHsbk(bulb: Bulb, patch: HsbkPatch | undefined): Hsbk {
  return {
    hue: patch?.hue ?? bulb.hue,
    saturation: patch?.saturation ?? bulb.saturation,
    brightness: patch?.brightness ?? bulb.brightness,
    kelvin: patch?.kelvin ?? bulb.kelvin,
  };
}
