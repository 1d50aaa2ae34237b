import type http from 'node:http';
import {
  lanBaseUrl,
  lanJsonRequest,
  parseLanAddress,
  type LanAddress,
  type LanDeviceWords,
  type LanJsonResponse,
} from '../http-json.js';

/** A controller on the home network answers in well under a second; 5 s means it is gone. */
export const NANOLEAF_TIMEOUT_MS = 5_000;
/** The OpenAPI's port (reference §1); mDNS names the real one, so it is only the default. */
export const NANOLEAF_DEFAULT_PORT = 16_021;

export type NanoleafAddress = LanAddress;
export type NanoleafResponse = LanJsonResponse;

const WORDS: LanDeviceWords = {
  kind: 'Nanoleaf controllers',
  brand: 'Nanoleaf',
  device: 'The Nanoleaf controller',
};

/** `HOST`, `HOST:PORT`, `[v6]:PORT` or `http://HOST[:PORT]` → host and port (plain HTTP only). */
export function parseNanoleafAddress(text: string): NanoleafAddress {
  return parseLanAddress(text, NANOLEAF_DEFAULT_PORT, WORDS);
}

/** `http://host:port`, with brackets for IPv6. */
export function nanoleafBaseUrl(address: NanoleafAddress): string {
  return lanBaseUrl(address);
}

export interface NanoleafRequestInit {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  body?: unknown;
  timeoutMs?: number;
  agent?: http.Agent;
}

/** One JSON request with the LAN limits, errors in this device's words (`lan/http-json.ts`). */
export async function nanoleafRequest(url: string, init: NanoleafRequestInit): Promise<NanoleafResponse> {
  return lanJsonRequest(url, { ...init, timeoutMs: init.timeoutMs ?? NANOLEAF_TIMEOUT_MS }, WORDS);
}
