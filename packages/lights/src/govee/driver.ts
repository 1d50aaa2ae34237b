import { hsbToRgb, REQUEST_TIMEOUT_MS, type LightStep } from '@flaglight/core';
import {
  DriverEvents,
  isOff,
  type DriverListener,
  type LightDeviceInfo,
  type LightDriver,
  type LightStateCommand,
} from '../driver.js';
import { LIGHT_ERROR_MESSAGES as M, LightError, type LightErrorInfo } from '../errors.js';

type Fetch = typeof fetch;

/** Through the app's server, which itself gives up on Govee's cloud after 10 s. */
export const GOVEE_SERVER_TIMEOUT_MS = REQUEST_TIMEOUT_MS + 5_000;
/**
 * Govee's cloud allows 10 calls per device per minute (reference §2.2): one change every 6 s at
 * most, so a strobe is never expanded into timed changes: the cloud shows solid colours.
 */
export const GOVEE_MIN_CHANGE_GAP_MS = 6_000;

/** The server's codes that mean "add the Govee key again" (no key stored, or Govee refused it). */
const RECONNECT_CODES = new Set(['govee_not_connected', 'govee_key_refused']);

/** True when Govee must be connected again in Settings: the driver then reports a disconnect. */
export function isGoveeDisconnectError(error: LightErrorInfo): boolean {
  return error.kind === 'auth';
}

/** What the server answers to a flag: whether it was sent in today's budget, and what it shows. */
export interface GoveeFlagAnswer {
  sent: boolean;
  mode: string;
  note: string;
}

export interface GoveeCloudDriverOptions {
  /** The app's API origin ('' = same origin). */
  apiBaseUrl?: string;
  /** The app's bearer session token (the Govee key stays on the server). */
  token: string | (() => string | null);
  fetch?: Fetch;
  timeoutMs?: number;
}

export interface GoveeCloudDriver extends LightDriver {
  readonly provider: 'govee';
  readonly connected: boolean;
  connect(): Promise<LightDeviceInfo[]>;
  disconnect(): void;
  /** The server shows the flag's settled colour (the cloud's way to play it) within Govee's budget. */
  sendFlag(ids: readonly string[], flag: string): Promise<GoveeFlagAnswer>;
}

function toError(status: number, body: unknown, fallback: string): LightError {
  const b = (body ?? {}) as { error?: unknown; code?: unknown };
  const message = typeof b.error === 'string' && b.error !== '' ? b.error : fallback;
  if (typeof b.code === 'string' && RECONNECT_CODES.has(b.code))
    return new LightError('auth', message, status);
  if (status === 401) return new LightError('auth', message, status);
  if (status === 404) return new LightError('not-found', message, status);
  if (status === 429) return new LightError('rate-limit', message, status);
  if (status === 504) return new LightError('timeout', message, status);
  return new LightError(status >= 500 ? 'server' : 'bad-request', message, status);
}

/** A look as the server's Govee state body: power, RGB 0-255, brightness 1-100 %. */
export function toGoveeStateBody(ids: readonly string[], state: LightStateCommand) {
  if (isOff(state)) return { lightIds: [...ids], on: false };
  return {
    lightIds: [...ids],
    on: true,
    color: hsbToRgb({ hue: state.color.hue, saturation: state.color.saturation, brightness: 1 }),
    brightness: Math.min(100, Math.max(1, Math.round(state.brightness * 100))),
  };
}

/**
 * Govee's cloud from the browser, through the app's server (`/api/govee/*`): the API key never
 * reaches the page and the server paces every call within Govee's budgets. Strobes show as their
 * colour (`nativeStrobe`: the player does not expand them into changes the cloud cannot show).
 */
export function createGoveeCloudDriver(options: GoveeCloudDriverOptions): GoveeCloudDriver {
  const base = `${(options.apiBaseUrl ?? '').replace(/\/+$/, '')}/api/govee`;
  const doFetch: Fetch = options.fetch ?? ((...args) => globalThis.fetch(...args));
  const timeoutMs = options.timeoutMs ?? GOVEE_SERVER_TIMEOUT_MS;
  const events = new DriverEvents();
  let connected = false;

  async function call(
    method: 'GET' | 'POST',
    path: string,
    fallback: string,
    body?: unknown,
  ): Promise<unknown> {
    const token = typeof options.token === 'function' ? options.token() : options.token;
    const signal = AbortSignal.timeout(timeoutMs);
    let response: Response;
    try {
      response = await doFetch(`${base}${path}`, {
        method,
        headers: {
          ...(token ? { Authorization: `Bearer ${token}` } : {}),
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal,
      });
    } catch {
      throw new LightError(signal.aborted ? 'timeout' : 'network', fallback);
    }
    const parsed: unknown = await response.json().catch(() => null);
    if (!response.ok) {
      const error = toError(response.status, parsed, fallback);
      if (error.kind === 'auth' && connected) {
        connected = false;
        events.emit({ type: 'disconnect', error: error.toJSON() });
      } else {
        events.emit({ type: 'error', error: error.toJSON() });
      }
      throw error;
    }
    return parsed;
  }

  async function setState(ids: readonly string[], state: LightStateCommand): Promise<void> {
    if (ids.length === 0) {
      events.emit({ type: 'warning', message: 'No Govee lights to set' });
      return;
    }
    await call('POST', '/lights/state', M.goveeCommandFailed, toGoveeStateBody(ids, state));
  }

  const driver: GoveeCloudDriver = {
    provider: 'govee',
    nativeStrobe: true,
    minStrobeHalfPeriodMs: () => GOVEE_MIN_CHANGE_GAP_MS,
    get connected() {
      return connected;
    },
    async listDevices() {
      const body = (await call('GET', '/lights', M.goveeFetchLightsFailed)) as {
        lights?: LightDeviceInfo[];
      } | null;
      if (!body || !Array.isArray(body.lights)) throw new LightError('server', M.goveeFetchLightsFailed);
      return body.lights;
    },
    async connect() {
      const list = await driver.listDevices();
      connected = true;
      return list;
    },
    disconnect() {
      connected = false;
      events.emit({ type: 'disconnect', error: { kind: 'not-configured', message: M.goveeNotConnected } });
    },
    setState,
    async playStep(ids, step: Exclude<LightStep, { kind: 'restore' }>) {
      const transitionMs = step.kind === 'set-state' ? step.transitionMs : 0;
      return setState(ids, { on: true, color: step.color, brightness: step.brightness, transitionMs });
    },
    async sendFlag(ids, flag) {
      const body = (await call('POST', '/lights/flag', M.goveeCommandFailed, {
        lightIds: [...ids],
        flag,
      })) as (GoveeFlagAnswer & { success?: boolean }) | null;
      return { sent: body?.sent ?? false, mode: body?.mode ?? 'normal', note: body?.note ?? '' };
    },
    // The server coalesces: a newer look replaces what is not yet sent, so nothing is queued here.
    cancelPending: () => undefined,
    subscribe: (listener: DriverListener) => events.subscribe(listener),
  };
  return driver;
}
