import { createHueLights, type HueSimLight, toClipLight, xyToHex } from '../hue/lights.js';

export const LOCAL_HUE_SIGNAL_VALUES = ['no_signal', 'on_off', 'on_off_color', 'alternating'] as const;
const MAX_SIGNAL_DURATION_MS = 65_534_000;

export interface LocalHueSignal {
  signal: string;
  durationMs: number;
  colors: { x: number; y: number }[];
  at: number;
}

export interface LocalHueLightView {
  id: string;
  name: string;
  on: boolean;
  brightness: number;
  xy: { x: number; y: number } | null;
  hex: string;
  lastDurationMs: number;
  signaling: boolean;
  lastSignal: LocalHueSignal | null;
}

/** A light of the local bridge: the cloud simulator's light, and whether it takes `signaling`. */
export interface LanLight extends HueSimLight {
  signaling: boolean;
  lastSignal: LocalHueSignal | null;
}

type Body = Record<string, unknown>;
const isObject = (v: unknown): v is Body => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * How each light is before anyone changes it (round the list): each its own, one off and some
 * dimmed, so giving the room back shows.
 */
const FIRST_LOOKS: Pick<LanLight, 'on' | 'brightness' | 'xy'>[] = [
  { on: true, brightness: 80, xy: { x: 0.3227, y: 0.329 } },
  { on: false, brightness: 100, xy: { x: 0.4575, y: 0.4099 } },
  { on: true, brightness: 25, xy: { x: 0.17, y: 0.06 } },
  { on: true, brightness: 60, xy: { x: 0.55, y: 0.41 } },
];

/** Four lights, each in its own first look; the fourth has no `signaling`. */
export function createLocalHueLights(at: number): LanLight[] {
  return createHueLights(4, at).map((light, i) => ({
    ...light,
    ...FIRST_LOOKS[i % FIRST_LOOKS.length]!,
    signaling: i !== 3,
    lastSignal: null,
  }));
}

/** Validates a `signaling` object (§2.4); returns an error or the signal to record. */
export function parseSignaling(value: unknown, at: number): string | LocalHueSignal {
  if (!isObject(value)) return "invalid value for 'signaling'";
  const { signal, duration, colors } = value;
  if (typeof signal !== 'string' || !(LOCAL_HUE_SIGNAL_VALUES as readonly string[]).includes(signal))
    return `invalid value for 'signaling.signal' (one of ${LOCAL_HUE_SIGNAL_VALUES.join(', ')})`;
  if (
    signal !== 'no_signal' &&
    (typeof duration !== 'number' || duration < 0 || duration > MAX_SIGNAL_DURATION_MS)
  )
    return "invalid value for 'signaling.duration' (ms, at most 65534000)";
  const list = colors === undefined ? [] : colors;
  if (!Array.isArray(list)) return "invalid value for 'signaling.colors'";
  const xys: { x: number; y: number }[] = [];
  for (const c of list) {
    const xy = isObject(c) && isObject(c.xy) ? c.xy : null;
    if (!xy || typeof xy.x !== 'number' || typeof xy.y !== 'number')
      return "invalid value for 'signaling.colors'";
    xys.push({ x: xy.x, y: xy.y });
  }
  const needed = signal === 'on_off_color' ? 1 : signal === 'alternating' ? 2 : 0;
  if (xys.length < needed) return `'${signal}' needs ${needed} colour(s) in 'signaling.colors'`;
  // The bridge counts in whole seconds.
  const durationMs = typeof duration === 'number' ? Math.round(duration / 1000) * 1000 : 0;
  return { signal, durationMs, colors: xys, at };
}

/** A light as CLIP v2 shows it `now`: `signaling` only where supported, its status while one runs. */
export function clipLight(light: LanLight, now: number) {
  const clip: Record<string, unknown> = toClipLight(light);
  if (!light.signaling) delete clip.signaling;
  else if (light.lastSignal && light.lastSignal.signal !== 'no_signal') {
    const end = light.lastSignal.at + light.lastSignal.durationMs;
    if (end > now)
      clip.signaling = {
        signal_values: [...LOCAL_HUE_SIGNAL_VALUES],
        status: { signal: light.lastSignal.signal, estimated_end: new Date(end).toISOString() },
      };
  }
  return clip;
}

export function viewLocalHueLight(light: LanLight): LocalHueLightView {
  return {
    id: light.id,
    name: light.name,
    on: light.on,
    brightness: light.brightness,
    xy: { ...light.xy },
    hex: xyToHex(light.xy, light.brightness),
    lastDurationMs: light.lastDurationMs,
    signaling: light.signaling,
    lastSignal: light.lastSignal,
  };
}
