import https from 'node:https';
import type { Duplex } from 'node:stream';
import type { TLSSocket } from 'node:tls';
import { LIGHT_ERROR_MESSAGES as M, LightError } from '../../errors.js';
import { LanAnswerTooLargeError, LanHttpError, lanHttpRequest } from '../http-limits.js';

/** A bridge on the home network answers in well under a second. */
export const HUE_LOCAL_TIMEOUT_MS = 10_000;

/** What a bridge's certificate must show: its CN is the bridge id; its fingerprint, once known. */
export interface HueBridgePin {
  /** Lower-case bridge id (the certificate's CN); unknown before the first `/api/0/config`. */
  bridgeId?: string | null;
  /** The leaf's SHA-256 fingerprint (`AB:CD:…`) stored at pairing; trust-on-first-use when absent. */
  fingerprint256?: string | null;
}

export const HUE_CERTIFICATE_CHANGED =
  'Hue bridge certificate changed: this is not the bridge Flaglight was paired with. Pair it again if you replaced it.';

/**
 * An `https.Agent` for one bridge (reference/lan-lights.md §2.6). We cannot ship Signify's root
 * certificates here, so the chain is not verified (`rejectUnauthorized: false`); instead every new
 * connection is held until its handshake is done and checked: the peer's subject CN must be the
 * bridge id and, once known, its fingerprint the stored one. A mismatch destroys the socket before
 * a request (and its application key) is written. Keep-alive, at most `maxSockets` connections.
 */
export class PinnedBridgeAgent extends https.Agent {
  /** The fingerprint and CN the last checked connection showed (the first one pins, when unpinned). */
  seenFingerprint256: string | null = null;
  seenCommonName: string | null = null;

  constructor(
    readonly pin: HueBridgePin,
    maxSockets = 2,
  ) {
    super({ keepAlive: true, maxSockets, maxFreeSockets: maxSockets, rejectUnauthorized: false });
  }

  override createConnection(
    options: https.RequestOptions,
    callback?: (err: Error | null, stream: Duplex) => void,
  ): Duplex | null | undefined {
    const socket = super.createConnection({ ...options, rejectUnauthorized: false }) as TLSSocket;
    const fail = (error: Error) => {
      socket.off('secureConnect', check);
      callback?.(error, socket);
    };
    const check = () => {
      socket.off('error', fail);
      const cert = socket.getPeerCertificate();
      const cn = typeof cert.subject?.CN === 'string' ? cert.subject.CN.toLowerCase() : null;
      this.seenCommonName = cn;
      this.seenFingerprint256 = cert.fingerprint256 ?? null;
      const expectedId = this.pin.bridgeId?.toLowerCase();
      const problem =
        expectedId && cn !== expectedId
          ? `the certificate names ${cn ?? 'no bridge'}, not ${expectedId}`
          : this.pin.fingerprint256 && cert.fingerprint256 !== this.pin.fingerprint256
            ? 'its fingerprint is not the one stored at pairing'
            : null;
      if (problem) {
        const error = new LightError('auth', HUE_CERTIFICATE_CHANGED);
        error.cause = problem;
        socket.destroy();
        callback?.(error, socket);
        return;
      }
      // Trust on first use: the first connection's fingerprint is the one this agent holds to.
      this.pin.fingerprint256 ??= cert.fingerprint256 ?? null;
      callback?.(null, socket);
    };
    socket.once('error', fail);
    socket.once('secureConnect', check);
    return undefined;
  }
}

export interface HueHttpsResponse {
  status: number;
  body: unknown;
}

export interface HueHttpsRequest {
  method: 'GET' | 'POST' | 'PUT';
  headers?: Record<string, string>;
  body?: unknown;
  timeoutMs?: number;
  /** The message of a timeout or a non-JSON answer. */
  fallback: string;
}

/**
 * One JSON request over the pinned agent, read with the LAN limits (an answer over 1 MiB or slower
 * than `timeoutMs` in all is dropped: "answer too large" / the time-out). A certificate mismatch
 * rejects with its `LightError`.
 */
export async function hueHttpsRequest(
  agent: PinnedBridgeAgent,
  url: string,
  init: HueHttpsRequest,
): Promise<HueHttpsResponse> {
  const payload = init.body === undefined ? undefined : JSON.stringify(init.body);
  let answer: { status: number; text: string };
  try {
    answer = await lanHttpRequest(url, {
      method: init.method,
      agent,
      timeoutMs: init.timeoutMs ?? HUE_LOCAL_TIMEOUT_MS,
      ...(payload === undefined ? {} : { body: payload }),
      headers: {
        accept: 'application/json',
        ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
        ...init.headers,
      },
    });
  } catch (error) {
    if (error instanceof LanHttpError && error.cause instanceof LightError) throw error.cause;
    const reason = error instanceof LanHttpError ? error.reason : 'network';
    if (reason === 'bad-url') throw new LightError('bad-request', `Not a Hue bridge address: ${url}`);
    if (reason === 'timeout') throw new LightError('timeout', init.fallback);
    if (reason === 'too-large') throw new LanAnswerTooLargeError('The Hue bridge');
    throw new LightError('network', M.hueNotConnected);
  }
  let body: unknown;
  try {
    body = answer.text === '' ? null : JSON.parse(answer.text);
  } catch {
    throw new LightError('server', init.fallback, answer.status);
  }
  return { status: answer.status, body };
}
