import http from 'node:http';
import { LightError } from '../../errors.js';

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
 * One JSON request to a controller over `node:http`. A time-out, a refused or dropped connection
 * rejects with a `LightError` of kind `timeout` or `network` (the driver marks the device
 * unreachable); any HTTP answer resolves with its status for the caller to judge.
 */
export function nanoleafRequest(url: string, init: NanoleafRequestInit): Promise<NanoleafResponse> {
  const timeoutMs = init.timeoutMs ?? NANOLEAF_TIMEOUT_MS;
  const payload = init.body === undefined ? undefined : JSON.stringify(init.body);
  return new Promise((resolve, reject) => {
    let settled = false;
    const done = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      fn();
    };
    let request: http.ClientRequest;
    try {
      request = http.request(url, {
        method: init.method,
        ...(init.agent ? { agent: init.agent } : {}),
        headers: {
          accept: 'application/json',
          ...(payload === undefined
            ? {}
            : { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(payload)) }),
        },
      });
    } catch {
      reject(new LightError('bad-request', `Not a Nanoleaf address: ${url}`));
      return;
    }
    const timer = setTimeout(() => {
      request.destroy();
      done(() => reject(new LightError('timeout', 'The Nanoleaf controller did not answer in time')));
    }, timeoutMs);
    request.on('error', (error: NodeJS.ErrnoException) =>
      done(() =>
        reject(
          new LightError(
            'network',
            error.code === 'ECONNREFUSED'
              ? 'The Nanoleaf controller refused the connection (off, or another address?)'
              : 'The Nanoleaf controller dropped the connection',
          ),
        ),
      ),
    );
    request.on('response', (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', () =>
        done(() => reject(new LightError('network', 'The Nanoleaf controller dropped the connection'))),
      );
      response.on('end', () =>
        done(() => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: response.statusCode ?? 0, body: parseBody(text) });
        }),
      );
    });
    request.end(payload);
  });
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
