import { clampToGamut, HUE_GAMUTS } from '@flaglight/core';

export interface HueSimLight {
  id: string;
  ownerId: string;
  idV1: string;
  name: string;
  archetype: string;
  on: boolean;
  /** 0-100 %. */
  brightness: number;
  xy: { x: number; y: number };
  /** The last `dynamics.duration` asked for (ms). */
  lastDurationMs: number;
  /** Its zigbee_connectivity status is 'connected' (false: 'connectivity_issue'). */
  reachable: boolean;
  updatedAt: number;
}

const NAMES: [string, string][] = [
  ['Hue Go', 'hue_go'],
  ['Living Room Lamp', 'sultan_bulb'],
  ['Hue Play Left', 'hue_play'],
  ['Hue Play Right', 'hue_play'],
];

function uuid(seed: number, kind: number): string {
  const hex = (n: number, w: number) => n.toString(16).padStart(w, '0');
  return `1e3d9a73-${hex(7069 + kind, 4)}-40ed-a889-${hex(0x051763348737 + seed, 12)}`;
}

/**
 * How each light starts, in turn: the first as it always did (on, 80 %, white), then one off, one
 * dimmed blue, one warm at full brightness. A room given back "as it was" shows its own mix.
 */
const INITIAL_LOOKS: Pick<HueSimLight, 'on' | 'brightness' | 'xy'>[] = [
  { on: true, brightness: 80, xy: { x: 0.3227, y: 0.329 } },
  { on: false, brightness: 50, xy: { x: 0.6, y: 0.33 } },
  { on: true, brightness: 25, xy: { x: 0.2, y: 0.15 } },
  { on: true, brightness: 100, xy: { x: 0.5, y: 0.41 } },
];

export function createHueLights(count: number, now: number): HueSimLight[] {
  return Array.from({ length: count }, (_, i) => {
    const [name, archetype] = NAMES[i % NAMES.length]!;
    return {
      id: uuid(i, 0),
      ownerId: uuid(i, 1),
      idV1: `/lights/${i + 1}`,
      name: i < NAMES.length ? name : `${name} ${Math.floor(i / NAMES.length) + 1}`,
      archetype,
      ...INITIAL_LOOKS[i % INITIAL_LOOKS.length]!,
      xy: { ...INITIAL_LOOKS[i % INITIAL_LOOKS.length]!.xy },
      lastDurationMs: 0,
      reachable: true,
      updatedAt: now,
    };
  });
}

/** The CLIP v2 light resource (reference §3.2), gamut C. */
export function toClipLight(light: HueSimLight) {
  return {
    type: 'light',
    id: light.id,
    id_v1: light.idV1,
    owner: { rid: light.ownerId, rtype: 'device' },
    metadata: { name: light.name, archetype: light.archetype, function: 'mixed' },
    on: { on: light.on },
    dimming: { brightness: light.brightness, min_dim_level: 0.2 },
    color_temperature: {
      mirek: null,
      mirek_valid: false,
      mirek_schema: { mirek_minimum: 153, mirek_maximum: 500 },
    },
    color: { xy: { ...light.xy }, gamut_type: 'C', gamut: HUE_GAMUTS.C },
    dynamics: { status: 'none', speed: 0, speed_valid: false },
    signaling: { signal_values: ['no_signal', 'on_off', 'on_off_color', 'alternating'] },
    effects: { status: 'no_effect', effect_values: ['no_effect', 'candle', 'fire', 'prism'] },
    mode: 'normal',
    service_id: 0,
  };
}

/** The device's zigbee_connectivity resource (CLIP v2): where a bridge reports a light unreachable. */
export function toClipConnectivity(light: HueSimLight) {
  return {
    type: 'zigbee_connectivity',
    id: light.ownerId.replace(/^1e3d9a73/, '2f4eab84'),
    owner: { rid: light.ownerId, rtype: 'device' },
    status: light.reachable ? 'connected' : 'connectivity_issue',
    mac_address: `00:17:88:01:0${light.idV1.slice(-1)}:00:00:0b`,
  };
}

type Body = Record<string, unknown>;
const isObject = (v: unknown): v is Body => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Validates and applies a CLIP v2 PUT body; returns an error description or null. */
export function applyLightPut(light: HueSimLight, body: unknown, now: number): string | null {
  if (!isObject(body)) return 'request body must be a JSON object';
  const next = { ...light };
  if (body.on !== undefined) {
    if (!isObject(body.on) || typeof body.on.on !== 'boolean') return "invalid value for 'on.on'";
    next.on = body.on.on;
  }
  if (body.dimming !== undefined) {
    const b = isObject(body.dimming) ? body.dimming.brightness : undefined;
    if (typeof b !== 'number' || b < 0 || b > 100) return "invalid value for 'dimming.brightness' (0-100)";
    next.brightness = Math.max(0.2, b);
  }
  if (body.color !== undefined) {
    const xy = isObject(body.color) && isObject(body.color.xy) ? body.color.xy : null;
    if (
      !xy ||
      typeof xy.x !== 'number' ||
      typeof xy.y !== 'number' ||
      xy.x < 0 ||
      xy.x > 1 ||
      xy.y < 0 ||
      xy.y > 1
    )
      return "invalid value for 'color.xy'";
    // The bridge moves a point outside the bulb's gamut onto its edge.
    next.xy = clampToGamut({ x: xy.x, y: xy.y }, HUE_GAMUTS.C);
  }
  if (body.dynamics !== undefined) {
    const d = isObject(body.dynamics) ? body.dynamics.duration : undefined;
    if (d !== undefined && (typeof d !== 'number' || d < 0 || !Number.isInteger(d)))
      return "invalid value for 'dynamics.duration'";
    next.lastDurationMs = typeof d === 'number' ? d : 0;
  }
  Object.assign(light, next, { updatedAt: now });
  return null;
}

/** CIE xy + brightness → `#rrggbb` (Philips' wide-gamut inverse matrix), for the demo page. */
export function xyToHex(xy: { x: number; y: number }, brightness: number): string {
  const Y = 1;
  const X = (Y / xy.y) * xy.x;
  const Z = (Y / xy.y) * (1 - xy.x - xy.y);
  let rgb = [
    X * 1.656492 - Y * 0.354851 - Z * 0.255038,
    -X * 0.707196 + Y * 1.655397 + Z * 0.036152,
    X * 0.051713 - Y * 0.121364 + Z * 1.01153,
  ].map((c) => Math.max(0, c));
  const max = Math.max(...rgb, 1e-9);
  rgb = rgb.map((c) => c / max);
  const gamma = (c: number) => (c <= 0.0031308 ? 12.92 * c : 1.055 * c ** (1 / 2.4) - 0.055);
  const scale = Math.max(0, Math.min(1, brightness / 100));
  return `#${rgb
    .map((c) =>
      Math.round(gamma(c) * scale * 255)
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`;
}
