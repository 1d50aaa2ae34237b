import type http from 'node:http';
import { LightError } from '../errors.js';
import { LanAnswerTooLargeError, LanHttpError, lanHttpRequest } from './http-limits.js';

// The plain-HTTP JSON devices of the home network (Nanoleaf controllers, WLED strips) share how
// an address is read and how one request goes: the same LAN limits, the same errors in their words.

export interface LanAddress {
  host: string;
  port: number;
}

export interface LanJsonResponse {
  status: number;
  body: unknown;
}

/** How a device is named in an error ("Nanoleaf controllers" / "The Nanoleaf controller"). */
export interface LanDeviceWords {
  /** Plural, for an address: "Nanoleaf controllers". */
  kind: string;
  /** The brand for "Not a … address": "Nanoleaf". */
  brand: string;
  /** One device, as a sentence's subject: "The Nanoleaf controller". */
  device: string;
}

/**
 * `HOST`, `HOST:PORT`, `[v6]:PORT` or `http://HOST[:PORT]` → host and port (`defaultPort` when
 * absent). These APIs are plain HTTP: an https:// address is refused rather than silently downgraded.
 */
export function parseLanAddress(text: string, defaultPort: number, words: LanDeviceWords): LanAddress {
  const trimmed = text.trim();
  if (/^https:\/\//i.test(trimmed))
    throw new LightError('bad-request', `${words.kind} speak plain HTTP, not HTTPS: "${text}"`);
  const bare = trimmed.replace(/^http:\/\//i, '').replace(/\/+$/, '');
  const match = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::(\d{1,5}))?$/i.exec(bare);
  const port = match?.[2] === undefined ? defaultPort : Number(match[2]);
  if (!match?.[1] || port < 1 || port > 65_535)
    throw new LightError('bad-request', `Not a ${words.brand} address (HOST or HOST:PORT): "${text}"`);
  return { host: match[1].replace(/^\[|\]$/g, ''), port };
}

/** `http://host:port`, with brackets for IPv6. */
export function lanBaseUrl(address: LanAddress): string {
  const host = address.host.includes(':') ? `[${address.host}]` : address.host;
  return `http://${host}:${address.port}`;
}

export interface LanJsonRequestInit {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  body?: unknown;
  timeoutMs: number;
  agent?: http.Agent;
}

/**
 * One JSON request over `node:http`, read with the LAN limits (an answer over 1 MiB or slower than
 * `timeoutMs` in all is dropped). A time-out, a refused or dropped connection rejects with a
 * `LightError` of kind `timeout` or `network` (the driver marks the device unreachable), an
 * oversized answer with kind `server` ("answer too large"); any HTTP answer resolves with its status
 * for the caller to judge.
 */
export async function lanJsonRequest(
  url: string,
  init: LanJsonRequestInit,
  words: LanDeviceWords,
): Promise<LanJsonResponse> {
  const payload = init.body === undefined ? undefined : JSON.stringify(init.body);
  try {
    const { status, text } = await lanHttpRequest(url, {
      method: init.method,
      timeoutMs: init.timeoutMs,
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
    throw toLightError(error, url, words);
  }
}

function toLightError(error: unknown, url: string, words: LanDeviceWords): LightError {
  const reason = error instanceof LanHttpError ? error.reason : 'network';
  switch (reason) {
    case 'bad-url':
      return new LightError('bad-request', `Not a ${words.brand} address: ${url}`);
    case 'timeout':
      return new LightError('timeout', `${words.device} did not answer in time`);
    case 'too-large':
      return new LanAnswerTooLargeError(words.device);
    default: {
      const code = (error as { cause?: NodeJS.ErrnoException }).cause?.code;
      return new LightError(
        'network',
        code === 'ECONNREFUSED'
          ? `${words.device} refused the connection (off, or another address?)`
          : `${words.device} dropped the connection`,
      );
    }
  }
}

/** JSON when it is JSON; a device's odd plain-text or HTML answer is kept as text. */
function parseBody(text: string): unknown {
  if (text === '') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
