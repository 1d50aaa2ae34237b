import type { GoveeBudgetMode } from '@flaglight/contract';
import {
  DEFAULT_LOOK_SET,
  getSettledLook,
  hsbToRgb,
  isMomentary,
  type EffectFlag,
  type LookSet,
  type ShowLook,
} from '@flaglight/core';
import type { GoveeControl } from './client.js';

/** Reference §2.2: 10 control calls per device per minute, 10,000 per account per day. */
export const GOVEE_PER_DEVICE_PER_MINUTE = 10;
export const GOVEE_DAILY_LIMIT = 10_000;
/** Below this share of the day's budget only colours are sent (no brightness, no fastest lap). */
export const GOVEE_SAVING_BELOW = 0.25;
/** Below this share only track-wide flags are sent (reference §2.2: degrade rather than fail mid-race). */
export const GOVEE_TRACK_ONLY_BELOW = 0.1;
/** A burst of flag changes within this window sends only the latest (the cloud takes seconds anyway). */
export const GOVEE_COALESCE_MS = 250;
/** Track-wide flags: what is left to show when the day's budget runs low. */
export const GOVEE_TRACK_WIDE_FLAGS: readonly EffectFlag[] = ['red', 'green', 'checkered', 'safety', 'vsc'];

/**
 * A solid look: power, colour as Govee's `colorRgb` (r*65536+g*256+b) or a white as its
 * `colorTemperatureK` (kelvin wins when both are given), brightness 1-100 %.
 */
export interface GoveeLook {
  on: boolean;
  rgb?: number;
  kelvin?: number;
  brightness?: number;
}

/**
 * What a device is known to show (from our own successful calls, or its state read); unknown fields
 * are absent. `rgb` and `kelvin` never both: a device shows a colour or a white.
 */
export interface GoveeKnownState {
  on?: boolean;
  rgb?: number;
  kelvin?: number;
  brightness?: number;
}

/** A device as read before a session: its power, brightness and colour or white, or why it cannot be read. */
export type GoveeReadState =
  | { readable: true; on: boolean; state: GoveeKnownState & { on: boolean } }
  | { readable: false; reason: string };

const COLOUR = 'devices.capabilities.color_setting';

/** The colour call a look needs (a white by its kelvin, else its colour), or null when it shows. */
function colourCapability(known: GoveeKnownState, want: GoveeLook): GoveeControl | null {
  if (want.kelvin !== undefined)
    return known.kelvin === want.kelvin
      ? null
      : { type: COLOUR, instance: 'colorTemperatureK', value: want.kelvin };
  if (want.rgb !== undefined && known.rgb !== want.rgb)
    return { type: COLOUR, instance: 'colorRgb', value: want.rgb };
  return null;
}

/**
 * The next call that brings a device from what it is known to show to the wanted look, or null
 * when nothing differs. One capability per call (that is Govee's API): a device known to be off is
 * switched on first; otherwise the colour goes first (it shows at once), then power, then brightness.
 */
export function nextCapability(known: GoveeKnownState, want: GoveeLook | null): GoveeControl | null {
  if (!want) return null;
  const power = (value: number) => ({ type: 'devices.capabilities.on_off', instance: 'powerSwitch', value });
  if (!want.on) return known.on === false ? null : power(0);
  if (known.on === false) return power(1);
  const colour = colourCapability(known, want);
  if (colour) return colour;
  if (known.on !== true) return power(1);
  if (want.brightness !== undefined && known.brightness !== want.brightness)
    return { type: 'devices.capabilities.range', instance: 'brightness', value: want.brightness };
  return null;
}

/** What a device shows after a call Govee accepted. */
export function applyCapability(known: GoveeKnownState, capability: GoveeControl): void {
  if (capability.instance === 'powerSwitch') known.on = capability.value === 1;
  else if (capability.instance === 'colorRgb') {
    known.rgb = capability.value;
    delete known.kelvin;
  } else if (capability.instance === 'colorTemperatureK') {
    known.kelvin = capability.value;
    delete known.rgb;
  } else if (capability.instance === 'brightness') known.brightness = capability.value;
}

