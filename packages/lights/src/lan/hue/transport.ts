import type { Gamut } from '@flaglight/core';
import { LIGHT_ERROR_MESSAGES as M, LightError } from '../../errors.js';
import type { HueLightInfo, HueTransport } from '../../hue/transports.js';
import { hueHttpsRequest, PinnedBridgeAgent, type HueHttpsResponse } from './https.js';

export interface HueLocalTransportOptions {
  /** `https://192.168.1.20` or the simulator's `https://127.0.0.1:PORT`. */
  url: string;
  /** Lower-case bridge id: the certificate's CN must be it. */
  bridgeId: string;
  applicationKey: string;
  /** The certificate fingerprint stored at pairing; another one is refused. */
  fingerprint256: string;
  timeoutMs?: number;
  /** Connections kept open to the bridge (1–2; more get 429). Default 1. */
  maxSockets?: number;
}

export interface HueLocalTransport extends HueTransport {
  readonly kind: 'bridge';
  /** The lights of the last `listLights()`. */
  lights(): HueLightInfo[];
  /** `GET /resource/light` as the bridge answered it: each light's whole CLIP v2 resource. */
  readLightResources(): Promise<Record<string, unknown>[]>;
  close(): void;
}

interface ClipLight {
  id?: unknown;
  type?: unknown;
  metadata?: { name?: unknown };
  color?: { gamut?: Gamut };
  signaling?: { signal_values?: unknown };
}

/** A CLIP v2 `light` resource as the driver needs it: name, gamut, and the signals it can show. */
export function toHueLightInfo(light: ClipLight): HueLightInfo | null {
  if (typeof light.id !== 'string') return null;
  const name = typeof light.metadata?.name === 'string' ? light.metadata.name : light.id;
  const values = light.signaling?.signal_values;
  return {
    id: light.id,
    name,
    type: typeof light.type === 'string' ? light.type : 'light',
    ...(light.color?.gamut ? { gamut: light.color.gamut } : {}),
    ...(Array.isArray(values)
      ? { signalValues: values.filter((v): v is string => typeof v === 'string') }
      : {}),
  };
}

/** A bridge's status (and a 200 that lists errors) as the `LightError` the Hue driver understands. */
export function toHueLocalError(response: HueHttpsResponse, fallback: string): LightError | null {
  const { status, body } = response;
  if (status === 401 || status === 403) return new LightError('auth', M.hueUnauthorized, status);
  if (status === 404) return new LightError('not-found', fallback, status);
  // Busy (reference §2.4): the driver's queue backs off and sends again.
  if (status === 429 || status === 503) return new LightError('rate-limit', fallback, status);
  if (status >= 500) return new LightError('server', fallback, status);
  if (status >= 400 || status < 200) return new LightError('bad-request', fallback, status);
  const errors = (body as { errors?: unknown } | null)?.errors;
  if (Array.isArray(errors) && errors.length > 0) return new LightError('bad-request', fallback, status);
  return null;
}

/**
 * CLIP v2 on a bridge on the LAN over `node:https` with the pinned agent (one keep-alive agent per
 * bridge), so the certificate check applies to every request. The Hue driver's queue paces it.
 */
export function createHueLocalTransport(options: HueLocalTransportOptions): HueLocalTransport {
  const base = `${options.url.replace(/\/+$/, '')}/clip/v2/resource`;
  const agent = new PinnedBridgeAgent(
    { bridgeId: options.bridgeId.toLowerCase(), fingerprint256: options.fingerprint256 },
    options.maxSockets ?? 1,
  );
  const headers = { 'hue-application-key': options.applicationKey };
  let known: HueLightInfo[] = [];

  async function call(method: 'GET' | 'PUT', path: string, fallback: string, body?: unknown) {
    const response = await hueHttpsRequest(agent, `${base}${path}`, {
      method,
      headers,
      body,
      fallback,
      ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    });
    const error = toHueLocalError(response, fallback);
    if (error) throw error;
    return response.body;
  }

  return {
    kind: 'bridge',
    async listLights() {
      const body = (await call('GET', '/light', M.hueFetchLightsFailed)) as { data?: unknown } | null;
      if (!body || !Array.isArray(body.data)) throw new LightError('server', M.hueFetchLightsFailed);
      known = (body.data as ClipLight[]).map(toHueLightInfo).filter((l): l is HueLightInfo => l !== null);
      return [...known];
    },
    async putLight(id, command) {
      await call('PUT', `/light/${encodeURIComponent(id)}`, M.hueCommandFailed, command);
    },
    async readLightResources() {
      const body = (await call('GET', '/light', M.hueFetchLightsFailed)) as { data?: unknown } | null;
      if (!body || !Array.isArray(body.data)) throw new LightError('server', M.hueFetchLightsFailed);
      return body.data.filter((l): l is Record<string, unknown> => typeof l === 'object' && l !== null);
    },
    lights: () => [...known],
    close: () => agent.destroy(),
  };
}
