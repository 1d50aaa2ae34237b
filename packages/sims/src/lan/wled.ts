import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { LAN_SIM_HOST } from './lifx-bulbs.js';
import { WLED_SIM_EFFECTS } from './wled-effects.js';
import {
  applyWledState,
  firstWledState,
  wledHexNow,
  type WledSimFirst,
  type WledSimState,
} from './wled-light.js';

export type { WledSimSegment, WledSimState } from './wled-light.js';

const LOG_LIMIT = 1000;

export interface WledSimOptions {
  /** 0 = ephemeral. */
  port?: number;
  now?: () => number;
  name?: string;
  /** 12 hex digits; the driver's light id. */
  mac?: string;
  ledCount?: number;
  /** RGBW strip (`leds.lc` 3): colours take a fourth, white channel. */
  white?: boolean;
  version?: string;
  /** `GET /json/effects`; default WLED 0.15's 187 names. */
  effects?: readonly string[];
  /** Its first look where it is not amber at half brightness. */
  first?: WledSimFirst;
}

export interface WledSimFault {
  /** Every connection is closed at once (the device left the network). */
  offline: boolean;
  /** Every answer waits this long (an ESP8266 busy with its LEDs). */
  delayMs: number;
  /** Every `POST /json/state` gets 503 `{"error":3}` + `Retry-After: 1` unapplied (WLED 0.15 busy). */
  busy: boolean;
  /** The next this many state writes get that 503. */
  failNext: number;
  /** `GET /json/info` streams without end (something else answering in the device's place). */
  endless: boolean;
  /**
   * `GET /json/info` (and `/json`, `/json/si`) names this MAC instead of its own: another device
   * claiming to be that one (null: its own).
   */
  mac: string | null;
}

export interface WledSimRequest {
  at: number;
  method: string;
  path: string;
  body: unknown;
  status: number;
}

export interface WledSimView {
  id: string;
  name: string;
  host: string;
  port: number;
  url: string;
  state: WledSimState;
  /** The effect running, by name. */
  effect: string;
  /** The first LED's colour now (`#rrggbb`, `bri` applied, black when off); Blink/Strobe on the clock. */
  hex: string;
  fault: WledSimFault;
  requests: { total: number; writes: number; maxConcurrent: number };
}

