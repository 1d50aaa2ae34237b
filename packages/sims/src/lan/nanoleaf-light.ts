import { hsbToRgb } from '@flaglight/core/color';
import { frameAt } from './nanoleaf-anim-data.js';
import type { NanoleafSimLookFields, NanoleafSimPanel } from './nanoleaf-types.js';

const CONTROLLER_SHAPE_TYPES = new Set([1, 12, 16, 19, 20]);

export type Body = Record<string, unknown>;
export const isObject = (v: unknown): v is Body => typeof v === 'object' && v !== null && !Array.isArray(v);

export interface NanoleafLook extends NanoleafSimLookFields {
  /** A brightness write with `duration`: the level ramps from `from` to `brightness`. */
  ramp: { from: number; at: number; ms: number } | null;
}

/** One controller's panels and the look they show, on the `now` clock. */
export interface NanoleafLight {
  now: () => number;
  name: string;
  serialNo: string;
  model: string;
  layout: NanoleafSimPanel[];
  hasLayout: boolean;
  ledIds: Set<number>;
  /** Saved effect names: `add` appends one, and a reset keeps them. */
  effectsList: string[];
  look: NanoleafLook;
  /** The look a `displayTemp` effect returns to. */
  beforeTemp: NanoleafLook | null;
  /** What its first look differs in from the default (a reset goes back to it). */
  first: Partial<NanoleafSimLookFields>;
}

function defaultPanels(count: number): NanoleafSimPanel[] {
  if (count <= 0) return [];
  const controller: NanoleafSimPanel = { panelId: 0, x: 0, y: 0, o: 0, shapeType: 12 };
  const panels = Array.from({ length: count }, (_, k) => ({
    panelId: 1000 + k * 37,
    x: 100 * (k % 4),
    y: 87 * Math.floor(k / 4),
    o: (k % 2) * 180,
    shapeType: 7,
  }));
  return [controller, ...panels];
}

const hex = ([r, g, b]: [number, number, number]) =>
  `#${[r, g, b].map((c) => Math.round(c).toString(16).padStart(2, '0')).join('')}`;

const firstLook = (): NanoleafLook => ({
  on: true,
  brightness: 60,
  hue: 40,
  sat: 30,
  ct: 4000,
  colorMode: 'hs',
  select: '*Solid*',
  effect: null,
  ramp: null,
});

export function createNanoleafLight(options: {
  now: () => number;
  name: string;
  serialNo: string;
  model: string;
  panelCount: number;
  firstLook?: Partial<NanoleafSimLookFields> | undefined;
}): NanoleafLight {
  const layout = defaultPanels(options.panelCount);
  return {
    now: options.now,
    name: options.name,
    serialNo: options.serialNo,
    model: options.model,
    layout,
    hasLayout: layout.length > 0,
    ledIds: new Set(layout.filter((p) => !CONTROLLER_SHAPE_TYPES.has(p.shapeType)).map((p) => p.panelId)),
    effectsList: ['Northern Lights', 'Flames', 'Forest'],
    look: { ...firstLook(), ...options.firstLook },
    beforeTemp: null,
    first: { ...options.firstLook },
  };
}

/** Back to the first look (the saved effects stay). */
export function resetNanoleafLook(light: NanoleafLight): void {
  light.look = { ...firstLook(), ...light.first };
  light.beforeTemp = null;
}

/** A `displayTemp` effect reverts once its duration has passed (checked on every read). */
export function currentLook(light: NanoleafLight): NanoleafLook {
  const { now, look, beforeTemp } = light;
  if (look.effect?.revertAt != null && now() >= look.effect.revertAt && beforeTemp) {
    light.look = beforeTemp;
    light.beforeTemp = null;
  }
  return light.look;
}

/** The brightness shown now: part way along a ramp, else the last value written. */
export function shownBrightness(light: NanoleafLight, l: NanoleafLook): number {
  const now = light.now;
  if (!l.ramp || now() >= l.ramp.at + l.ramp.ms) return l.brightness;
  const part = (now() - l.ramp.at) / l.ramp.ms;
  return Math.round(l.ramp.from + (l.brightness - l.ramp.from) * part);
}

/** Each LED panel's colour now (`#rrggbb`, brightness applied; black when off or dark). */
export function panelColors(light: NanoleafLight): { panelId: number; hex: string }[] {
  const now = light.now;
  const l = currentLook(light);
  const scale = l.on ? shownBrightness(light, l) / 100 : 0;
  return [...light.ledIds].map((panelId) => {
    let rgb: [number, number, number];
    if (l.colorMode === 'effect' && l.effect) {
      const frames = l.effect.frames[panelId];
      const frame = frames
        ? frameAt(frames, now() - l.effect.startedAt, l.effect.loop)
        : ([0, 0, 0, 0] as const);
      rgb = [frame[0] * scale, frame[1] * scale, frame[2] * scale];
    } else {
      const sat = l.colorMode === 'ct' ? 0 : l.sat / 100;
      const c = hsbToRgb({ hue: l.hue, saturation: sat, brightness: scale });
      rgb = [c.r, c.g, c.b];
    }
    return { panelId, hex: hex(rgb) };
  });
}

/** `GET /api/v1/<token>/`: the whole controller, as the OpenAPI describes it. */
export function describeNanoleaf(light: NanoleafLight) {
  const l = currentLook(light);
  const { layout } = light;
  return {
    name: light.name,
    serialNo: light.serialNo,
    manufacturer: 'Nanoleaf',
    firmwareVersion: '9.2.4',
    hardwareVersion: '1.2-4',
    model: light.model,
    state: {
      on: { value: l.on },
      brightness: { value: shownBrightness(light, l), max: 100, min: 0 },
      hue: { value: l.hue, max: 360, min: 0 },
      sat: { value: l.sat, max: 100, min: 0 },
      ct: { value: l.ct, max: 6500, min: 1200 },
      colorMode: l.colorMode,
    },
    effects: { select: l.select, effectsList: [...light.effectsList] },
    ...(light.hasLayout
      ? {
          panelLayout: {
            layout: {
              numPanels: layout.length,
              sideLength: 100,
              positionData: layout.map((p) => ({ ...p })),
            },
            globalOrientation: { value: 0, max: 360, min: 0 },
          },
        }
      : {}),
  };
}

/** GET of a leaf (reference §1: "GET any leaf"): `/state/brightness`, `/effects/select`… */
export function leafOf(light: NanoleafLight, path: string[]): unknown {
  let node: unknown = describeNanoleaf(light);
  for (const part of path) {
    if (!isObject(node) || !(part in node)) return undefined;
    node = node[part];
  }
  return node;
}
