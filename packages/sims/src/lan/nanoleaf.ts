import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { hsbToRgb } from '@flaglight/core/color';
import { LAN_SIM_HOST } from './lifx-bulbs.js';

/** Holding the power button 5–7 s opens pairing for about this long (reference §1 "Pairing"). */
export const NANOLEAF_SIM_PAIRING_WINDOW_MS = 30_000;
/** animData's T counts in 100 ms. */
const FRAME_UNIT_MS = 100;
const LOG_LIMIT = 1000;
const CONTROLLER_SHAPE_TYPES = new Set([1, 12, 16, 19, 20]);

export interface NanoleafSimPanel {
  panelId: number;
  x: number;
  y: number;
  o: number;
  shapeType: number;
}

export interface NanoleafSimOptions {
  /** 0 = ephemeral. */
  port?: number;
  now?: () => number;
  name?: string;
  serialNo?: string;
  /** NL42 Shapes by default. */
  model?: string;
  /** LED panels (shapeType 7, Shapes hexagons) behind a controller without LEDs (12); 0 = no `panelLayout` (Essentials). */
  panelCount?: number;
  /** Random draws for packet loss (tests pass a fixed sequence). */
  random?: () => number;
}

export interface NanoleafSimFault {
  /** Share of requests whose connection is dropped unanswered (0–100). */
  dropPercent: number;
  /** Every answer waits this long. */
  delayMs: number;
  /** Every connection is closed at once (the controller left the network). */
  offline: boolean;
}

export interface NanoleafSimRequest {
  at: number;
  method: string;
  /** The path with the token replaced by `<token>`. */
  path: string;
  body: unknown;
  status: number;
}

export interface NanoleafSimEffect {
  animType: string;
  loop: boolean;
  animData: string;
  /** Per listed panel: frames `[r, g, b, t]` (t in 100 ms). */
  frames: Record<number, [number, number, number, number][]>;
  startedAt: number;
  /** `displayTemp`: when the previous look comes back. */
  revertAt: number | null;
}

export interface NanoleafSimView {
  id: string;
  name: string;
  model: string;
  serialNo: string;
  host: string;
  port: number;
  url: string;
  pairing: boolean;
  tokens: number;
  on: boolean;
  brightness: number;
  hue: number;
  sat: number;
  ct: number;
  colorMode: 'hs' | 'ct' | 'effect';
  select: string;
  effect: NanoleafSimEffect | null;
  /** Each LED panel's colour now (`#rrggbb`, brightness applied; black when off or dark). */
  panels: { panelId: number; hex: string }[];
  identifiedAt: number | null;
  fault: NanoleafSimFault;
  requests: { total: number; state: number; effects: number };
}

export interface NanoleafSimDevice {
  /** Lower-case serial number (the driver's light id). */
  id: string;
  host: string;
  port: number;
  url: string;
  /** The "hold the power button 5–7 s" gesture: pairing is open for 30 s. */
  holdButton(): void;
  /** Removes every token (the "wrong token" fault: the next request gets 401). */
  revokeTokens(): void;
  setFault(patch: Partial<NanoleafSimFault>): NanoleafSimFault;
  view(): NanoleafSimView;
  /** Requests after pairing, oldest first. */
  requests(): NanoleafSimRequest[];
  /** Back to the first look, no faults, log cleared; tokens are kept (like a power cycle). */
  reset(): void;
  close(): Promise<void>;
}

type Body = Record<string, unknown>;
const isObject = (v: unknown): v is Body => typeof v === 'object' && v !== null && !Array.isArray(v);

function defaultPanels(count: number): NanoleafSimPanel[] {
  if (count <= 0) return [];
  const controller: NanoleafSimPanel = { panelId: 0, x: 0, y: 0, o: 0, shapeType: 12 };
  const panels = Array.from({ length: count }, (_, k) => ({
    panelId: 1000 + k * 37,
    x: 100 * (k % 4),
    y: 87 * Math.floor(k / 4),
    o: (k % 2) * 180,
    shapeType: 7,
  }));
  return [controller, ...panels];
}

const hex = ([r, g, b]: [number, number, number]) =>
  `#${[r, g, b].map((c) => Math.round(c).toString(16).padStart(2, '0')).join('')}`;

