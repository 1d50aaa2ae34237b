import { REQUEST_TIMEOUT_MS } from '@flaglight/core';

/** Why a Hue remote-API call failed. */
export type HueFailureKind =
  /** The token endpoint refused the code or refresh token (used, expired, revoked). */
  | 'invalid-grant'
  /** Our client id or secret was refused: a configuration fault. */
  | 'invalid-client'
  /** The bearer access token was refused (expired or revoked). */
  | 'token'
  /** The bridge refused the application key. */
  | 'app-key'
  /** Pairing needs the link button (error 101). */
  | 'link-button'
  | 'not-found'
  | 'bad-request'
  /** 429, or a 503 from an overloaded bridge (reference §3.5): slow down and try again. */
  | 'busy'
  /** No answer, a time-out, a 5xx or an unreadable body: the bridge or the API is unreachable. */
  | 'unreachable';

export type HueResult<T> = { ok: true; value: T } | { ok: false; kind: HueFailureKind; detail: string };

export interface HueTokens {
  accessToken: string;
  refreshToken: string;
  /** Seconds, as the token endpoint says (reference §3.6: trust expires_in). */
  expiresIn: number;
}

export interface HueRemoteClient {
  /** The remote API origin the server calls (the simulator's internal origin in demo mode). */
  readonly apiUrl: string;
  /** How long a call may take before it counts as unreachable. */
  readonly timeoutMs: number;
  exchangeCode(code: string): Promise<HueResult<HueTokens>>;
  refresh(refreshToken: string): Promise<HueResult<HueTokens>>;
  /** Reference §3.6 step 4: the remote link button, then a new application key (whitelist entry). */
  createApplicationKey(accessToken: string, deviceType: string): Promise<HueResult<string>>;
  /** A CLIP v2 call through `/route/clip/v2/resource/...`; the value is the `data` array. */
  clip(
    accessToken: string,
    applicationKey: string,
    method: 'GET' | 'PUT',
    resource: string,
    body?: unknown,
  ): Promise<HueResult<unknown[]>>;
}

export interface HueRemoteClientOptions {
  apiUrl: string;
  clientId: string;
  clientSecret: string;
  timeoutMs?: number;
  fetch?: typeof fetch;
}

const fail = <K extends HueFailureKind>(kind: K, detail: string) => ({ ok: false, kind, detail }) as const;

function describe(body: unknown, status: number): string {
  if (body && typeof body === 'object') {
    const b = body as Record<string, unknown>;
    if (typeof b.error_description === 'string') return b.error_description;
    if (typeof b.error === 'string') return b.error;
    const fault = b.fault as { faultstring?: unknown } | undefined;
    if (typeof fault?.faultstring === 'string') return fault.faultstring;
    const first = Array.isArray(b.errors)
      ? (b.errors[0] as { description?: unknown } | undefined)
      : undefined;
    if (typeof first?.description === 'string') return first.description;
  }
  return `HTTP ${status}`;
}

/**
 * The one speaker of the Hue remote API (reference §3.6, CONVENTIONS.md): OAuth token endpoint,
 * remote link button and app key, CLIP v2 through `/route`. Expected failures are results.
 */
