import { hsbToRgb, type LightColor, type LightStep } from '@flaglight/core';
import { isOff, type LightStateCommand } from '../../driver.js';

// What the WLED driver reads from a device and sends it (reference home-assistant-mqtt-wled.md §3).

type Strobe = Extract<LightStep, { kind: 'strobe' }>;

/** What the driver keeps of `GET /json/info`. */
export interface WledInfo {
  /** `mac` in lower-case hex: the light's id (it survives a new address), or null when absent. */
  mac: string | null;
  name: string;
  version: string | null;
  ledCount: number;
  /** `leds.lc` has the white bit (2) or the old `leds.rgbw`: colours are sent as `[r, g, b, 0]`. */
  white: boolean;
  /** Another app streams to the device (E1.31, DDP…): it shows that until the stream ends. */
  live: boolean;
}

/** Effect ids found by name in `GET /json/effects` (they differ between versions and forks). */
export interface WledEffectIds {
  solid: number;
  /** The effect a strobe is shown with (Blink, else Strobe), or null: the strobe is paced writes. */
  flash: { id: number; name: string } | null;
}

/** Blink alternates `col[0]` and `col[1]` evenly, as SPEC §4's strobe does; Strobe lights one frame. */
export const WLED_FLASH_EFFECTS = ['Blink', 'Strobe', 'Mega Strobe'] as const;
/** Blink's `ix` is its duty cycle: half on, half off. */
const EVEN_DUTY = 128;

const record = (v: unknown): Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

/** Reads `GET /json/info`; null when it is not a WLED answer at all (no `leds`, no `ver`). */
export function parseWledInfo(body: unknown): WledInfo | null {
  const info = record(body);
  const leds = record(info.leds);
  if (Object.keys(leds).length === 0 && typeof info.ver !== 'string') return null;
  const mac =
    typeof info.mac === 'string' && /^[0-9a-f]{12}$/i.test(info.mac) ? info.mac.toLowerCase() : null;
  const lc = typeof leds.lc === 'number' ? leds.lc : 0;
  return {
    mac,
    name: typeof info.name === 'string' && info.name.trim() !== '' ? info.name.slice(0, 200) : 'WLED',
    version: typeof info.ver === 'string' ? info.ver.slice(0, 40) : null,
    ledCount: typeof leds.count === 'number' && Number.isFinite(leds.count) ? leds.count : 0,
    white: (lc & 2) !== 0 || leds.rgbw === true,
    live: info.live === true,
  };
}

/**
 * Finds the effects by name in `GET /json/effects` (an array of names, the id being the position):
 * Solid (0 when the list has none by that name) and the first of {@link WLED_FLASH_EFFECTS} present.
 */
export function findWledEffects(body: unknown): WledEffectIds {
  const names = Array.isArray(body)
    ? body.map((n) => (typeof n === 'string' ? n.trim().toLowerCase() : ''))
    : [];
  const find = (name: string) => names.indexOf(name.toLowerCase());
  const solid = find('Solid');
  for (const name of WLED_FLASH_EFFECTS) {
    const id = find(name);
    if (id >= 0) return { solid: Math.max(0, solid), flash: { id, name } };
  }
  return { solid: Math.max(0, solid), flash: null };
}

/** RGB 0–255 of a colour at full value (`bri` dims it on the device); four channels for RGBW. */
export function toWledColor(color: LightColor, white: boolean): number[] {
  const { r, g, b } = color.off
    ? { r: 0, g: 0, b: 0 }
    : hsbToRgb({ hue: color.hue, saturation: color.saturation, brightness: 1 });
  return white ? [r, g, b, 0] : [r, g, b];
}

/** Brightness 0–1 → `bri` 1–255 (0 would switch the light off: `on:false` does that). */
export function toWledBri(brightness: number): number {
  return Math.max(1, Math.min(255, Math.round(brightness * 255)));
}

/** A look as one `POST /json/state` body: on, bri, fade (`transition` in 100 ms) and the solid colour. */
export function wledStateBody(state: LightStateCommand, effects: WledEffectIds, white: boolean): unknown {
  const transition = Math.max(0, Math.round(state.transitionMs / 100));
  if (isOff(state)) return { on: false, transition };
  return {
    on: true,
    bri: toWledBri(state.brightness),
    transition,
    seg: {
      fx: effects.solid,
      pal: 0,
      col: [
        toWledColor(state.color, white),
        toWledColor({ name: 'black', hue: 0, saturation: 0, off: true }, white),
      ],
    },
  };
}

/**
 * Blink's (and Strobe's) period is about (255 − `sx`) × 20 ms + 46 ms (two frames at 42 fps,
 * reference §3.3): the speed closest to the period, so 0.1 s → 252 and 0.2 s → 247.
 */
export function wledSpeedFor(periodMs: number): number {
  return Math.max(0, Math.min(255, Math.round(255 - (periodMs - 46) / 20)));
}

/** A strobe as one `POST /json/state`: the flash effect with `color` over `fromColor`, at once. */
export function wledStrobeBody(step: Strobe, flash: { id: number }, white: boolean): unknown {
  return {
    on: true,
    bri: toWledBri(step.brightness),
    transition: 0,
    seg: {
      fx: flash.id,
      sx: wledSpeedFor(step.periodMs),
      ix: EVEN_DUTY,
      pal: 0,
      col: [toWledColor(step.color, white), toWledColor(step.fromColor, white)],
    },
  };
}
