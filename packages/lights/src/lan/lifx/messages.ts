import {
  colorToHsbk,
  hsbToRgb,
  LIFX_POWER_ON,
  LIFX_WAVEFORM,
  skewRatioToWire,
  type Hsbk,
  type LifxMessage,
  type LightColor,
  type LightStep,
} from '@flaglight/core';
import { isOff, type LightStateCommand } from '../../driver.js';

// What the LIFX LAN driver sends for a look or a step (reference/lan-lights.md §1.4, §1.5).

/** Kelvin for white (saturation 0): daylight, as the reference's white (§1.4). */
export const LIFX_LAN_WHITE_KELVIN = 6500;

/** Which queued writes a newer one replaces: colour writes (SetColor, waveforms) and power writes. */
export type LanWriteGroup = 'color' | 'power';

export interface LanWrite {
  group: LanWriteGroup;
  message: LifxMessage;
}

/** The app's colour at a brightness (0–1) as HSBK; white gets {@link LIFX_LAN_WHITE_KELVIN}. */
export function toLanHsbk(color: LightColor, brightness: number): Hsbk {
  return colorToHsbk(
    { hue: color.hue, saturation: color.saturation, brightness },
    color.saturation <= 0 ? LIFX_LAN_WHITE_KELVIN : undefined,
  );
}

/** `#rrggbb` of a colour at a brightness (black when off), for `devices()`. */
export function toHex(color: Pick<LightColor, 'hue' | 'saturation' | 'off'>, brightness: number): string {
  if (color.off) return '#000000';
  const { r, g, b } = hsbToRgb({ hue: color.hue, saturation: color.saturation, brightness });
  return `#${[r, g, b].map((c) => c.toString(16).padStart(2, '0')).join('')}`;
}

const powerOn = (): LanWrite => ({
  group: 'power',
  message: { type: 'LightSetPower', level: LIFX_POWER_ON, durationMs: 0 },
});

/**
 * A look as writes: off is SetPower 0 (never brightness 0, so the colour survives, §1.4); on is
 * SetColor, then SetPower on (a bulb that was off lights up in the new colour, not the old one).
 */
export function stateWrites(state: LightStateCommand): LanWrite[] {
  const durationMs = Math.max(0, Math.round(state.transitionMs));
  if (isOff(state)) return [{ group: 'power', message: { type: 'LightSetPower', level: 0, durationMs } }];
  return [
    {
      group: 'color',
      message: { type: 'LightSetColor', color: toLanHsbk(state.color, state.brightness), durationMs },
    },
    powerOn(),
  ];
}

type Strobe = Extract<LightStep, { kind: 'strobe' }>;

/**
 * A strobe in two colour writes (§1.5): SetColor to the colour, then one SetWaveformOptional PULSE,
 * transient (the bulb returns to the colour), the step's period and cycles, half on and half off
 * (wire skew 0). Against black (every core strobe) only `set_brightness` with brightness 0, like the
 * cloud's pulse from `from_color` black; against another colour the whole colour alternates.
 */
export function strobeWrites(step: Strobe): LanWrite[] {
  const base = toLanHsbk(step.color, step.brightness);
  const against = step.fromColor.off
    ? { ...base, brightness: 0 }
    : toLanHsbk(step.fromColor, step.brightness);
  const onlyBrightness = step.fromColor.off === true;
  return [
    { group: 'color', message: { type: 'LightSetColor', color: base, durationMs: 0 } },
    {
      group: 'color',
      message: {
        type: 'LightSetWaveformOptional',
        transient: true,
        color: against,
        periodMs: Math.max(1, Math.round(step.periodMs)),
        cycles: step.cycles,
        skewRatio: skewRatioToWire(0.5),
        waveform: LIFX_WAVEFORM.PULSE,
        setHue: !onlyBrightness,
        setSaturation: !onlyBrightness,
        setBrightness: true,
        setKelvin: !onlyBrightness,
      },
    },
    powerOn(),
  ];
}
