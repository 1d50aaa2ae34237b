import crypto from 'node:crypto';
import { REQUEST_TIMEOUT_MS } from '@flaglight/core';
import { isSendableGoveeKey } from './key.js';

/** Why a Govee cloud call failed. */
export type GoveeFailureKind =
  /** 401/403: the API key is wrong, or was replaced by a newer one (re-applying replaces it). */
  | 'key'
  /** The key has a character an HTTP header cannot carry: refused here, Govee is not asked. */
  | 'bad-key'
  /** 429: over the per-device minute or the account's day; `retryAfterMs` says how long to wait. */
  | 'rate-limit'
  /** A 400 or a non-200 `code` in the body: unknown device, unsupported capability, device offline. */
  | 'refused'
  /** No answer in time. */
  | 'timeout'
  /** No connection, a 5xx or an unreadable body: Govee's cloud is down or unreachable. */
  | 'unreachable';

/** What Govee's headers said of the budgets (reference §2.2); absent headers leave fields out. */
export interface GoveeRateInfo {
  dayLimit?: number;
  dayRemaining?: number;
  /** Epoch ms. */
  dayResetAt?: number;
  minuteRemaining?: number;
}

export type GoveeResult<T> =
  | { ok: true; value: T; rate: GoveeRateInfo }
  | { ok: false; kind: GoveeFailureKind; detail: string; rate: GoveeRateInfo; retryAfterMs?: number };

export interface GoveeCapability {
  type: string;
  instance: string;
  parameters?: Record<string, unknown>;
}

export interface GoveeDevice {
  sku: string;
  device: string;
  deviceName: string;
  capabilities: GoveeCapability[];
}

export interface GoveeControl {
  type: string;
  instance: string;
  value: number;
}

/** What a device reports of itself (`POST /device/state`): absent fields it did not report. */
export interface GoveeDeviceState {
  online: boolean;
  on?: boolean;
  brightness?: number;
  rgb?: number;
  /** Set only while the device shows a white (`colorTemperatureK` above 0): its colour is not shown. */
  kelvin?: number;
}

export interface GoveeCloudClient {
  readonly timeoutMs: number;
  state(apiKey: string, target: { sku: string; device: string }): Promise<GoveeResult<GoveeDeviceState>>;
  listDevices(apiKey: string): Promise<GoveeResult<GoveeDevice[]>>;
  control(
    apiKey: string,
    target: { sku: string; device: string },
    capability: GoveeControl,
  ): Promise<GoveeResult<null>>;
}

export interface GoveeCloudClientOptions {
  /** Govee's platform API origin (GOVEE_API_URL; demo: the simulator). */
  apiUrl: string;
  /** Default 10 s: Govee's own sample answers in 2.5 s. */
  timeoutMs?: number;
  fetch?: typeof fetch;
}

const numberHeader = (headers: Headers, name: string): number | undefined => {
  const value = headers.get(name);
  if (value === null || value.trim() === '') return undefined;
  const parsed = Number(value);
  return Number.isFinite(parsed) ? parsed : undefined;
};

function rateOf(headers: Headers): GoveeRateInfo {
  const reset = numberHeader(headers, 'x-ratelimit-reset');
  const info: GoveeRateInfo = {};
  const dayLimit = numberHeader(headers, 'x-ratelimit-limit');
  const dayRemaining = numberHeader(headers, 'x-ratelimit-remaining');
  const minuteRemaining = numberHeader(headers, 'api-ratelimit-remaining');
  if (dayLimit !== undefined) info.dayLimit = dayLimit;
  if (dayRemaining !== undefined) info.dayRemaining = dayRemaining;
  // Seconds since the epoch (what Govee and LIFX send); a small number would be "seconds from now".
  if (reset !== undefined) info.dayResetAt = reset > 1e9 ? reset * 1000 : Date.now() + reset * 1000;
  if (minuteRemaining !== undefined) info.minuteRemaining = minuteRemaining;
  return info;
}

/** Retry-After as seconds or an HTTP date; unreadable: a minute (Govee's per-minute window). */
function retryAfterMsOf(headers: Headers): number {
  const value = headers.get('retry-after');
  if (value !== null) {
    const seconds = Number(value);
    if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
    const date = Date.parse(value);
    if (Number.isFinite(date)) return Math.max(0, date - Date.now());
  }
  return 60_000;
}

function describe(body: unknown, status: number): string {
  const b = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
  for (const field of ['msg', 'message', 'error']) if (typeof b[field] === 'string') return b[field];
  return `HTTP ${status}`;
}

/** A state answer's capabilities (`payload.capabilities[{instance, state: {value}}]`), read. */
function readDeviceState(body: unknown): GoveeDeviceState {
  const capabilities = (body as { payload?: { capabilities?: unknown } } | null)?.payload?.capabilities;
  const values = new Map<string, unknown>();
  if (Array.isArray(capabilities))
    for (const c of capabilities as { instance?: unknown; state?: { value?: unknown } }[])
      if (typeof c?.instance === 'string') values.set(c.instance, c.state?.value);
  const whole = (instance: string) => {
    const value = values.get(instance);
    return typeof value === 'number' && Number.isInteger(value) ? value : undefined;
  };
  const state: GoveeDeviceState = { online: values.get('online') !== false };
  const power = whole('powerSwitch');
  if (power !== undefined) state.on = power === 1;
  const brightness = whole('brightness');
  if (brightness !== undefined && brightness >= 1 && brightness <= 100) state.brightness = brightness;
  const rgb = whole('colorRgb');
  if (rgb !== undefined && rgb >= 0 && rgb <= 0xffffff) state.rgb = rgb;
  // A device reports both instances. As Govee's LAN status says (reference §2.1: a non-zero kelvin
  // means white, the colour is ignored), a colorTemperatureK above 0 is the white it shows; 0 while
  // a colour shows. A model without a white channel leaves the instance out.
  const kelvin = whole('colorTemperatureK');
  if (kelvin !== undefined && kelvin > 0) state.kelvin = kelvin;
  return state;
}

