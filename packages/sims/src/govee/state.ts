import { createHash } from 'node:crypto';
import { type Clock, systemClock } from '../shared/clock.js';

export const DEMO_GOVEE_API_KEY = 'demo-govee-key';
export const GOVEE_DEMO_DEVICE_COUNT = 6;
/** Reference §2.2: 10 requests per device per minute, 10,000 per account per day. */
export const GOVEE_RATE_LIMITS = { perDeviceMinute: 10, perDay: 10_000 };
/** Govee's device list is limited on its own: 10 per minute per account (reference §2.2). */
export const GOVEE_LIST_PER_MINUTE = 10;
const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

export const CAPABILITY = {
  onOff: 'devices.capabilities.on_off',
  range: 'devices.capabilities.range',
  color: 'devices.capabilities.color_setting',
} as const;

export interface GoveeCapability {
  type: string;
  instance: string;
  parameters: Record<string, unknown>;
}

export interface GoveeDevice {
  /** Govee's device id: a MAC-like hex string, the stable key. */
  device: string;
  sku: string;
  deviceName: string;
  capabilities: GoveeCapability[];
  online: boolean;
  on: boolean;
  /** 1-100. */
  brightness: number;
  /** r*65536 + g*256 + b: the colour it shows, or the last one while it shows a white. */
  rgb: number;
  /** Above 0: it shows a white at this colour temperature (its colour is kept, not shown); 0 while a colour shows. */
  colorTemK: number;
}

/** A short fingerprint of an API key (SHA-256, 12 hex digits): tells keys apart without showing them. */
export function goveeKeyId(key: string): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 12);
}

export interface GoveeSimOptions {
  now?: Clock;
  /** Accepted API keys. Default `['demo-govee-key']`. */
  keys?: string[];
  deviceCount?: number;
  limits?: { perDeviceMinute: number; perDay: number };
  /** Every API answer waits this long (Govee's own sample shows 2.5 s). Default 0. */
  latencyMs?: number;
}

export interface GoveeLoggedRequest {
  method: string;
  path: string;
  at: number;
  status: number;
  /** The device a control or state call named, if any. */
  device: string | null;
  /**
   * Which API key the call carried, as `goveeKeyId(key)`: tests check whose key was used, and a
   * real key pasted into demo mode is not shown by `/_control/requests`.
   */
  keyId: string | null;
  body: unknown;
}

export type GoveeFault =
  /** 429 with Retry-After `retryAfterS`, as when the account ran over its budget elsewhere. */
  | { kind: 'rate-limit'; times?: number; retryAfterS?: number }
  /** The answer waits `delayMs`, then comes as normal. */
  | { kind: 'slow'; times?: number; delayMs?: number }
  /** Govee's cloud is down: 503. */
  | { kind: 'down'; times?: number };

export interface GoveeSettings {
  now: Clock;
  initialKeys: string[];
  deviceCount: number;
  limits: { perDeviceMinute: number; perDay: number };
  latencyMs: number;
}

interface Window {
  startedAt: number;
  used: number;
}

export interface GoveeState {
  keys: Set<string>;
  devices: GoveeDevice[];
  limits: { perDeviceMinute: number; perDay: number };
  latencyMs: number;
  /** Per key: the day's count (window starts at UTC midnight). */
  days: Map<string, Window>;
  /** Per key and device (or `list` for the device list): the minute's count. */
  minutes: Map<string, Window>;
  faults: (GoveeFault & { remaining: number })[];
  log: GoveeLoggedRequest[];
}

const SKUS = [
  { sku: 'H6008', name: 'Bulb' },
  { sku: 'H6159', name: 'Light Strip' },
  { sku: 'H6076', name: 'Floor Lamp' },
  { sku: 'H619A', name: 'TV Backlight' },
  { sku: 'H6072', name: 'Corner Lamp' },
  { sku: 'H7021', name: 'String Lights' },
];

function capabilitiesOf(index: number): GoveeCapability[] {
  const caps: GoveeCapability[] = [
    {
      type: CAPABILITY.onOff,
      instance: 'powerSwitch',
      parameters: {
        dataType: 'ENUM',
        options: [
          { name: 'on', value: 1 },
          { name: 'off', value: 0 },
        ],
      },
    },
    {
      type: CAPABILITY.range,
      instance: 'brightness',
      parameters: { unit: 'unit.percent', dataType: 'INTEGER', range: { min: 1, max: 100, precision: 1 } },
    },
    {
      type: CAPABILITY.color,
      instance: 'colorRgb',
      parameters: { dataType: 'INTEGER', range: { min: 0, max: 16_777_215, precision: 1 } },
    },
  ];
  // Every third model has no white channel: colour temperature is refused there (capability checks).
  if (index % 3 !== 2)
    caps.push({
      type: CAPABILITY.color,
      instance: 'colorTemperatureK',
      parameters: { dataType: 'INTEGER', range: { min: 2000, max: 9000, precision: 1 } },
    });
  return caps;
}

