import { type Hsbk, LIFX_WAVEFORM, type LifxMessage, skewRatioFromWire } from '@flaglight/core';

export interface LifxWaveformRecord {
  waveform: number;
  waveformName: string;
  transient: boolean;
  color: Hsbk;
  periodMs: number;
  cycles: number;
  /** Wire i16 and as a 0–1 ratio. */
  skewRatio: number;
  skew: number;
  /** Components the waveform changes (all four for SetWaveform 103). */
  set: { hue: boolean; saturation: boolean; brightness: boolean; kelvin: boolean };
  /** The colour it started from, and when (the simulator's clock, ms). */
  from: Hsbk;
  startedAt: number;
}

/** The part of a bulb a waveform plays on. */
export interface WaveformState {
  /** The colour set by SetColor (what a transient waveform returns to). */
  color: Hsbk;
  waveform: LifxWaveformRecord | null;
  lastWaveform: LifxWaveformRecord | null;
}

const WAVEFORM_NAMES = new Map<number, string>(Object.entries(LIFX_WAVEFORM).map(([name, n]) => [n, name]));

/** Fraction 0–1 of the way from the start colour to the waveform colour at `phase` (0–1) of a cycle. */
function waveformLevel(record: LifxWaveformRecord, phase: number): number {
  switch (record.waveform) {
    case LIFX_WAVEFORM.SAW:
      return phase;
    case LIFX_WAVEFORM.SINE:
      return (1 - Math.cos(2 * Math.PI * phase)) / 2;
    case LIFX_WAVEFORM.HALF_SINE:
      return Math.sin(Math.PI * phase);
    case LIFX_WAVEFORM.TRIANGLE:
      return phase < 0.5 ? 2 * phase : 2 - 2 * phase;
    case LIFX_WAVEFORM.PULSE:
      // The waveform colour for a duty of 1 − skew, then the start colour (lan-lights.md §1.5).
      return phase < 1 - record.skew ? 1 : 0;
    default:
      return phase;
  }
}

function mix(from: Hsbk, to: Hsbk, level: number, set: LifxWaveformRecord['set']): Hsbk {
  const lerp = (a: number, b: number) => Math.round(a + (b - a) * level);
  // Hue goes the short way round the wheel.
  let dh = to.hue - from.hue;
  if (dh > 32768) dh -= 65536;
  if (dh < -32768) dh += 65536;
  return {
    hue: set.hue ? (Math.round(from.hue + dh * level) + 65536) % 65536 : from.hue,
    saturation: set.saturation ? lerp(from.saturation, to.saturation) : from.saturation,
    brightness: set.brightness ? lerp(from.brightness, to.brightness) : from.brightness,
    kelvin: set.kelvin ? lerp(from.kelvin, to.kelvin) : from.kelvin,
  };
}

/** Ends a finished waveform: a non-transient one leaves its colour set (§1.5). */
function settle(bulb: WaveformState, at: number): void {
  const w = bulb.waveform;
  if (!w) return;
  if (at - w.startedAt < w.periodMs * w.cycles) return;
  if (!w.transient) bulb.color = mix(w.from, w.color, 1, w.set);
  bulb.waveform = null;
}

/** The colour showing at `at`, a running waveform included. */
export function currentColor(bulb: WaveformState, at: number): Hsbk {
  settle(bulb, at);
  const w = bulb.waveform;
  if (!w || w.periodMs === 0) return { ...bulb.color };
  const elapsed = Math.max(0, at - w.startedAt);
  const phase = (elapsed % w.periodMs) / w.periodMs;
  return mix(w.from, w.color, waveformLevel(w, phase), w.set);
}

export function startWaveform(bulb: WaveformState, at: number, message: LifxMessage): void {
  if (message.type !== 'LightSetWaveform' && message.type !== 'LightSetWaveformOptional') return;
  const from = currentColor(bulb, at);
  const set =
    message.type === 'LightSetWaveformOptional'
      ? {
          hue: message.setHue,
          saturation: message.setSaturation,
          brightness: message.setBrightness,
          kelvin: message.setKelvin,
        }
      : { hue: true, saturation: true, brightness: true, kelvin: true };
  const record: LifxWaveformRecord = {
    waveform: message.waveform,
    waveformName: WAVEFORM_NAMES.get(message.waveform) ?? `unknown ${message.waveform}`,
    transient: message.transient,
    color: message.color,
    periodMs: message.periodMs,
    cycles: message.cycles,
    skewRatio: message.skewRatio,
    skew: skewRatioFromWire(message.skewRatio),
    set,
    from,
    startedAt: at,
  };
  // The waveform runs from the colour showing now; a transient one returns to it afterwards.
  bulb.color = from;
  bulb.waveform = record;
  bulb.lastWaveform = record;
}
