import { REQUEST_TIMEOUT_MS, type Gamut, type XyPoint } from '@flaglight/core';
import { LIGHT_ERROR_MESSAGES as M, LightError } from '../errors.js';

/** A Hue light as the driver needs it (SPEC §3 Bridge light, plus its colour gamut). */
export interface HueLightInfo {
  id: string;
  name: string;
  type: string;
  gamut?: Gamut;
  connected?: boolean;
  /** CLIP v2 `signaling.signal_values` (absent: the light cannot signal). */
  signalValues?: string[];
}

/** A CLIP v2 `signaling` body (reference/lan-lights.md §2.4): the bridge flashes the light itself. */
export interface HueSignaling {
  signal: 'no_signal' | 'on_off' | 'on_off_color' | 'alternating';
  /** ms, counted by the bridge in whole seconds. */
  duration?: number;
  colors?: { xy: XyPoint }[];
}

/** A CLIP v2 light body (reference §3.3). */
export interface HueLightCommand {
  on: { on: boolean };
  dimming?: { brightness: number };
  color?: { xy: XyPoint };
  /** A white light's colour temperature (giving back a light that showed one). */
  color_temperature?: { mirek: number };
  dynamics?: { duration: number };
  signaling?: HueSignaling;
}

/** How the Hue driver reaches lights: a local bridge, or the app's server (Hue remote API). */
export interface HueTransport {
  readonly kind: 'bridge' | 'remote';
  listLights(): Promise<HueLightInfo[]>;
  putLight(id: string, command: HueLightCommand): Promise<void>;
}

type Fetch = typeof fetch;
const defaultFetch: Fetch = (...args) => globalThis.fetch(...args);

/** A bridge on the home network answers in well under a second; give up on it after 10 s. */
export const HUE_BRIDGE_TIMEOUT_MS = REQUEST_TIMEOUT_MS;
/** Through the app's server, which itself gives up on the Hue remote API after 10 s. */
export const HUE_REMOTE_TIMEOUT_MS = REQUEST_TIMEOUT_MS + 5_000;

/** Error codes of the app server's answers that mean "connect Hue again" (SPEC §8). */
const RECONNECT_CODES = new Set(['hue_not_connected', 'hue_unauthorized']);

function statusError(status: number, fallback: string, body: unknown): LightError {
  // The app server says why with a code; a bridge on the LAN answers 401/403 for a refused key.
  const code = (body as { code?: unknown } | null)?.code;
  if (typeof code === 'string') {
    if (RECONNECT_CODES.has(code)) return new LightError('auth', M.hueUnauthorized, status);
    if (status === 401) return new LightError('auth', M.hueUnauthorized, status);
    if (status === 403) return new LightError('bad-request', fallback, status);
  }
  if (status === 401 || status === 403) return new LightError('auth', M.hueUnauthorized, status);
  if (status === 404) return new LightError('not-found', fallback, status);
  // 429, and the 503 an overloaded bridge answers (reference §3.5): slow down and try again.
  if (status === 429 || status === 503) return new LightError('rate-limit', fallback, status);
  return new LightError(status >= 500 ? 'server' : 'bad-request', fallback, status);
}

async function call(
  doFetch: Fetch,
  url: string,
  init: RequestInit,
  fallback: string,
  timeoutMs: number,
): Promise<unknown> {
  const signal = AbortSignal.timeout(timeoutMs);
  let response: Response;
  try {
    response = await doFetch(url, { ...init, signal });
  } catch {
    // No answer in time is not a vanished bridge: the command failed, the connection stays.
    if (signal.aborted) throw new LightError('timeout', fallback);
    throw new LightError('network', M.hueNotConnected);
  }
  const text = await response.text().catch(() => null);
  if (text === null) throw new LightError(signal.aborted ? 'timeout' : 'network', fallback, response.status);
  let body: unknown;
  try {
    body = text === '' ? null : JSON.parse(text);
  } catch {
    throw new LightError('server', fallback, response.status);
  }
  if (!response.ok) throw statusError(response.status, fallback, body);
  // The bridge can answer 200 with a non-empty errors array (reference §3.3): always check it.
  const errors = (body as { errors?: unknown } | null)?.errors;
  if (Array.isArray(errors) && errors.length > 0)
    throw new LightError('bad-request', fallback, response.status);
  return body;
}

interface ClipLight {
  id: string;
  type?: string;
  metadata?: { name?: string; archetype?: string };
  color?: { gamut?: Gamut; gamut_type?: string };
}