/**
 * How each device starts, in turn: the first in warm white (2700 K, its colour temperature: a model
 * without a white channel shows plain white instead) at 60 %, then one off, one dimmed orange, one
 * green at full brightness. A room given back "as it was" shows its own mix, a white included.
 */
const INITIAL_LOOKS: Pick<GoveeDevice, 'on' | 'brightness' | 'rgb' | 'colorTemK'>[] = [
  { on: true, brightness: 60, rgb: 0xffffff, colorTemK: 2700 },
  { on: false, brightness: 40, rgb: 0x3366ff, colorTemK: 0 },
  { on: true, brightness: 15, rgb: 0xff8800, colorTemK: 0 },
  { on: true, brightness: 100, rgb: 0x00cc66, colorTemK: 0 },
];

export function createGoveeDevices(count: number): GoveeDevice[] {
  return Array.from({ length: count }, (_, i) => {
    const model = SKUS[i % SKUS.length]!;
    const hex = (i + 1).toString(16).padStart(2, '0').toUpperCase();
    const capabilities = capabilitiesOf(i);
    const look = INITIAL_LOOKS[i % INITIAL_LOOKS.length]!;
    const white = capabilities.some((c) => c.instance === 'colorTemperatureK');
    return {
      device: `7A:4B:D4:AD:FC:${hex}:C0:${hex}`,
      sku: model.sku,
      deviceName: i < SKUS.length ? model.name : `${model.name} ${Math.floor(i / SKUS.length) + 1}`,
      capabilities,
      online: true,
      ...look,
      colorTemK: white ? look.colorTemK : 0,
    };
  });
}

export function resolveGoveeSettings(options: GoveeSimOptions): GoveeSettings {
  return {
    now: options.now ?? systemClock,
    initialKeys: options.keys ?? [DEMO_GOVEE_API_KEY],
    deviceCount: options.deviceCount ?? GOVEE_DEMO_DEVICE_COUNT,
    limits: options.limits ?? GOVEE_RATE_LIMITS,
    latencyMs: options.latencyMs ?? 0,
  };
}

export function createGoveeState(settings: GoveeSettings): GoveeState {
  return {
    keys: new Set(settings.initialKeys),
    devices: createGoveeDevices(settings.deviceCount),
    limits: { ...settings.limits },
    latencyMs: settings.latencyMs,
    days: new Map(),
    minutes: new Map(),
    faults: [],
    log: [],
  };
}

export interface Budget {
  limit: number;
  remaining: number;
  /** Epoch seconds when the window starts again. */
  resetAtSec: number;
}

function windowOf(
  windows: Map<string, Window>,
  key: string,
  at: number,
  start: number,
  span: number,
): Window {
  let window = windows.get(key);
  if (!window || at >= window.startedAt + span) {
    window = { startedAt: start, used: 0 };
    windows.set(key, window);
  }
  return window;
}

/**
 * Counts one request against the key's day (UTC) and the minute of its device (or `list`). A
 * request refused by either limit spends neither.
 */
export function takeBudget(
  state: GoveeState,
  key: string,
  scope: string,
  at: number,
): { allowed: boolean; day: Budget; minute: Budget } {
  const perMinute = scope === 'list' ? GOVEE_LIST_PER_MINUTE : state.limits.perDeviceMinute;
  const perDay = state.limits.perDay;
  const day = windowOf(state.days, key, at, Math.floor(at / DAY_MS) * DAY_MS, DAY_MS);
  const minute = windowOf(state.minutes, `${key}|${scope}`, at, at, MINUTE_MS);
  const allowed = day.used < perDay && minute.used < perMinute;
  if (allowed) {
    day.used += 1;
    minute.used += 1;
  }
  const budget = (window: Window, limit: number, span: number): Budget => ({
    limit,
    remaining: Math.max(0, limit - window.used),
    resetAtSec: Math.ceil((window.startedAt + span) / 1000),
  });
  return { allowed, day: budget(day, perDay, DAY_MS), minute: budget(minute, perMinute, MINUTE_MS) };
}

export function rgbToHex(rgb: number): string {
  return `#${rgb.toString(16).padStart(6, '0')}`;
}

/** Colour temperature as an approximate RGB, for the live page (2000 K warm to 9000 K cool). */
export function kelvinToRgb(kelvin: number): number {
  const t = Math.min(1, Math.max(0, (kelvin - 2000) / 7000));
  const r = 255;
  const g = Math.round(160 + 95 * t);
  const b = Math.round(80 + 175 * t);
  return r * 65536 + g * 256 + b;
}

type Body = Record<string, unknown>;

export function asBody(body: unknown): Body {
  return body && typeof body === 'object' && !Array.isArray(body) ? (body as Body) : {};
}
