import type { DeviceLightProvider, DeviceState, PreferencesDocument } from '@flaglight/contract';
import type { FlagEventData } from '@flaglight/core';
import { APP_VERSION } from '../version.js';

/** Every call to the Flaglight server gives up after this long (the network may be gone). */
export const SERVER_TIMEOUT_MS = 10_000;

/** The server answered with an error: its `code` (contract error codes, or RFC 8628's) and words. */
export class ServerError extends Error {
  override readonly name = 'ServerError';
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly body: unknown = null,
  ) {
    super(message);
  }
}

/** The server could not be reached (refused, reset, timed out, DNS): try again later. */
export class UnreachableError extends Error {
  override readonly name = 'UnreachableError';
}

export interface DeviceCodeAnswer {
  device_code: string;
  user_code: string;
  verification_uri: string;
  verification_uri_complete: string;
  expires_in: number;
  interval: number;
}

export interface DeviceTokenAnswer {
  access_token: string;
  token_type: 'Bearer';
  device: { id: string; name: string };
}

export interface LiveStateAnswer {
  sessionKey: number;
  id: number | null;
  flag: FlagEventData | null;
}

export interface ReportedLight {
  /** The contract's list: the server refuses a provider it does not know. */
  provider: DeviceLightProvider;
  id: string;
  label: string;
  reachable: boolean;
}

export interface ServerApi {
  readonly baseUrl: string;
  requestDeviceCode(info: { name: string; platform: string }): Promise<DeviceCodeAnswer>;
  pollDeviceToken(deviceCode: string): Promise<DeviceTokenAnswer>;
  requestTicket(token: string, sessionKey?: number): Promise<{ ticket: string; serverNow: number | null }>;
  liveState(token: string, sessionKey?: number): Promise<LiveStateAnswer>;
  /**
   * `GET /api/f1/current`: the live session's name and type (what kind of session the lights would
   * follow), or null when no session is live.
   */
  liveSession(): Promise<{ name: string; type: string } | null>;
  preferences(token: string): Promise<PreferencesDocument>;
  reportLights(token: string, lights: ReportedLight[]): Promise<void>;
  /** `PUT /api/device/state`: what this companion does now (the web app shows it). */
  reportState(token: string, state: DeviceState): Promise<void>;
  /** `GET /api/live/events`: the raw response, for the stream reader. */
  openEvents(
    query: { ticket: string; sessionKey?: number },
    lastEventId: number | undefined,
    signal: AbortSignal,
  ): Promise<Response>;
}

/** The one client of the Flaglight server's HTTP API used by the companion. */
export function createServerApi(baseUrl: string, fetchImpl: typeof fetch = globalThis.fetch): ServerApi {
  const base = baseUrl.replace(/\/+$/, '');
  const userAgent = `FlaglightCompanion/${APP_VERSION} (${process.platform})`;

  async function call<T>(
    method: string,
    route: string,
    options: { token?: string; body?: unknown; query?: Record<string, string | number | undefined> } = {},
  ): Promise<{ data: T; response: Response }> {
    const url = new URL(base + route);
    for (const [key, value] of Object.entries(options.query ?? {})) {
      if (value !== undefined) url.searchParams.set(key, String(value));
    }
    const headers: Record<string, string> = { accept: 'application/json', 'user-agent': userAgent };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    let response: Response;
    try {
      response = await fetchImpl(url, {
        method,
        headers,
        ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
        signal: AbortSignal.timeout(SERVER_TIMEOUT_MS),
        redirect: 'error',
      });
    } catch (error) {
      throw new UnreachableError(`Cannot reach ${base}: ${describe(error)}`);
    }
    let body: unknown = null;
    const text = await response.text().catch(() => '');
    if (text) {
      try {
        body = JSON.parse(text);
      } catch {
        body = null;
      }
    }
    if (!response.ok) {
      const record = (body ?? {}) as { code?: unknown; error?: unknown; error_description?: unknown };
      const code =
        typeof record.code === 'string'
          ? record.code
          : typeof record.error === 'string'
            ? record.error
            : `http_${response.status}`;
      const message =
        typeof record.error_description === 'string'
          ? record.error_description
          : typeof record.error === 'string'
            ? record.error
            : `The server answered ${response.status}`;
      // A proxy's 502/503/504 page is an outage, not an answer.
      if (response.status >= 502 && body === null)
        throw new UnreachableError(`${base} answered ${response.status}`);
      throw new ServerError(response.status, code, message, body);
    }
    return { data: body as T, response };
  }

  return {
    baseUrl: base,
    async requestDeviceCode(info) {
      const { data } = await call<DeviceCodeAnswer>('POST', '/api/device/code', {
        body: { name: info.name, platform: info.platform, version: APP_VERSION },
      });
      return data;
    },
    async pollDeviceToken(deviceCode) {
      const { data } = await call<DeviceTokenAnswer>('POST', '/api/device/token', {
        body: { grant_type: 'urn:ietf:params:oauth:grant-type:device_code', device_code: deviceCode },
      });
      return data;
    },
    async requestTicket(token, sessionKey) {
      const { data, response } = await call<{ ticket: string }>('POST', '/api/live/ticket', {
        token,
        query: { sessionKey },
      });
      const date = Date.parse(response.headers.get('date') ?? '');
      return { ticket: data.ticket, serverNow: Number.isFinite(date) ? date : null };
    },
    async liveState(token, sessionKey) {
      const { data } = await call<LiveStateAnswer>('GET', '/api/live/state', {
        token,
        query: { sessionKey },
      });
      return data;
    },
    async liveSession() {
      const { data } = await call<{ live?: unknown; data?: { name?: unknown; type?: unknown } | null }>(
        'GET',
        '/api/f1/current',
      );
      const session = data.live === true ? data.data : null;
      return session && typeof session.name === 'string' && typeof session.type === 'string'
        ? { name: session.name, type: session.type }
        : null;
    },
    async preferences(token) {
      const { data } = await call<PreferencesDocument>('GET', '/api/me/preferences', { token });
      return data;
    },
    async reportLights(token, lights) {
      await call('PUT', '/api/device/lights', { token, body: { lights } });
    },
    async reportState(token, state) {
      await call('PUT', '/api/device/state', { token, body: state });
    },
    async openEvents(query, lastEventId, signal) {
      const url = new URL(`${base}/api/live/events`);
      url.searchParams.set('ticket', query.ticket);
      if (query.sessionKey !== undefined) url.searchParams.set('sessionKey', String(query.sessionKey));
      const headers: Record<string, string> = { accept: 'text/event-stream', 'user-agent': userAgent };
      if (lastEventId !== undefined) headers['last-event-id'] = String(lastEventId);
      let response: Response;
      try {
        response = await fetchImpl(url, { headers, signal, redirect: 'error' });
      } catch (error) {
        throw new UnreachableError(`Cannot reach ${base}: ${describe(error)}`);
      }
      if (!response.ok) {
        const body = (await response.json().catch(() => null)) as { code?: unknown; error?: unknown } | null;
        throw new ServerError(
          response.status,
          typeof body?.code === 'string' ? body.code : `http_${response.status}`,
          typeof body?.error === 'string' ? body.error : `The server answered ${response.status}`,
          body,
        );
      }
      return response;
    },
  };
}

export function describe(error: unknown): string {
  if (error instanceof Error) {
    const cause = (error as { cause?: unknown }).cause;
    const code = (cause as { code?: unknown } | undefined)?.code;
    if (typeof code === 'string') return code;
    if (error.name === 'TimeoutError') return 'timed out';
    return error.message;
  }
  return String(error);
}