export interface HueBridgeTransportOptions {
  /** The bridge's address: the base becomes `https://<address>/clip/v2/resource`. */
  address?: string;
  /** Overrides the base (tests: the simulator's `<url>/clip/v2/resource`). */
  baseUrl?: string;
  applicationKey: string;
  fetch?: Fetch;
  /** Default 10 s. */
  timeoutMs?: number;
}

/** CLIP v2 on a local bridge, `hue-application-key` header (reference §3.2). */
export function createHueBridgeTransport(options: HueBridgeTransportOptions): HueTransport {
  const base = (options.baseUrl ?? `https://${options.address ?? ''}/clip/v2/resource`).replace(/\/+$/, '');
  const doFetch = options.fetch ?? defaultFetch;
  const headers = { 'hue-application-key': options.applicationKey };
  const timeoutMs = options.timeoutMs ?? HUE_BRIDGE_TIMEOUT_MS;
  return {
    kind: 'bridge',
    async listLights() {
      const body = (await call(doFetch, `${base}/light`, { headers }, M.hueFetchLightsFailed, timeoutMs)) as {
        data?: ClipLight[];
      } | null;
      if (!body || !Array.isArray(body.data)) throw new LightError('server', M.hueFetchLightsFailed);
      return body.data.map((light) => ({
        id: light.id,
        name: light.metadata?.name ?? light.id,
        type: light.type ?? 'light',
        ...(light.color?.gamut ? { gamut: light.color.gamut } : {}),
      }));
    },
    async putLight(id, command) {
      await call(
        doFetch,
        `${base}/light/${encodeURIComponent(id)}`,
        {
          method: 'PUT',
          headers: { ...headers, 'Content-Type': 'application/json' },
          body: JSON.stringify(command),
        },
        M.hueCommandFailed,
        timeoutMs,
      );
    },
  };
}

export interface HueRemoteTransportOptions {
  /** The app's API origin and base path ('' = same origin). */
  apiBaseUrl?: string;
  /** The app's bearer token (SPEC §7: every product API call carries it). */
  token: string | (() => string | null);
  fetch?: Fetch;
  /** Default 15 s (the server's own time-out for Hue is 10 s). */
  timeoutMs?: number;
}

export interface HueRemoteTransport extends HueTransport {
  readonly kind: 'remote';
  /** SPEC §7 `POST /hue/lights/flag`: the server plays the flag (duration 500); a test goes back after it. */
  sendFlag(
    lightIds: readonly string[],
    flag: string,
    duration?: number,
    options?: { test?: boolean },
  ): Promise<void>;
}

/** Through the app's server to the Hue remote API: `GET /hue/lights`, `PUT /hue/lights/{id}/state`. */
export function createHueRemoteTransport(options: HueRemoteTransportOptions): HueRemoteTransport {
  const base = (options.apiBaseUrl ?? '').replace(/\/+$/, '');
  const doFetch = options.fetch ?? defaultFetch;
  const auth = (): Record<string, string> => {
    const token = typeof options.token === 'function' ? options.token() : options.token;
    return token ? { Authorization: `Bearer ${token}` } : {};
  };
  const json = { 'Content-Type': 'application/json' };
  const timeoutMs = options.timeoutMs ?? HUE_REMOTE_TIMEOUT_MS;
  return {
    kind: 'remote',
    async listLights() {
      const body = (await call(
        doFetch,
        `${base}/hue/lights`,
        { headers: auth() },
        M.hueFetchLightsFailed,
        timeoutMs,
      )) as {
        lights?: HueLightInfo[];
      } | null;
      if (!body || !Array.isArray(body.lights)) throw new LightError('server', M.hueFetchLightsFailed);
      return body.lights.map((l) => ({ ...l, type: l.type ?? 'light' }));
    },
    async putLight(id, command) {
      const body = {
        on: command.on.on,
        ...(command.dimming ? { brightness: command.dimming.brightness } : {}),
        ...(command.color ? { color: { xy: command.color.xy } } : {}),
        ...(command.dynamics ? { duration: command.dynamics.duration } : {}),
      };
      await call(
        doFetch,
        `${base}/hue/lights/${encodeURIComponent(id)}/state`,
        { method: 'PUT', headers: { ...auth(), ...json }, body: JSON.stringify(body) },
        M.hueCommandFailed,
        timeoutMs,
      );
    },
    async sendFlag(lightIds, flag, duration = 500, flagOptions = {}) {
      await call(
        doFetch,
        `${base}/hue/lights/flag`,
        {
          method: 'POST',
          headers: { ...auth(), ...json },
          body: JSON.stringify({ lightIds, flag, duration, ...(flagOptions.test ? { test: true } : {}) }),
        },
        M.hueCommandFailed,
        timeoutMs,
      );
    },
  };
}
