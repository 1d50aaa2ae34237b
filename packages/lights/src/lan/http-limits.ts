import http from 'node:http';
import https from 'node:https';
import { LightError } from '../errors.js';

/**
 * The most a LAN light's answer may hold. Real answers (a Nanoleaf `GET /` with its layout, a Hue
 * bridge's light list) are a few kB to a few hundred kB; anyone on the LAN can answer in a
 * device's place, so nothing it sends is kept past this.
 */
export const LAN_ANSWER_MAX_BYTES = 1024 * 1024;
export const LAN_ANSWER_TOO_LARGE = 'answer too large';

/**
 * A device's answer passed {@link LAN_ANSWER_MAX_BYTES} (kind `server`): not worth asking again, so
 * a pairing loop ends on it instead of polling.
 */
export class LanAnswerTooLargeError extends LightError {
  constructor(device: string) {
    super('server', `${device} sent an ${LAN_ANSWER_TOO_LARGE} (over 1 MiB)`);
  }
}

export type LanHttpFailure = 'bad-url' | 'timeout' | 'network' | 'too-large';

/** Why a LAN request got no usable answer; `cause` keeps an agent's own error (a pin mismatch). */
export class LanHttpError extends Error {
  override readonly name = 'LanHttpError';

  constructor(
    readonly reason: LanHttpFailure,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export interface LanHttpInit {
  method: string;
  headers?: Record<string, string>;
  /** Sent as is (the caller serialises and sets content-type). */
  body?: string;
  agent?: http.Agent;
  /** One deadline for the whole exchange: connecting, the headers and every byte of the body. */
  timeoutMs: number;
  maxBytes?: number;
}

export interface LanHttpAnswer {
  status: number;
  text: string;
}

/**
 * One HTTP(S) request to a device on the LAN, read with limits: the answer is dropped (and the
 * connection destroyed) as soon as it passes `maxBytes` (by its content-length or as it streams),
 * or when the whole exchange takes longer than `timeoutMs`, so a device that answers without end,
 * or never, costs at most that much memory and time. Rejects with a {@link LanHttpError}.
 */
export function lanHttpRequest(url: string, init: LanHttpInit): Promise<LanHttpAnswer> {
  const maxBytes = init.maxBytes ?? LAN_ANSWER_MAX_BYTES;
  return new Promise((resolve, reject) => {
    let settled = false;
    let request: http.ClientRequest | null = null;
    const fail = (reason: LanHttpFailure, message: string, cause?: unknown) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request?.destroy();
      reject(new LanHttpError(reason, message, cause === undefined ? undefined : { cause }));
    };
    const timer = setTimeout(() => fail('timeout', 'no answer in time'), init.timeoutMs);
    try {
      const lib = new URL(url).protocol === 'https:' ? https : http;
      request = lib.request(url, {
        method: init.method,
        ...(init.agent ? { agent: init.agent } : {}),
        headers: {
          ...(init.body === undefined ? {} : { 'content-length': String(Buffer.byteLength(init.body)) }),
          ...init.headers,
        },
      });
    } catch (error) {
      fail('bad-url', `not an address: ${url}`, error);
      return;
    }
    request.on('error', (error: NodeJS.ErrnoException) =>
      fail('network', error.code === 'ECONNREFUSED' ? 'connection refused' : 'connection dropped', error),
    );
    request.on('response', (response) => {
      const declared = Number(response.headers['content-length']);
      if (Number.isFinite(declared) && declared > maxBytes) {
        fail('too-large', LAN_ANSWER_TOO_LARGE);
        return;
      }
      const chunks: Buffer[] = [];
      let received = 0;
      response.on('data', (chunk: Buffer) => {
        received += chunk.length;
        if (received > maxBytes) fail('too-large', LAN_ANSWER_TOO_LARGE);
        else if (!settled) chunks.push(chunk);
      });
      response.on('error', (error) => fail('network', 'connection dropped', error));
      response.on('close', () => {
        if (!response.complete) fail('network', 'connection dropped');
      });
      response.on('end', () => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') });
      });
    });
    request.end(init.body);
  });
}
