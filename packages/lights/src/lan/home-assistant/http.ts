import http from 'node:http';
import https from 'node:https';
import { LightError } from '../../errors.js';
import { LanAnswerTooLargeError, LanHttpError, lanHttpRequest } from '../http-limits.js';

/**
 * Every call gets this long in all (reference home-assistant-mqtt-wled.md §1.3): since 2023.12 a
 * service call waits for the device, uncapped, so the client must set its own limit.
 */
export const HOME_ASSISTANT_TIMEOUT_MS = 5_000;
/** What the status page says when Home Assistant answers 401: the token is wrong or was revoked. */
export const HOME_ASSISTANT_TOKEN_REFUSED =
  'Home Assistant refused the access token (wrong, or revoked): create a new long-lived access token and enter it here';
/** 403: Home Assistant banned this computer's address after failed logins (`ip_ban_enabled`). */
export const HOME_ASSISTANT_BANNED =
  'Home Assistant refused this computer (banned after failed logins): remove its address from ip_bans.yaml';
const UNTRUSTED_CERTIFICATE =
  "Home Assistant's HTTPS certificate is not trusted (self-signed?): start the companion with --home-assistant-insecure to accept it";
const CERTIFICATE_ERRORS = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

/**
 * `http(s)://host[:port][/path]` → the base URL without a trailing slash. Anything else (another
 * scheme, a user name or password, a query) is refused: the token goes only where the user said.
 */
export function parseHomeAssistantUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw new LightError(
      'bad-request',
      `Not a Home Assistant address: "${text}" (example: http://homeassistant.local:8123)`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new LightError('bad-request', 'A Home Assistant address starts with http:// or https://');
  if (url.username || url.password || url.search || url.hash)
    throw new LightError(
      'bad-request',
      'A Home Assistant address has no user name, password, query or fragment',
    );
  return url.origin + url.pathname.replace(/\/+$/, '');
}

/**
 * A long-lived access token as a header may carry it: printable ASCII without spaces, so nothing
 * typed can split the request. HA's tokens are JWTs of about 180 characters.
 */
export function isHomeAssistantToken(token: string): boolean {
  return /^[\x21-\x7e]{8,4096}$/.test(token);
}

/** One agent per instance: a few kept-alive sockets, and a self-signed certificate only when allowed. */
export function createHomeAssistantAgent(url: string, insecure: boolean): http.Agent {
  const options = { keepAlive: true, maxSockets: 8 };
  return url.startsWith('https:')
    ? new https.Agent({ ...options, rejectUnauthorized: !insecure })
    : new http.Agent(options);
}

export interface HomeAssistantAnswer {
  status: number;
  /** JSON when the answer is JSON, else the text (`401: Unauthorized`, a template's output). */
  body: unknown;
  text: string;
}

/**
 * One REST call with `Authorization: Bearer`, read with the LAN limits (1 MiB, one deadline for
 * the whole exchange). A time-out or connection failure rejects with a `LightError` of kind
 * `timeout` or `network`; every HTTP answer resolves with its status for the caller to judge.
 * Error messages never contain the token.
 */
export async function homeAssistantRequest(
  baseUrl: string,
  token: string,
  init: { method: 'GET' | 'POST'; path: string; body?: unknown; agent?: http.Agent; timeoutMs?: number },
): Promise<HomeAssistantAnswer> {
  const payload = init.body === undefined ? undefined : JSON.stringify(init.body);
  try {
    const { status, text } = await lanHttpRequest(`${baseUrl}${init.path}`, {
      method: init.method,
      timeoutMs: init.timeoutMs ?? HOME_ASSISTANT_TIMEOUT_MS,
      ...(init.agent ? { agent: init.agent } : {}),
      ...(payload === undefined ? {} : { body: payload }),
      headers: {
        accept: 'application/json',
        authorization: `Bearer ${token}`,
        ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
      },
    });
    return { status, text, body: parseBody(text) };
  } catch (error) {
    throw toLightError(error);
  }
}

function toLightError(error: unknown): LightError {
  const reason = error instanceof LanHttpError ? error.reason : 'network';
  if (reason === 'timeout') return new LightError('timeout', 'Home Assistant did not answer within 5 s');
  if (reason === 'too-large') return new LanAnswerTooLargeError('Home Assistant');
  if (reason === 'bad-url') return new LightError('bad-request', 'Not a Home Assistant address');
  const code = (error as { cause?: NodeJS.ErrnoException }).cause?.code ?? '';
  if (CERTIFICATE_ERRORS.has(code)) return new LightError('network', UNTRUSTED_CERTIFICATE);
  return new LightError(
    'network',
    code === 'ECONNREFUSED'
      ? 'Home Assistant refused the connection (not running, or another address?)'
      : code === 'ENOTFOUND'
        ? "Home Assistant's address was not found on this network"
        : 'Home Assistant dropped the connection',
  );
}

function parseBody(text: string): unknown {
  if (text === '') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** HA's own words from an error answer (`{"message": …}`), cut short and on one line. */
export function homeAssistantMessage(answer: HomeAssistantAnswer): string {
  const raw =
    typeof answer.body === 'object' && answer.body !== null && 'message' in answer.body
      ? String(answer.body.message)
      : answer.text;
  const clean = raw
    .replace(/[\p{Cc}\p{Cf}]+/gu, ' ')
    .trim()
    .slice(0, 200);
  return clean || `HTTP ${answer.status}`;
}
