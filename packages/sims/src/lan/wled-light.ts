type Body = Record<string, unknown>;

/** WLED renders at 42 frames/s by default: Blink's period counts two of them (reference §3.3). */
const FRAME_MS = 23;

export interface WledSimSegment {
  id: number;
  start: number;
  stop: number;
  on: boolean;
  bri: number;
  col: number[][];
  fx: number;
  sx: number;
  ix: number;
  pal: number;
}

export interface WledSimState {
  on: boolean;
  bri: number;
  transition: number;
  /** The preset loaded last; -1 once a segment is changed by hand (as WLED does). */
  ps: number;
  seg: WledSimSegment[];
}

/** Where a device's first look differs from amber at half brightness (a preset it starts in, off…). */
export interface WledSimFirst {
  on?: boolean;
  bri?: number;
  /** The first segment's colour. */
  col?: readonly number[];
  /** A preset it starts in (`WLED_SIM_PRESETS`). */
  ps?: number;
}

/** The presets every simulated device has saved: `ps` loads one (its on, brightness and segment). */
export const WLED_SIM_PRESETS: Record<number, { name: string; bri: number; col: number[]; fx: number }> = {
  1: { name: 'Evening glow', bri: 90, col: [255, 80, 20], fx: 2 },
  2: { name: 'Party', bri: 200, col: [120, 0, 255], fx: 9 },
};

const isObject = (v: unknown): v is Body => typeof v === 'object' && v !== null && !Array.isArray(v);
const byte = (v: unknown) => typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= 255;

/** The look a WLED device starts with (and has again after a reset): amber, half brightness, unless `first` says. */
export function firstWledState(ledCount: number, white: boolean, first: WledSimFirst = {}): WledSimState {
  const state = plainWledState(ledCount, white);
  if (first.ps !== undefined) loadPreset(state, first.ps, white);
  if (first.col) state.seg[0]!.col[0] = white ? [...first.col.slice(0, 3), 0] : first.col.slice(0, 3);
  if (first.bri !== undefined) state.bri = first.bri;
  if (first.on !== undefined) state.on = first.on;
  return state;
}

/** Loads a saved preset onto the state; false for one not saved. */
function loadPreset(state: WledSimState, ps: number, white: boolean): boolean {
  const preset = WLED_SIM_PRESETS[ps];
  const seg = state.seg[0];
  if (!preset || !seg) return false;
  state.on = true;
  state.bri = preset.bri;
  state.ps = ps;
  seg.col[0] = white ? [...preset.col, 0] : [...preset.col];
  seg.fx = preset.fx;
  return true;
}

function plainWledState(ledCount: number, white: boolean): WledSimState {
  return {
    on: true,
    bri: 128,
    transition: 7,
    ps: -1,
    seg: [
      {
        id: 0,
        start: 0,
        stop: ledCount,
        on: true,
        bri: 255,
        col: [white ? [255, 160, 0, 0] : [255, 160, 0], [0, 0, 0], [0, 0, 0]],
        fx: 0,
        sx: 128,
        ix: 128,
        pal: 0,
      },
    ],
  };
}

export interface WledLight {
  effects: readonly string[];
  /** RGBW: colours keep a fourth, white channel. */
  white: boolean;
  /** Called for each segment whose `fx` the body names: the effect starts over. */
  restartEffect(): void;
}

/**
 * Reads a `POST /json/state` body onto a copy of `state`: the new state, or an error text when a
 * key is out of range (then nothing is applied).
 */
export function applyWledState(
  state: WledSimState,
  body: unknown,
  light: WledLight,
): { state: WledSimState } | { error: string } {
  if (!isObject(body)) return { error: 'not an object' };
  const next: WledSimState = structuredClone(state);
  if (body.on !== undefined) {
    if (body.on === 't') next.on = !next.on;
    else if (typeof body.on === 'boolean') next.on = body.on;
    else return { error: 'on is a boolean or "t"' };
  }
  if (body.bri !== undefined) {
    if (!byte(body.bri)) return { error: 'bri is 0-255' };
    next.bri = body.bri as number;
  }
  if (body.transition !== undefined) {
    if (typeof body.transition !== 'number' || body.transition < 0)
      return { error: 'transition is a number' };
    next.transition = body.transition;
  }
  if (body.ps !== undefined) {
    if (typeof body.ps !== 'number' || !loadPreset(next, body.ps, light.white))
      return { error: 'ps names no saved preset' };
    light.restartEffect();
  }
  const segs = body.seg === undefined ? [] : Array.isArray(body.seg) ? body.seg : [body.seg];
  if (segs.length > 0) next.ps = -1;
  for (const raw of segs) {
    if (!isObject(raw)) return { error: 'seg holds objects' };
    const id = typeof raw.id === 'number' ? raw.id : 0;
    const seg = next.seg.find((s) => s.id === id);
    if (!seg) continue;
    const error = applySegment(seg, raw, light);
    if (error) return { error };
    if (raw.fx !== undefined) light.restartEffect();
  }
  return { state: next };
}

/** One `seg` entry onto its segment; an error text when a key is out of range. */
function applySegment(seg: WledSimSegment, raw: Body, { effects, white }: WledLight): string | null {
  for (const key of ['fx', 'sx', 'ix', 'pal', 'bri'] as const) {
    if (raw[key] === undefined) continue;
    if (!byte(raw[key])) return `seg.${key} is 0-255`;
    seg[key] = raw[key] as number;
  }
  if (seg.fx >= effects.length) seg.fx = 0;
  if (typeof raw.on === 'boolean') seg.on = raw.on;
  if (raw.col !== undefined) {
    if (!Array.isArray(raw.col) || raw.col.length > 3) return 'seg.col is up to 3 colours';
    raw.col.forEach((c: unknown, k: number) => {
      if (Array.isArray(c) && c.length >= 3 && c.length <= 4 && c.every(byte))
        seg.col[k] = white
          ? [...(c as number[]).slice(0, 3), (c as number[])[3] ?? 0]
          : (c as number[]).slice(0, 3);
    });
    if (!raw.col.every((c: unknown) => Array.isArray(c) && c.length >= 3 && c.every(byte)))
      return 'seg.col colours are [r,g,b(,w)] 0-255';
  }
  return null;
}

/**
 * The first LED `effectMs` into the effect: Blink alternates col[0]/col[1]; Strobe lights col[0]
 * for one frame a period.
 */
export function wledHexNow(state: WledSimState, effects: readonly string[], effectMs: number): string {
  const seg = state.seg[0]!;
  if (!state.on || !seg.on) return '#000000';
  const fx = effects[seg.fx] ?? 'Solid';
  let color = seg.col[0]!;
  if (fx === 'Blink' || fx === 'Strobe' || fx === 'Strobe Mega') {
    const cycle = (255 - seg.sx) * 20;
    const period = cycle + 2 * FRAME_MS;
    const onMs = fx === 'Blink' ? FRAME_MS + (cycle * seg.ix) / 256 : FRAME_MS;
    if (effectMs % period >= onMs) color = seg.col[1]!;
  }
  const scale = (state.bri / 255) * (seg.bri / 255);
  return `#${color
    .slice(0, 3)
    .map((c) =>
      Math.round(c * scale)
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`;
}
