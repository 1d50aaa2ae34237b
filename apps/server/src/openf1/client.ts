import { STATUS_CODES } from 'node:http';
import { REQUEST_TIMEOUT_MS, TOKEN_CACHE_MARGIN_MS } from '@flaglight/core';
import { OPENF1_MESSAGES } from './messages.js';

/** Why an OpenF1 call failed; each maps to one SPEC §8 text. */
export type OpenF1ErrorKind =
  'unauthorized' | 'rate-limited' | 'invalid-json' | 'bad-request' | 'server-error' | 'timeout' | 'network';

export type OpenF1Result<T = unknown> =
  { ok: true; data: T } | { ok: false; kind: OpenF1ErrorKind; status: number; message: string };

export interface OpenF1Client {
  /** GETs `/v1/<endpoint>?<query>`; `query` is already encoded (operators like `date>` literal or encoded whole). */
  get<T = unknown>(pathAndQuery: string): Promise<OpenF1Result<T>>;
  /** A current access token, or null without credentials (or when `/token` fails). */
  accessToken(): Promise<string | null>;
  /** Credentials and an MQTT URL are configured: the push feed can be used. */
  readonly pushUrl: string | undefined;
  readonly username: string | undefined;
  readonly hasCredentials: boolean;
}

export interface OpenF1ClientOptions {
  baseUrl: string;
  username?: string | undefined;
  password?: string | undefined;
  mqttUrl?: string | undefined;
  now?: () => number;
  timeoutMs?: number;
  fetch?: typeof fetch;
}

const tokenResponse = (body: unknown): { token: string; expiresInMs: number } | null => {
  if (typeof body !== 'object' || body === null) return null;
  const { access_token: token, expires_in: expiresIn } = body as Record<string, unknown>;
  // expires_in is a string in OpenF1's answer (reference §1.8); accept a number too.
  const seconds = Number(expiresIn);
  if (typeof token !== 'string' || !token || !Number.isFinite(seconds)) return null;
  return { token, expiresInMs: seconds * 1000 };
};

/**
 * The one speaker of OpenF1's HTTP API (CONVENTIONS.md). Expected failures are results carrying
 * SPEC §8's texts, never throws. With credentials it fetches a token from `/token`, keeps it until
 * TOKEN_CACHE_MARGIN_MS before expiry, and retries once with a fresh token after a 401.
 */
export function createOpenF1Client(options: OpenF1ClientOptions): OpenF1Client {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const now = options.now ?? (() => Date.now());
  const timeoutMs = options.timeoutMs ?? REQUEST_TIMEOUT_MS;
  const doFetch = options.fetch ?? fetch;
  const hasCredentials = Boolean(options.username && options.password);
  let cached: { token: string; refreshAt: number } | null = null;
  let pending: Promise<string | null> | null = null;

  async function fetchToken(): Promise<string | null> {
    try {
      const res = await doFetch(`${baseUrl}/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ username: options.username ?? '', password: options.password ?? '' }),
        signal: AbortSignal.timeout(timeoutMs),
      });
      if (!res.ok) return null;
      const parsed = tokenResponse(await res.json());
      if (!parsed) return null;
      cached = { token: parsed.token, refreshAt: now() + parsed.expiresInMs - TOKEN_CACHE_MARGIN_MS };
      return parsed.token;
    } catch {
      return null;
    }
  }

  async function accessToken(): Promise<string | null> {
    if (!hasCredentials) return null;
    if (cached && now() < cached.refreshAt) return cached.token;
    // Concurrent callers share one /token exchange.
    pending ??= fetchToken().finally(() => {
      pending = null;
    });
    return pending;
  }

  async function attempt<T>(
    pathAndQuery: string,
    token: string | null,
  ): Promise<OpenF1Result<T> & { status?: number }> {
    let res: Response;
    try {
      res = await doFetch(`${baseUrl}${pathAndQuery}`, {
        headers: { accept: 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      const timedOut =
        error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
      return timedOut
        ? {
            ok: false,
            kind: 'timeout',
            status: 0,
            message: OPENF1_MESSAGES.requestFailed('request timed out'),
          }
        : { ok: false, kind: 'network', status: 0, message: OPENF1_MESSAGES.requestFailed('network error') };
    }
    let text: string;
    try {
      text = await res.text();
    } catch {
      return {
        ok: false,
        kind: 'network',
        status: res.status,
        message: OPENF1_MESSAGES.requestFailed('connection lost'),
      };
    }
    if (res.status === 401)
      return { ok: false, kind: 'unauthorized', status: 401, message: OPENF1_MESSAGES.unauthorized };
    if (res.status === 429)
      return { ok: false, kind: 'rate-limited', status: 429, message: OPENF1_MESSAGES.rateLimited };
    if (res.status >= 500) {
      return {
        ok: false,
        kind: 'server-error',
        status: res.status,
        // The status line's standard words, not the host's own reason phrase.
        message: OPENF1_MESSAGES.requestFailed(`${res.status} ${STATUS_CODES[res.status] ?? ''}`.trim()),
      };
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return { ok: false, kind: 'invalid-json', status: res.status, message: OPENF1_MESSAGES.invalidJson };
    }
    // OpenF1 answers "no rows" with 404 {"detail":"No results found."} (reference §1.10): an empty list.
    if (res.status === 404 && isNoResults(body)) return { ok: true, data: [] as T };
    if (!res.ok) {
      const said = (body as { detail?: unknown } | null)?.detail;
      // OpenF1's reason for a rejected query helps whoever asked; a long or marked-up one is not kept.
      const detail =
        typeof said === 'string' && said.length <= 120 && /^[^\p{Cc}\p{Cf}<>]+$/u.test(said)
          ? said
          : `${res.status} ${STATUS_CODES[res.status] ?? ''}`.trim();
      return {
        ok: false,
        kind: 'bad-request',
        status: res.status,
        message: OPENF1_MESSAGES.requestFailed(detail),
      };
    }
    return { ok: true, data: body as T };
  }

  return {
    pushUrl: hasCredentials ? options.mqttUrl : undefined,
    username: options.username,
    hasCredentials,
    accessToken,
    async get<T>(pathAndQuery: string): Promise<OpenF1Result<T>> {
      const token = await accessToken();
      const first = await attempt<T>(pathAndQuery, token);
      if (!first.ok && first.kind === 'unauthorized' && token) {
        // The token may have been revoked early: one retry with a fresh one.
        cached = null;
        const fresh = await accessToken();
        if (fresh) return attempt<T>(pathAndQuery, fresh);
      }
      return first;
    },
  };
}

function isNoResults(body: unknown): boolean {
  const detail = (body as { detail?: unknown } | null)?.detail;
  return typeof detail === 'string' && /no results/i.test(detail);
}
