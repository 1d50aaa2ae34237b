import type http from 'node:http';
import { LightError } from '../../errors.js';
import { LanAnswerTooLargeError, LanHttpError, lanHttpRequest } from '../http-limits.js';

/**
 * A WLED device on the home network answers in well under a second; an ESP8266 under load can take
 * a few, and a flag later than 5 s is no longer worth waiting for, so 5 s means it is gone.
 */
export const WLED_TIMEOUT_MS = 5_000;
/** WLED's web server listens on port 80 (mDNS names another one when set). */
export const WLED_DEFAULT_PORT = 80;

export interface WledAddress {
  host: string;
  port: number;
}

export interface WledResponse {
  status: number;
  body: unknown;
}

/**
 * `HOST`, `HOST:PORT`, `[v6]:PORT` or `http://HOST[:PORT]` → host and port (80 when absent). WLED's
 * JSON API is plain HTTP: an https:// address is refused rather than silently downgraded.
 */
export function parseWledAddress(text: string): WledAddress {
  const trimmed = text.trim();
  if (/^https:\/\//i.test(trimmed))
    throw new LightError('bad-request', `WLED devices speak plain HTTP, not HTTPS: "${text}"`);
  const bare = trimmed.replace(/^http:\/\//i, '').replace(/\/+$/, '');
  const match = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::(\d{1,5}))?$/i.exec(bare);
  const port = match?.[2] === undefined ? WLED_DEFAULT_PORT : Number(match[2]);
  if (!match?.[1] || port < 1 || port > 65_535)
    throw new LightError('bad-request', `Not a WLED address (HOST or HOST:PORT): "${text}"`);
  return { host: match[1].replace(/^\[|\]$/g, ''), port };
}

/** `http://host:port`, with brackets for IPv6. */
export function wledBaseUrl(address: WledAddress): string {
  const host = address.host.includes(':') ? `[${address.host}]` : address.host;
  return `http://${host}:${address.port}`;
}

export interface WledRequestInit {
  method: 'GET' | 'POST';
  body?: unknown;
  timeoutMs?: number;
  agent?: http.Agent;
}

/**
 * One JSON request to a WLED device over `node:http`, read with the LAN limits (an answer over
 * 1 MiB or slower than `timeoutMs` in all is dropped). A time-out, a refused or dropped connection
 * rejects with a `LightError` of kind `timeout` or `network` (the driver marks the device
 * unreachable), an oversized answer with kind `server` ("answer too large"); any HTTP answer
 * resolves with its status for the caller to judge.
 */
export async function wledRequest(url: string, init: WledRequestInit): Promise<WledResponse> {
  const payload = init.body === undefined ? undefined : JSON.stringify(init.body);
  try {
    const { status, text } = await lanHttpRequest(url, {
      method: init.method,
      timeoutMs: init.timeoutMs ?? WLED_TIMEOUT_MS,
      ...(init.agent ? { agent: init.agent } : {}),
      ...(payload === undefined ? {} : { body: payload }),
      // WLED answers a POST of any other content type with its 404 page (reference §3.1).
      headers: {
        accept: 'application/json',
        ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
      },
    });
    return { status, body: parseBody(text) };
  } catch (error) {
    throw toWledError(error, url);
  }
}

function toWledError(error: unknown, url: string): LightError {
  const reason = error instanceof LanHttpError ? error.reason : 'network';
  switch (reason) {
    case 'bad-url':
      return new LightError('bad-request', `Not a WLED address: ${url}`);
    case 'timeout':
      return new LightError('timeout', 'The WLED device did not answer in time');
    case 'too-large':
      return new LanAnswerTooLargeError('The WLED device');
    default: {
      const code = (error as { cause?: NodeJS.ErrnoException }).cause?.code;
      return new LightError(
        'network',
        code === 'ECONNREFUSED'
          ? 'The WLED device refused the connection (off, or another address?)'
          : 'The WLED device dropped the connection',
      );
    }
  }
}

/** JSON when it is JSON; an odd plain-text or HTML answer is kept as text. */
function parseBody(text: string): unknown {
  if (text === '') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