/**
 * The one speaker of Govee's platform API (reference §2.2, CONVENTIONS.md): the device list and
 * control calls, with the `Govee-API-Key` header. Expected failures are results; the key is never
 * put in a result or an error.
 */
export function createGoveeCloudClient(options: GoveeCloudClientOptions): GoveeCloudClient {
  const base = `${options.apiUrl.replace(/\/+$/, '')}/router/api/v1`;
  const timeoutMs = options.timeoutMs ?? REQUEST_TIMEOUT_MS;
  const doFetch = options.fetch ?? ((...args: Parameters<typeof fetch>) => globalThis.fetch(...args));

  async function call(
    apiKey: string,
    method: 'GET' | 'POST',
    path: string,
    body?: unknown,
  ): Promise<GoveeResult<unknown>> {
    // fetch would throw its own words (ByteString) for a character above U+00FF in the header.
    if (!isSendableGoveeKey(apiKey))
      return { ok: false, kind: 'bad-key', detail: 'the key has characters a header cannot carry', rate: {} };
    const signal = AbortSignal.timeout(timeoutMs);
    let response: Response;
    try {
      response = await doFetch(`${base}${path}`, {
        method,
        headers: {
          'Govee-API-Key': apiKey,
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal,
      });
    } catch (error) {
      if (signal.aborted)
        return { ok: false, kind: 'timeout', detail: `no answer in ${timeoutMs} ms`, rate: {} };
      // The library's words (with its cause's code) are for the log only, never for an answer.
      const cause = (error as { cause?: { code?: unknown } }).cause?.code;
      return {
        ok: false,
        kind: 'unreachable',
        detail: `no connection (${typeof cause === 'string' ? cause : (error as Error).name})`,
        rate: {},
      };
    }
    const rate = rateOf(response.headers);
    let parsed: unknown = null;
    try {
      const text = await response.text();
      parsed = text === '' ? null : JSON.parse(text);
    } catch {
      if (signal.aborted) return { ok: false, kind: 'timeout', detail: `no answer in ${timeoutMs} ms`, rate };
      if (response.ok) return { ok: false, kind: 'unreachable', detail: 'unreadable answer', rate };
    }
    const detail = describe(parsed, response.status);
    if (response.status === 401 || response.status === 403) return { ok: false, kind: 'key', detail, rate };
    if (response.status === 429)
      return { ok: false, kind: 'rate-limit', detail, rate, retryAfterMs: retryAfterMsOf(response.headers) };
    if (response.status >= 500) return { ok: false, kind: 'unreachable', detail, rate };
    if (!response.ok) return { ok: false, kind: 'refused', detail, rate };
    // Govee also reports failures with HTTP 200 and a non-200 `code` in the body.
    const code = (parsed as { code?: unknown } | null)?.code;
    if (typeof code === 'number' && code !== 200) {
      if (code === 401 || code === 403) return { ok: false, kind: 'key', detail, rate };
      if (code === 429) return { ok: false, kind: 'rate-limit', detail, rate, retryAfterMs: 60_000 };
      return { ok: false, kind: 'refused', detail, rate };
    }
    return { ok: true, value: parsed, rate };
  }

  return {
    timeoutMs,
    async listDevices(apiKey) {
      const result = await call(apiKey, 'GET', '/user/devices');
      if (!result.ok) return result;
      const data = (result.value as { data?: unknown } | null)?.data;
      if (!Array.isArray(data))
        return { ok: false, kind: 'unreachable', detail: 'no device list', rate: result.rate };
      const devices = (data as Partial<GoveeDevice>[])
        .filter((d): d is GoveeDevice => typeof d?.device === 'string' && typeof d?.sku === 'string')
        .map((d) => ({
          sku: d.sku,
          device: d.device,
          deviceName: typeof d.deviceName === 'string' ? d.deviceName : d.sku,
          capabilities: Array.isArray(d.capabilities) ? d.capabilities : [],
        }));
      return { ok: true, value: devices, rate: result.rate };
    },
    async state(apiKey, target) {
      const result = await call(apiKey, 'POST', '/device/state', {
        requestId: crypto.randomUUID(),
        payload: { sku: target.sku, device: target.device },
      });
      if (!result.ok) return result;
      return { ok: true, value: readDeviceState(result.value), rate: result.rate };
    },
    async control(apiKey, target, capability) {
      const result = await call(apiKey, 'POST', '/device/control', {
        requestId: crypto.randomUUID(),
        payload: { sku: target.sku, device: target.device, capability },
      });
      return result.ok ? { ok: true, value: null, rate: result.rate } : result;
    },
  };
}
