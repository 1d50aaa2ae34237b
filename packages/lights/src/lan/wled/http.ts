import type http from 'node:http';
import {
  lanBaseUrl,
  lanJsonRequest,
  parseLanAddress,
  type LanAddress,
  type LanDeviceWords,
  type LanJsonResponse,
} from '../http-json.js';

/**
 * A WLED device on the home network answers in well under a second; an ESP8266 under load can take
 * a few, and a flag later than 5 s is no longer worth waiting for, so 5 s means it is gone.
 */
export const WLED_TIMEOUT_MS = 5_000;
/** WLED's web server listens on port 80 (mDNS names another one when set). */
export const WLED_DEFAULT_PORT = 80;

export type WledAddress = LanAddress;
export type WledResponse = LanJsonResponse;

const WORDS: LanDeviceWords = { kind: 'WLED devices', brand: 'WLED', device: 'The WLED device' };

/** `HOST`, `HOST:PORT`, `[v6]:PORT` or `http://HOST[:PORT]` → host and port (plain HTTP only). */
export function parseWledAddress(text: string): WledAddress {
  return parseLanAddress(text, WLED_DEFAULT_PORT, WORDS);
}

/** `http://host:port`, with brackets for IPv6. */
export function wledBaseUrl(address: WledAddress): string {
  return lanBaseUrl(address);
}

export interface WledRequestInit {
  method: 'GET' | 'POST';
  body?: unknown;
  timeoutMs?: number;
  agent?: http.Agent;
}

/** One JSON request with the LAN limits, errors in this device's words (`lan/http-json.ts`). */
export async function wledRequest(url: string, init: WledRequestInit): Promise<WledResponse> {
  return lanJsonRequest(url, { ...init, timeoutMs: init.timeoutMs ?? WLED_TIMEOUT_MS }, WORDS);
}
