import type http from 'node:http';
import { LightError } from '../../errors.js';
import { LanAnswerTooLargeError, LanHttpError, lanHttpRequest } from '../http-limits.js';

/** A controller on the home network answers in well under a second; 5 s means it is gone. */
export const NANOLEAF_TIMEOUT_MS = 5_000;
/** The OpenAPI's port (reference §1); mDNS names the real one, so it is only the default. */
export const NANOLEAF_DEFAULT_PORT = 16_021;

export interface NanoleafResponse {
  status: number;
  body: unknown;
}

export interface NanoleafAddress {
  host: string;
  port: number;
}

/**
 * `HOST`, `HOST:PORT`, `[v6]:PORT` or `http://HOST[:PORT]` → host and port (16021 when absent).
 * The OpenAPI is plain HTTP: an https:// address is refused rather than silently downgraded.
 */
export function parseNanoleafAddress(text: string): NanoleafAddress {
  const trimmed = text.trim();
  if (/^https:\/\//i.test(trimmed))
    throw new LightError('bad-request', `Nanoleaf controllers speak plain HTTP, not HTTPS: "${text}"`);
  const bare = trimmed.replace(/^http:\/\//i, '').replace(/\/+$/, '');
  const match = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::(\d{1,5}))?$/i.exec(bare);
  const port = match?.[2] === undefined ? NANOLEAF_DEFAULT_PORT : Number(match[2]);
  if (!match?.[1] || port < 1 || port > 65_535)
    throw new LightError('bad-request', `Not a Nanoleaf address (HOST or HOST:PORT): "${text}"`);
  return { host: match[1].replace(/^\[|\]$/g, ''), port };
}

/** `http://host:port`, with brackets for IPv6. */
export function nanoleafBaseUrl(address: NanoleafAddress): string {
  const host = address.host.includes(':') ? `[${address.host}]` : address.host;
  return `http://${host}:${address.port}`;
}

export interface NanoleafRequestInit {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  body?: unknown;
  timeoutMs?: number;
  agent?: http.Agent;
}

/**
 * One JSON request to a controller over `node:http`, read with the LAN limits (an answer over 1 MiB
 * or slower than `timeoutMs` in all is dropped). A time-out, a refused or dropped connection rejects
 * with a `LightError` of kind `timeout` or `network` (the driver marks the device unreachable), an
 * oversized answer with kind `server` ("answer too large"); any HTTP answer resolves with its status
 * for the caller to judge.
 */
export async function nanoleafRequest(url: string, init: NanoleafRequestInit): Promise<NanoleafResponse> {
  const payload = init.body === undefined ? undefined : JSON.stringify(init.body);
  try {
    const { status, text } = await lanHttpRequest(url, {
      method: init.method,
      timeoutMs: init.timeoutMs ?? NANOLEAF_TIMEOUT_MS,
      ...(init.agent ? { agent: init.agent } : {}),
      ...(payload === undefined ? {} : { body: payload }),
      headers: {
        accept: 'application/json',
        ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
      },
    });
    return { status, body: parseBody(text) };
  } catch (error) {
    throw toNanoleafError(error, url);
  }
}

function toNanoleafError(error: unknown, url: string): LightError {
  const reason = error instanceof LanHttpError ? error.reason : 'network';
  switch (reason) {
    case 'bad-url':
      return new LightError('bad-request', `Not a Nanoleaf address: ${url}`);
    case 'timeout':
      return new LightError('timeout', 'The Nanoleaf controller did not answer in time');
    case 'too-large':
      return new LanAnswerTooLargeError('The Nanoleaf controller');
    default: {
      const code = (error as { cause?: NodeJS.ErrnoException }).cause?.code;
      return new LightError(
        'network',
        code === 'ECONNREFUSED'
          ? 'The Nanoleaf controller refused the connection (off, or another address?)'
          : 'The Nanoleaf controller dropped the connection',
      );
    }
  }
}

/** JSON when it is JSON; a controller's odd plain-text answer is kept as text. */
function parseBody(text: string): unknown {
  if (text === '') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