/**
 * Parses animData strictly (reference §1 "Effect writes"): `numPanels`, then per panel `panelId
 * numFrames` and per frame `R G B W T`, integers only, colours 0–255, every panel id one of this
 * device's LED panels, nothing left over. Returns the frames or the reason it is refused.
 */
export function parseAnimData(
  text: unknown,
  ledIds: ReadonlySet<number>,
): { ok: true; frames: NanoleafSimEffect['frames'] } | { ok: false; error: string } {
  if (typeof text !== 'string' || text.trim() === '')
    return { ok: false, error: 'animData must be a string' };
  const tokens = text.trim().split(/\s+/);
  if (!tokens.every((t) => /^\d+$/.test(t))) return { ok: false, error: 'animData holds only whole numbers' };
  const numbers = tokens.map(Number);
  let at = 0;
  const next = () => numbers[at++];
  const count = next()!;
  if (count < 1) return { ok: false, error: 'animData lists no panel' };
  const frames: NanoleafSimEffect['frames'] = {};
  for (let p = 0; p < count; p += 1) {
    const panelId = next();
    const frameCount = next();
    if (panelId === undefined || frameCount === undefined) return { ok: false, error: 'animData ends early' };
    if (!ledIds.has(panelId))
      return { ok: false, error: `animData names panel ${panelId}, which has no LEDs here` };
    if (frameCount < 1) return { ok: false, error: `panel ${panelId} has no frame` };
    const list: [number, number, number, number][] = [];
    for (let f = 0; f < frameCount; f += 1) {
      const [r, g, b, w, t] = [next(), next(), next(), next(), next()];
      if (t === undefined || w === undefined || r === undefined || g === undefined || b === undefined)
        return { ok: false, error: 'animData ends early' };
      if ([r, g, b, w].some((c) => c > 255)) return { ok: false, error: 'animData colours are 0-255' };
      list.push([r, g, b, t]);
    }
    frames[panelId] = list;
  }
  if (at !== numbers.length) return { ok: false, error: 'animData has numbers left over' };
  return { ok: true, frames };
}

/** A panel's frame at `elapsedMs` into the effect (looping or holding the last frame). */
function frameAt(frames: [number, number, number, number][], elapsedMs: number, loop: boolean) {
  const total = frames.reduce((sum, f) => sum + f[3] * FRAME_UNIT_MS, 0);
  if (total <= 0) return frames.at(-1)!;
  if (!loop && elapsedMs >= total) return frames.at(-1)!;
  let t = loop ? elapsedMs % total : elapsedMs;
  for (const frame of frames) {
    t -= frame[3] * FRAME_UNIT_MS;
    if (t < 0) return frame;
  }
  return frames.at(-1)!;
}

/**
 * A Nanoleaf controller on the LAN (reference §1, §3): its OpenAPI over plain HTTP on 127.0.0.1,
 * pairing by the power-button gesture (a control hook), several tokens, `/state` with ranges,
 * `/effects` with strictly parsed animData played on a virtual clock, `/identify`, and faults:
 * dropped connections, a slow answer, offline. Not simulated: extControl streaming and events.
 */