export interface WledSimDevice {
  id: string;
  host: string;
  port: number;
  url: string;
  setFault(patch: Partial<WledSimFault>): WledSimFault;
  view(): WledSimView;
  requests(): WledSimRequest[];
  /** Back to the first look, no faults, log cleared (a power cycle). */
  reset(): void;
  close(): Promise<void>;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const NO_FAULT: WledSimFault = {
  offline: false,
  delayMs: 0,
  busy: false,
  failNext: 0,
  endless: false,
  mac: null,
};

/** Answers JSON, or HTML when `body` is a string; returns the status for the log. */
function reply(
  response: http.ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  const type = typeof body === 'string' ? 'text/html' : 'application/json';
  response
    .writeHead(status, { 'content-type': type, 'access-control-allow-origin': '*', ...headers })
    .end(text);
  return status;
}

/** A 200 that never ends: the client must stop reading. */
function streamWithoutEnd(response: http.ServerResponse): void {
  response.writeHead(200, { 'content-type': 'application/json' });
  const chunk = Buffer.alloc(64 * 1024, 0x20);
  const more = () => {
    while (!response.destroyed && response.write(chunk));
    if (!response.destroyed) response.once('drain', more);
  };
  more();
}

interface WledInfoOf {
  version: string | undefined;
  ledCount: number;
  white: boolean;
  name: string;
  effects: readonly string[];
  startedAt: number;
  now: number;
  mac: string;
}

/** `GET /json/info`: what the device says about itself. */
function wledInfo(device: WledInfoOf) {
  return {
    ver: device.version ?? '0.15.3',
    vid: 2411250,
    leds: { count: device.ledCount, lc: device.white ? 3 : 1, rgbw: device.white, fps: 42, maxpwr: 850 },
    name: device.name,
    udpport: 21324,
    live: false,
    fxcount: device.effects.length,
    palcount: 71,
    arch: 'esp32',
    freeheap: 180_000,
    uptime: Math.floor((device.now - device.startedAt) / 1000),
    mac: device.mac,
    ip: LAN_SIM_HOST,
  };
}

const NOT_FOUND_PAGE = '<!DOCTYPE html><title>Not found</title>';

interface WledReadable {
  state: WledSimState;
  info: () => ReturnType<typeof wledInfo>;
  effects: readonly string[];
  /** The endless-info fault is on. */
  endless: boolean;
}

/** A `GET`: the JSON API's reads, 501 for another `/json/*`, the 404 page elsewhere. */
function answerWledRead(response: http.ServerResponse, path: string, device: WledReadable): number {
  const { state, info, effects } = device;
  if (path === '/json/info' && device.endless) {
    streamWithoutEnd(response);
    return 200;
  }
  switch (path) {
    case '/json':
      return reply(response, 200, { state, info: info(), effects, palettes: ['Default'] });
    case '/json/state':
      return reply(response, 200, state);
    case '/json/info':
      return reply(response, 200, info());
    case '/json/si':
      return reply(response, 200, { state, info: info() });
    case '/json/eff':
    case '/json/effects':
      return reply(response, 200, effects);
    case '/json/pal':
    case '/json/palettes':
      return reply(response, 200, ['Default', '* Random Cycle', '* Color 1']);
  }
  if (path.startsWith('/json/')) return reply(response, 501, { error: 4 });
  return reply(response, 404, NOT_FOUND_PAGE);
}

interface WledWritable {
  fault: WledSimFault;
  counts: { writes: number };
  /** Applies a state body; an error text when a key is out of range (nothing applied). */
  apply: (body: unknown) => string | null;
  /** The state after the write. */
  state: () => WledSimState;
}

/** Anything but a `GET`: a JSON `POST /json/state` (`/json/si`) is a write, the rest the 404 page. */
function answerWledWrite(
  request: http.IncomingMessage,
  path: string,
  text: string,
  response: http.ServerResponse,
  device: WledWritable,
): number {
  const { fault } = device;
  if (request.method !== 'POST' || (path !== '/json/state' && path !== '/json/si'))
    return reply(response, 404, NOT_FOUND_PAGE);
  if (!/^application\/json\s*(;|$)/i.test(request.headers['content-type'] ?? ''))
    return reply(response, 404, NOT_FOUND_PAGE);
  device.counts.writes += 1;
  if (fault.busy || fault.failNext > 0) {
    if (fault.failNext > 0) fault.failNext -= 1;
    return reply(response, 503, { error: 3 }, { 'retry-after': '1' });
  }
  let body: unknown;
  try {
    body = JSON.parse(text) as unknown;
  } catch {
    return reply(response, 400, { error: 9 });
  }
  const error = device.apply(body);
  if (error) return reply(response, 400, { error: 9, message: error });
  return reply(response, 200, isObject(body) && body.v === true ? device.state() : { success: true });
}

/**
 * A WLED device on the LAN (reference home-assistant-mqtt-wled.md §3): its JSON API over plain HTTP
 * on 127.0.0.1: `GET /json`, `/json/state`, `/json/info`, `/json/si`, `/json/effects` (`/json/eff`),
 * `/json/palettes`; `POST /json/state` (`/json/si`) with `application/json` only (else the 404
 * page), `on`, `bri`, `transition`, `tt`, `seg` as an object (the selected segment) or an array;
 * bad JSON 400 `{"error":9}`, another `/json/*` 501 `{"error":4}`. Blink and Strobe play on the
 * `now` clock. Faults: offline, slow, busy (503), an endless info answer, another device's MAC.
 */
export async function startWledSim(options: WledSimOptions = {}): Promise<WledSimDevice> {
  const now = options.now ?? Date.now;
  const mac = (options.mac ?? 'a0b765000001').toLowerCase();
  const name = options.name ?? 'WLED';
  const ledCount = options.ledCount ?? 60;
  const white = options.white ?? false;
  const effects = [...(options.effects ?? WLED_SIM_EFFECTS)];
  const startedAt = now();
  const firstState = () => firstWledState(ledCount, white, options.first);
  let state = firstState();
  let fxStartedAt = now();
  let fault: WledSimFault = { ...NO_FAULT };
  let log: WledSimRequest[] = [];
  let counts = { total: 0, writes: 0, maxConcurrent: 0 };
  let active = 0;

  const info = () =>
    wledInfo({
      version: options.version,
      ledCount,
      white,
      name,
      effects,
      startedAt,
      now: now(),
      mac: fault.mac ?? mac,
    });

  /** Applies a `POST /json/state` body; an error text when a key is out of range (nothing applied). */
  function apply(body: unknown): string | null {
    const applied = applyWledState(state, body, {
      effects,
      white,
      restartEffect: () => (fxStartedAt = now()),
    });
    if ('error' in applied) return applied.error;
    state = applied.state;
    return null;
  }

  function handle(request: http.IncomingMessage, text: string, response: http.ServerResponse): number {
    const path = (request.url ?? '/').split('?')[0]!.replace(/\/+$/, '');
    if ((request.method ?? 'GET') === 'GET') {
      return answerWledRead(response, path, { state, info, effects, endless: fault.endless });
    }
    return answerWledWrite(request, path, text, response, { fault, counts, apply, state: () => state });
  }

  const server = http.createServer((request, response) => {
    if (fault.offline) {
      request.socket.destroy();
      return;
    }
    active += 1;
    counts.total += 1;
    counts.maxConcurrent = Math.max(counts.maxConcurrent, active);
    response.once('close', () => (active -= 1));
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const answer = () => {
        if (fault.offline) {
          request.socket.destroy();
          return;
        }
        const text = Buffer.concat(chunks).toString('utf8');
        let body: unknown = text === '' ? undefined : text;
        try {
          body = text === '' ? undefined : (JSON.parse(text) as unknown);
        } catch {
          // Logged as sent.
        }
        const status = handle(request, text, response);
        log.push({ at: now(), method: request.method ?? 'GET', path: request.url ?? '/', body, status });
        if (log.length > LOG_LIMIT) log.splice(0, log.length - LOG_LIMIT);
      };
      if (fault.delayMs > 0) setTimeout(answer, fault.delayMs);
      else answer();
    });
  });
  server.keepAliveTimeout = 5_000;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, LAN_SIM_HOST, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://${LAN_SIM_HOST}:${port}`;

  return {
    id: mac,
    host: LAN_SIM_HOST,
    port,
    url,
    setFault(patch) {
      fault = { ...fault, ...patch };
      // Connections kept alive from before must not carry on past "offline".
      if (fault.offline) server.closeIdleConnections();
      return { ...fault };
    },
    view: () => ({
      id: mac,
      name,
      host: LAN_SIM_HOST,
      port,
      url,
      state: structuredClone(state),
      effect: effects[state.seg[0]!.fx] ?? 'Solid',
      hex: wledHexNow(state, effects, now() - fxStartedAt),
      fault: { ...fault },
      requests: { ...counts },
    }),
    requests: () => [...log],
    reset() {
      state = firstState();
      fault = { ...NO_FAULT };
      log = [];
      counts = { total: 0, writes: 0, maxConcurrent: 0 };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