/** How much the remaining day's budget allows (see GOVEE_BUDGET_MODES in the contract). */
export function deriveBudgetMode(remaining: number, limit: number): GoveeBudgetMode {
  if (remaining <= 0) return 'exhausted';
  const share = limit > 0 ? remaining / limit : 0;
  if (share < GOVEE_TRACK_ONLY_BELOW) return 'track_only';
  if (share < GOVEE_SAVING_BELOW) return 'saving';
  return 'normal';
}

export function toGoveeRgb(color: { r: number; g: number; b: number }): number {
  return color.r * 65536 + color.g * 256 + color.b;
}

export interface GoveeFlagPlan {
  /** False: this flag is skipped in this mode; the lights keep their last look. */
  send: boolean;
  look: GoveeLook | null;
  /** Fastest lap: go back to the lasting look after this long. */
  restoreAfterMs: number | null;
  /** What the cloud shows instead of the effect, in words. */
  note: string;
}

function solid(look: { color: { hue: number; saturation: number }; brightness: number }): GoveeLook {
  const rgb = toGoveeRgb(hsbToRgb({ hue: look.color.hue, saturation: look.color.saturation, brightness: 1 }));
  return { on: true, rgb, brightness: Math.max(1, Math.round(look.brightness * 100)) };
}

/**
 * The settled colour of a flag in the fan's look set as a Govee look (reference §4: cloud = solid
 * colours only); the momentary fastest lap shows its look's colour, under the set's cap. Null for a
 * flag the set leaves alone.
 */
export function lookForFlag(flag: EffectFlag, looks: LookSet = DEFAULT_LOOK_SET): GoveeLook | null {
  const look = looks.flags[flag];
  if (look.kind === 'leave') return null;
  if (isMomentary(flag))
    return solid({ color: look.color, brightness: Math.min(look.brightness, looks.brightnessCap) / 100 });
  const settled = getSettledLook(flag, looks);
  if (!settled || settled.color.off) return { on: false };
  return solid(settled);
}

const EFFECT_WORDS: Record<ShowLook['effect']['kind'], string> = {
  steady: '',
  strobe: ' (Govee cloud cannot strobe)',
  pulse: ' (Govee cloud cannot pulse)',
  breathe: ' (Govee cloud cannot breathe)',
};

/** What the cloud shows of a look instead of its effect, in words. */
function describeLook(flag: EffectFlag, look: ShowLook): string {
  if (isMomentary(flag))
    return `${look.color.name} for ${Math.round(look.effectMs / 100) / 10} s, then back to the flag before`;
  if (flag === 'checkered' && look.effect.kind === 'strobe')
    return `solid ${look.color.name} (Govee cloud cannot show the chequered flash)`;
  return `solid ${look.color.name}${EFFECT_WORDS[look.effect.kind]}`;
}

/** The note of a flag the fan's look set leaves alone (nothing is sent, nothing is wrong). */
export const GOVEE_LEFT_NOTE = 'left as they are (your looks leave this flag alone)';

/**
 * What a flag costs the cloud in this budget mode, in the fan's look set (the account's stored one):
 * the settled colour (strobes become solid); `saving` drops brightness and the fastest-lap flash;
 * `track_only` keeps only track-wide flags; `exhausted` sends nothing. A left flag sends nothing.
 */
export function planFlag(
  flag: EffectFlag,
  mode: GoveeBudgetMode,
  looks: LookSet = DEFAULT_LOOK_SET,
): GoveeFlagPlan {
  const shown = looks.flags[flag];
  const look = lookForFlag(flag, looks);
  const skip = (why: string): GoveeFlagPlan => ({ send: false, look: null, restoreAfterMs: null, note: why });
  if (shown.kind === 'leave' || look === null) return skip(GOVEE_LEFT_NOTE);
  const note = describeLook(flag, shown);
  if (mode === 'exhausted') return skip("not sent: today's Govee budget is used up");
  if (mode === 'track_only' && !GOVEE_TRACK_WIDE_FLAGS.includes(flag))
    return skip('not sent: Govee budget low, only track-wide flags are shown today');
  if (flag === 'fastest_lap' && mode !== 'normal')
    return skip('not sent: Govee budget low, fastest laps are skipped');
  const { brightness, ...colourOnly } = look;
  return {
    send: true,
    look: mode === 'normal' || brightness === undefined ? look : colourOnly,
    restoreAfterMs: flag === 'fastest_lap' ? shown.effectMs : null,
    note: mode === 'normal' ? note : `${note}; colour only (Govee budget low)`,
  };
}