export async function startNanoleafSim(options: NanoleafSimOptions = {}): Promise<NanoleafSimDevice> {
  const now = options.now ?? Date.now;
  const random = options.random ?? Math.random;
  const serialNo = options.serialNo ?? `S${crypto.randomBytes(5).toString('hex').toUpperCase()}`;
  const name = options.name ?? 'Shapes 4A1B';
  const model = options.model ?? 'NL42';
  const layout = defaultPanels(options.panelCount ?? 7);
  const hasLayout = layout.length > 0;
  const ledIds = new Set(
    layout.filter((p) => !CONTROLLER_SHAPE_TYPES.has(p.shapeType)).map((p) => p.panelId),
  );
  const tokens = new Set<string>();
  let pairingUntil = -Infinity;
  let fault: NanoleafSimFault = { dropPercent: 0, delayMs: 0, offline: false };
  let log: NanoleafSimRequest[] = [];
  let counts = { total: 0, state: 0, effects: 0 };
  let identifiedAt: number | null = null;

  interface Look {
    on: boolean;
    brightness: number;
    hue: number;
    sat: number;
    ct: number;
    colorMode: 'hs' | 'ct' | 'effect';
    select: string;
    effect: NanoleafSimEffect | null;
    /** A brightness write with `duration`: the level ramps from `from` to `brightness`. */
    ramp: { from: number; at: number; ms: number } | null;
  }
  const firstLook = (): Look => ({
    on: true,
    brightness: 60,
    hue: 40,
    sat: 30,
    ct: 4000,
    colorMode: 'hs',
    select: '*Solid*',
    effect: null,
    ramp: null,
  });
  let look = firstLook();
  let beforeTemp: Look | null = null;
  const effectsList = ['Northern Lights', 'Flames', 'Forest'];

  /** A `displayTemp` effect reverts once its duration has passed (checked on every read). */
  const current = (): Look => {
    if (look.effect?.revertAt != null && now() >= look.effect.revertAt && beforeTemp) {
      look = beforeTemp;
      beforeTemp = null;
    }
    return look;
  };

  /** The brightness shown now: part way along a ramp, else the last value written. */
  const shownBrightness = (l: Look) => {
    if (!l.ramp || now() >= l.ramp.at + l.ramp.ms) return l.brightness;
    const part = (now() - l.ramp.at) / l.ramp.ms;
    return Math.round(l.ramp.from + (l.brightness - l.ramp.from) * part);
  };

  const panelColors = () => {
    const l = current();
    const scale = l.on ? shownBrightness(l) / 100 : 0;
    return [...ledIds].map((panelId) => {
      let rgb: [number, number, number];
      if (l.colorMode === 'effect' && l.effect) {
        const frames = l.effect.frames[panelId];
        const frame = frames
          ? frameAt(frames, now() - l.effect.startedAt, l.effect.loop)
          : ([0, 0, 0, 0] as const);
        rgb = [frame[0] * scale, frame[1] * scale, frame[2] * scale];
      } else {
        const sat = l.colorMode === 'ct' ? 0 : l.sat / 100;
        const c = hsbToRgb({ hue: l.hue, saturation: sat, brightness: scale });
        rgb = [c.r, c.g, c.b];
      }
      return { panelId, hex: hex(rgb) };
    });
  };

  const describe = () => {
    const l = current();
    return {
      name,
      serialNo,
      manufacturer: 'Nanoleaf',
      firmwareVersion: '9.2.4',
      hardwareVersion: '1.2-4',
      model,
      state: {
        on: { value: l.on },
        brightness: { value: shownBrightness(l), max: 100, min: 0 },
        hue: { value: l.hue, max: 360, min: 0 },
        sat: { value: l.sat, max: 100, min: 0 },
        ct: { value: l.ct, max: 6500, min: 1200 },
        colorMode: l.colorMode,
      },
      effects: { select: l.select, effectsList: [...effectsList] },
      ...(hasLayout
        ? {
            panelLayout: {
              layout: {
                numPanels: layout.length,
                sideLength: 100,
                positionData: layout.map((p) => ({ ...p })),
              },
              globalOrientation: { value: 0, max: 360, min: 0 },
            },
          }
        : {}),
    };
  };

  const RANGES: Record<string, [number, number]> = {
    brightness: [0, 100],
    hue: [0, 360],
    sat: [0, 100],
    ct: [1200, 6500],
  };

  /** `PUT /state` (reference §1 "REST"): every key checked before any is applied. */
  function applyState(body: unknown): string | null {
    if (!isObject(body) || Object.keys(body).length === 0)
      return 'the body must be a JSON object of state keys';
    const next = { ...current() };
    let colour: 'hs' | 'ct' | null = null;
    for (const [key, raw] of Object.entries(body)) {
      if (!isObject(raw)) return `"${key}" must be an object such as {"value": …}`;
      if (key === 'on') {
        if (typeof raw.value !== 'boolean') return '"on.value" must be true or false';
        next.on = raw.value;
        continue;
      }
      const range = RANGES[key];
      if (!range) return `unknown state key "${key}"`;
      const [min, max] = range;
      const field = key as 'brightness' | 'hue' | 'sat' | 'ct';
      let value: number;
      if (raw.value !== undefined) {
        if (typeof raw.value !== 'number' || !Number.isInteger(raw.value))
          return `"${key}.value" must be a whole number`;
        if (raw.value < min || raw.value > max) return `"${key}.value" must be ${min}-${max}`;
        value = raw.value;
      } else if (raw.increment !== undefined) {
        if (typeof raw.increment !== 'number' || !Number.isInteger(raw.increment))
          return `"${key}.increment" must be a whole number`;
        value = Math.min(max, Math.max(min, next[field] + raw.increment));
      } else return `"${key}" needs "value" or "increment"`;
      if (
        raw.duration !== undefined &&
        (key !== 'brightness' || typeof raw.duration !== 'number' || raw.duration < 0)
      )
        return '"duration" is a number of seconds, for brightness only';
      if (key === 'brightness') {
        const seconds = typeof raw.duration === 'number' ? raw.duration : 0;
        next.ramp = seconds > 0 ? { from: shownBrightness(current()), at: now(), ms: seconds * 1000 } : null;
      }
      next[field] = value;
      // Brightness turns a light on, as on the device.
      if (key === 'brightness' && body.on === undefined && value > 0) next.on = true;
      if (key === 'hue' || key === 'sat') colour = 'hs';
      if (key === 'ct') colour = 'ct';
    }
    if (colour) {
      next.colorMode = colour;
      next.select = '*Solid*';
      next.effect = null;
      beforeTemp = null;
    }
    look = next;
    return null;
  }

  /** `PUT /effects`: `select` of a saved effect, or a `write` (reference §1 "Effect writes"). */
  function applyEffects(body: unknown): { status: number; error?: string; answer?: unknown } {
    if (!isObject(body)) return { status: 400, error: 'the body must be a JSON object' };
    if (typeof body.select === 'string') {
      if (!effectsList.includes(body.select)) return { status: 404, error: `no effect "${body.select}"` };
      look = { ...current(), colorMode: 'effect', select: body.select, effect: null, on: true };
      return { status: 204 };
    }
    const write = body.write;
    if (!isObject(write)) return { status: 400, error: 'send {"select": name} or {"write": {...}}' };
    const { command, animType } = write;
    if (command === 'requestAll')
      return { status: 200, answer: { animations: effectsList.map((animName) => ({ animName })) } };
    if (command !== 'display' && command !== 'displayTemp' && command !== 'add')
      return { status: 400, error: 'write.command must be display, displayTemp, add or requestAll' };
    if (animType !== 'static' && animType !== 'custom')
      return { status: 400, error: 'write.animType: this simulator plays static and custom effects' };
    if (!hasLayout) return { status: 400, error: 'this device has no panels for animData' };
    if (write.loop !== undefined && typeof write.loop !== 'boolean')
      return { status: 400, error: 'write.loop must be true or false' };
    if (write.palette !== undefined && !Array.isArray(write.palette))
      return { status: 400, error: 'write.palette must be a list' };
    const parsed = parseAnimData(write.animData, ledIds);
    if (!parsed.ok) return { status: 400, error: parsed.error };
    if (command === 'add') {
      if (typeof write.animName !== 'string' || write.animName === '')
        return { status: 400, error: 'add needs an animName' };
      if (!effectsList.includes(write.animName)) effectsList.push(write.animName);
      return { status: 204 };
    }
    let revertAt: number | null = null;
    if (command === 'displayTemp') {
      if (typeof write.duration !== 'number' || write.duration <= 0)
        return { status: 400, error: 'displayTemp needs a duration in seconds' };
      revertAt = now() + write.duration * 1000;
      beforeTemp = { ...current() };
    } else beforeTemp = null;
    const loop = write.loop === true;
    look = {
      ...current(),
      on: true,
      colorMode: 'effect',
      select: animType === 'static' ? '*Static*' : '*Dynamic*',
      effect: {
        animType,
        loop,
        animData: String(write.animData),
        frames: parsed.frames,
        startedAt: now(),
        revertAt,
      },
    };
    return { status: 204 };
  }

  /** GET of a leaf (reference §1: "GET any leaf"): `/state/brightness`, `/effects/select`… */
  function leaf(path: string[]): unknown {
    let node: unknown = describe();
    for (const part of path) {
      if (!isObject(node) || !(part in node)) return undefined;
      node = node[part];
    }
    return node;
  }

  const server = http.createServer((request, response) => {
    if (fault.offline || (fault.dropPercent > 0 && random() * 100 < fault.dropPercent)) {
      request.socket.destroy();
      return;
    }
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const answer = () => {
        if (fault.offline) {
          request.socket.destroy();
          return;
        }
        handle(request, Buffer.concat(chunks).toString('utf8'), response);
      };
      if (fault.delayMs > 0) setTimeout(answer, fault.delayMs);
      else answer();
    });
  });
  server.keepAliveTimeout = 5_000;

  function reply(response: http.ServerResponse, status: number, body?: unknown): number {
    if (body === undefined) response.writeHead(status).end();
    else {
      const text = JSON.stringify(body);
      response.writeHead(status, { 'content-type': 'application/json' }).end(text);
    }
    return status;
  }

  function handle(request: http.IncomingMessage, text: string, response: http.ServerResponse): void {
    const method = request.method ?? 'GET';
    const path = (request.url ?? '/').split('?')[0]!;
    const parts = path.split('/').filter(Boolean);
    if (parts[0] !== 'api' || parts[1] !== 'v1' || parts.length < 3) {
      reply(response, 404);
      return;
    }
    if (parts[2] === 'new' && parts.length === 3) {
      if (method !== 'POST') return void reply(response, 405);
      if (now() > pairingUntil) return void reply(response, 403);
      const token = crypto
        .randomBytes(24)
        .toString('base64')
        .replace(/[^A-Za-z0-9]/g, '')
        .slice(0, 32)
        .padEnd(32, 'x');
      tokens.add(token);
      return void reply(response, 200, { auth_token: token });
    }
    const token = parts[2]!;
    if (!tokens.has(token)) return void reply(response, 401);
    const rest = parts.slice(3);
    let body: unknown = undefined;
    if (text !== '') {
      try {
        body = JSON.parse(text) as unknown;
      } catch {
        body = Symbol.for('malformed');
      }
    }
    const record = (status: number) => {
      log.push({
        at: now(),
        method,
        path: `/api/v1/<token>${rest.length ? `/${rest.join('/')}` : '/'}`,
        body,
        status,
      });
      if (log.length > LOG_LIMIT) log.splice(0, log.length - LOG_LIMIT);
      return status;
    };
    if (method === 'DELETE' && rest.length === 0) {
      tokens.delete(token);
      record(reply(response, 204));
      return;
    }
    if (method === 'GET') {
      const value = leaf(rest);
      record(value === undefined ? reply(response, 404) : reply(response, 200, value));
      return;
    }
    if (method !== 'PUT' || rest.length !== 1) {
      record(reply(response, 404));
      return;
    }
    counts.total += 1;
    if (typeof body === 'symbol') {
      record(reply(response, 400, { error: 'malformed JSON' }));
      return;
    }
    switch (rest[0]) {
      case 'state': {
        counts.state += 1;
        const error = applyState(body);
        record(error ? reply(response, 400, { error }) : reply(response, 204));
        return;
      }
      case 'effects': {
        counts.effects += 1;
        const result = applyEffects(body);
        record(
          result.error
            ? reply(response, result.status, { error: result.error })
            : reply(response, result.status, result.answer),
        );
        return;
      }
      case 'identify':
        identifiedAt = now();
        record(reply(response, 204));
        return;
      default:
        record(reply(response, 404));
    }
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, LAN_SIM_HOST, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://${LAN_SIM_HOST}:${port}`;
  const id = serialNo.toLowerCase();

  return {
    id,
    host: LAN_SIM_HOST,
    port,
    url,
    holdButton() {
      pairingUntil = now() + NANOLEAF_SIM_PAIRING_WINDOW_MS;
    },
    revokeTokens: () => tokens.clear(),
    setFault(patch) {
      fault = { ...fault, ...patch };
      // Connections kept alive from before must not carry on past "offline".
      if (fault.offline) server.closeIdleConnections();
      return { ...fault };
    },
    view() {
      const l = current();
      return {
        id,
        name,
        model,
        serialNo,
        host: LAN_SIM_HOST,
        port,
        url,
        pairing: now() <= pairingUntil,
        tokens: tokens.size,
        on: l.on,
        brightness: shownBrightness(l),
        hue: l.hue,
        sat: l.sat,
        ct: l.ct,
        colorMode: l.colorMode,
        select: l.select,
        effect: l.effect,
        panels: panelColors(),
        identifiedAt,
        fault: { ...fault },
        requests: { ...counts },
      };
    },
    requests: () => [...log],
    reset() {
      look = firstLook();
      beforeTemp = null;
      fault = { dropPercent: 0, delayMs: 0, offline: false };
      log = [];
      counts = { total: 0, state: 0, effects: 0 };
      pairingUntil = -Infinity;
      identifiedAt = null;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