export function createHueRemoteClient(options: HueRemoteClientOptions): HueRemoteClient {
  const apiUrl = options.apiUrl.replace(/\/+$/, '');
  const doFetch = options.fetch ?? ((...args: Parameters<typeof fetch>) => globalThis.fetch(...args));
  const timeoutMs = options.timeoutMs ?? REQUEST_TIMEOUT_MS;
  const basic = Buffer.from(`${options.clientId}:${options.clientSecret}`).toString('base64');

  async function send(
    url: string,
    init: RequestInit,
  ): Promise<
    { ok: true; status: number; body: unknown } | { ok: false; kind: 'unreachable'; detail: string }
  > {
    let response: Response;
    try {
      response = await doFetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    } catch (error) {
      const timedOut = error instanceof Error && error.name === 'TimeoutError';
      // The details reach the client: a network code at most, never an exception's own text.
      const code = (error as { cause?: { code?: unknown } } | null)?.cause?.code;
      return fail(
        'unreachable',
        timedOut
          ? `Hue did not answer within ${timeoutMs / 1000} s`
          : typeof code === 'string' && /^[A-Z_]{2,40}$/.test(code)
            ? `no connection to Hue (${code})`
            : 'no connection to Hue',
      );
    }
    const text = await response.text().catch(() => '');
    let body: unknown = null;
    if (text !== '') {
      try {
        body = JSON.parse(text);
      } catch {
        if (response.ok) return fail('unreachable', `unreadable answer (HTTP ${response.status})`);
      }
    }
    return { ok: true, status: response.status, body };
  }

  async function token(params: Record<string, string>): Promise<HueResult<HueTokens>> {
    const res = await send(`${apiUrl}/v2/oauth2/token`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${basic}`,
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
      },
      body: new URLSearchParams(params).toString(),
    });
    if (!res.ok) return res;
    const detail = describe(res.body, res.status);
    if (res.status >= 500) return fail('unreachable', detail);
    const b = (res.body ?? {}) as Record<string, unknown>;
    if (res.status === 401 || b.error === 'invalid_client') return fail('invalid-client', detail);
    if (res.status >= 400) return fail('invalid-grant', detail);
    const expiresIn = Number(b.expires_in);
    if (typeof b.access_token !== 'string' || typeof b.refresh_token !== 'string' || !(expiresIn > 0))
      return fail('unreachable', 'the token endpoint answered without tokens');
    return { ok: true, value: { accessToken: b.access_token, refreshToken: b.refresh_token, expiresIn } };
  }

  // A 401 carrying an OAuth `fault` is the bearer token; any other 401/403 is the application key.
  function routeFailure(status: number, body: unknown): { ok: false; kind: HueFailureKind; detail: string } {
    const detail = describe(body, status);
    if (status === 401 && body && typeof body === 'object' && 'fault' in body) return fail('token', detail);
    if (status === 401 || status === 403) return fail('app-key', detail);
    if (status === 404) return fail('not-found', detail);
    if (status === 429 || status === 503) return fail('busy', detail);
    if (status >= 500) return fail('unreachable', detail);
    return fail('bad-request', detail);
  }

  const bearer = (accessToken: string) => ({ authorization: `Bearer ${accessToken}` });
  const json = { 'content-type': 'application/json', accept: 'application/json' };

  return {
    apiUrl,
    timeoutMs,
    exchangeCode: (code) => token({ grant_type: 'authorization_code', code }),
    refresh: (refreshToken) => token({ grant_type: 'refresh_token', refresh_token: refreshToken }),

    async createApplicationKey(accessToken, deviceType) {
      const link = await send(`${apiUrl}/route/api/0/config`, {
        method: 'PUT',
        headers: { ...bearer(accessToken), ...json },
        body: JSON.stringify({ linkbutton: true }),
      });
      if (!link.ok) return link;
      if (link.status >= 400) return routeFailure(link.status, link.body);
      const res = await send(`${apiUrl}/route/api`, {
        method: 'POST',
        headers: { ...bearer(accessToken), ...json },
        body: JSON.stringify({ devicetype: deviceType }),
      });
      if (!res.ok) return res;
      if (res.status >= 400) return routeFailure(res.status, res.body);
      // The v1 pairing answer: [{success: {username}}] or [{error: {type, description}}].
      const first = (Array.isArray(res.body) ? res.body[0] : undefined) as
        { success?: { username?: unknown }; error?: { type?: unknown; description?: unknown } } | undefined;
      const username = first?.success?.username;
      if (typeof username === 'string' && username !== '') return { ok: true, value: username };
      const description = typeof first?.error?.description === 'string' ? first.error.description : '';
      if (first?.error?.type === 101) return fail('link-button', description || 'link button not pressed');
      return fail('bad-request', description || 'the bridge answered without an application key');
    },

    async clip(accessToken, applicationKey, method, resource, body) {
      const res = await send(`${apiUrl}/route/clip/v2/resource/${resource}`, {
        method,
        headers: { ...bearer(accessToken), 'hue-application-key': applicationKey, ...json },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      if (!res.ok) return res;
      if (res.status >= 400) return routeFailure(res.status, res.body);
      const b = (res.body ?? {}) as { data?: unknown; errors?: unknown };
      // The bridge can answer 200 with a non-empty errors array (reference §3.3).
      if (Array.isArray(b.errors) && b.errors.length > 0) return fail('bad-request', describe(b, res.status));
      if (!Array.isArray(b.data)) return fail('unreachable', 'the bridge answered without data');
      return { ok: true, value: b.data as unknown[] };
    },
  };
}

/** Reference §3.6 step 2: the page the user allows Flaglight on. */
export function buildAuthorizeUrl(input: {
  authorizeBase: string;
  clientId: string;
  state: string;
  redirectUri: string;
}): string {
  const url = new URL(`${input.authorizeBase.replace(/\/+$/, '')}/v2/oauth2/authorize`);
  url.searchParams.set('client_id', input.clientId);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('state', input.state);
  url.searchParams.set('redirect_uri', input.redirectUri);
  return url.toString();
}
