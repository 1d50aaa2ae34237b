import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { answerReadRoute, readBody, reply } from './home-assistant-api.js';
import {
  applyService,
  checkServiceBody,
  HA_FEATURE,
  lightHex,
  newLight,
  stateObject,
  targetIds,
  type HaSimLight,
  type HaSimLightSpec,
} from './home-assistant-lights.js';
import { LAN_SIM_HOST } from './lifx-bulbs.js';

/** The demo's long-lived access token: `/sims/lan/state` names it so `--demo` needs no flag. */
export const HOME_ASSISTANT_DEMO_TOKEN = 'demo-ha-token';
const LOG_LIMIT = 1000;
const { flash, transition, effect } = HA_FEATURE;

/**
 * Six lights of mixed colour modes (reference home-assistant-mqtt-wled.md §1.2): hs, rgb and xy
 * colour lights, a colour-temperature-only ceiling light, a brightness-only dimmer and an rgbw
 * porch light, the one the demo's control route turns unavailable.
 */
export const HOME_ASSISTANT_DEMO_LIGHTS: readonly HaSimLightSpec[] = [
  {
    entityId: 'light.living_room_lamp',
    name: 'Living room lamp',
    area: 'Living room',
    modes: ['color_temp', 'hs'],
    features: effect | flash | transition,
    first: { on: true, brightness: 102, hs: [30, 60] },
  },
  {
    entityId: 'light.kitchen_strip',
    name: 'Kitchen strip',
    area: 'Kitchen',
    modes: ['rgb'],
    features: effect | transition,
    first: { on: true, brightness: 180, hs: [200, 100] },
  },
  {
    entityId: 'light.office_bulb',
    name: 'Office bulb',
    area: 'Office',
    modes: ['color_temp', 'xy'],
    features: flash | transition,
  },
  {
    entityId: 'light.hallway_ceiling',
    name: 'Hallway ceiling',
    area: 'Hallway',
    modes: ['color_temp'],
    features: flash | transition,
    minKelvin: 2200,
    maxKelvin: 6500,
    first: { on: true, brightness: 77, kelvin: 2700 },
  },
  { entityId: 'light.garage_dimmer', name: 'Garage dimmer', area: null, modes: ['brightness'], features: 0 },
  { entityId: 'light.porch', name: 'Porch light', area: 'Outside', modes: ['rgbw'], features: transition },
];
export const HOME_ASSISTANT_DEMO_UNAVAILABLE = 'light.porch';

export interface HomeAssistantSimFault {
  /** Every connection is destroyed unanswered (Home Assistant restarting or gone). */
  down: boolean;
  /** Every answer waits this long (a slow instance, a slow Zigbee network). */
  delayMs: number;
  /** Service calls naming this entity get a 400 (an integration's validation error). */
  rejectEntity: string | null;
}

export interface HomeAssistantSimRequest {
  at: number;
  method: string;
  path: string;
  status: number;
  /** Service calls: the entities named. */
  entityIds: string[];
  body: unknown;
}

export interface HomeAssistantSimLightView {
  entityId: string;
  name: string;
  area: string | null;
  state: 'on' | 'off' | 'unavailable';
  brightness: number;
  hs: [number, number] | null;
  kelvin: number | null;
  hex: string;
  modes: string[];
  lastFlash: string | null;
  lastTransition: number | null;
  /** Service calls that named it, and the most that were in flight at once. */
  calls: number;
  maxInFlight: number;
}

export interface HomeAssistantSimView {
  url: string;
  /** The demo's token (the simulator's own, never a real one). */
  token: string;
  fault: HomeAssistantSimFault;
  lights: HomeAssistantSimLightView[];
  requests: { total: number; unauthorised: number };
}

export interface HomeAssistantSim {
  url: string;
  host: string;
  port: number;
  view(): HomeAssistantSimView;
  light(entityId: string): HomeAssistantSimLightView | undefined;
  requests(): HomeAssistantSimRequest[];
  setFault(fault: Partial<HomeAssistantSimFault>): void;
  /** The next `times` service calls are answered `status` without being applied. */
  failNextServiceCalls(status: number, times?: number): void;
  /** Every token stops working (revoked in the profile): 401 from now on. */
  revokeTokens(): void;
  /** A token that works from now on (a new long-lived token). */
  addToken(token: string): void;
  setUnavailable(entityId: string, unavailable: boolean): boolean;
  reset(): void;
  close(): Promise<void>;
}

export interface HomeAssistantSimOptions {
  port?: number;
  now?: () => number;
  lights?: readonly HaSimLightSpec[];
  token?: string;
}

/** Service calls that named a light: how many, how many in flight now, and the most at once. */
interface CallCount {
  count: number;
  inFlight: number;
  max: number;
}

function viewLight(light: HaSimLight, c: CallCount | undefined): HomeAssistantSimLightView {
  return {
    entityId: light.spec.entityId,
    name: light.spec.name,
    area: light.spec.area,
    state: light.unavailable ? 'unavailable' : light.on ? 'on' : 'off',
    brightness: light.brightness,
    hs: light.hs,
    kelvin: light.kelvin,
    hex: lightHex(light),
    modes: [...light.spec.modes],
    lastFlash: light.lastFlash,
    lastTransition: light.lastTransition,
    calls: c?.count ?? 0,
    maxInFlight: c?.max ?? 0,
  };
}

/** A JSON object body (empty text is `{}`), or null when it is not one. */
function parseJsonObject(text: string): Record<string, unknown> | null {
  try {
    const parsed = JSON.parse(text === '' ? '{}' : text) as unknown;
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return null;
    return parsed as Record<string, unknown>;
  } catch {
    return null;
  }
}

type Send = (status: number, body: unknown, asText?: boolean) => Promise<void>;

interface ServiceCallWorld {
  lights: Map<string, HaSimLight>;
  fault: HomeAssistantSimFault;
  /** Mutated: each failed call takes one of its `times`. */
  failNext: { status: number; times: number } | null;
  callsOf: (id: string) => CallCount;
  now: () => number;
}

/**
 * `POST /api/services/...`: only `light.turn_on` and `light.turn_off`, checked as HA checks them,
 * counted per light while in flight, then failed as the faults say or applied to the lights named.
 */
async function answerServiceCall(
  path: string,
  body: Record<string, unknown>,
  entry: HomeAssistantSimRequest,
  world: ServiceCallWorld,
  send: Send,
): Promise<void> {
  const { lights, fault, failNext, now } = world;
  const service = /^\/api\/services\/light\/(turn_on|turn_off)$/.exec(path)?.[1] as
    'turn_on' | 'turn_off' | undefined;
  if (!service) return send(400, { message: 'Service not found.' });
  let ids: string[];
  try {
    checkServiceBody(service, body);
    ids = targetIds(body);
  } catch (error) {
    return send(400, { message: error instanceof Error ? error.message : 'Invalid' });
  }
  entry.entityIds = ids;
  const counters = ids.map(world.callsOf);
  for (const c of counters) {
    c.count += 1;
    c.inFlight += 1;
    c.max = Math.max(c.max, c.inFlight);
  }
  try {
    if (failNext && failNext.times > 0) {
      failNext.times -= 1;
      return await send(failNext.status, { message: 'Simulated failure' });
    }
    if (fault.rejectEntity !== null && ids.includes(fault.rejectEntity))
      return await send(400, { message: `Failed to set ${fault.rejectEntity}: the device refused it` });
    const changed: unknown[] = [];
    for (const id of ids) {
      const light = lights.get(id);
      // HA only logs an unknown or unavailable entity and answers 200 (reference §1.3).
      if (!light || light.unavailable) continue;
      applyService(light, service, body, now());
      changed.push(stateObject(light));
    }
    return await send(200, changed);
  } finally {
    for (const c of counters) c.inFlight -= 1;
  }
}

/**
 * Home Assistant's REST API for lights on 127.0.0.1 (reference §1): bearer tokens (401 with
 * `401: Unauthorized`), `GET /api/`, `/api/config`, `/api/states[/<id>]`, `POST /api/template`
 * (the area template of §1.6), `POST /api/services/light/turn_on|turn_off` with HA's schema checks
 * (unknown key, two colours, removed mired keys → 400) and conversions (§1.4), answered with the
 * states changed. Faults: down, slow, revoked tokens, an unavailable entity, a rejected entity,
 * failing service calls.
 */
export async function startHomeAssistantSim(
  options: HomeAssistantSimOptions = {},
): Promise<HomeAssistantSim> {
  const now = options.now ?? Date.now;
  const specs = options.lights ?? HOME_ASSISTANT_DEMO_LIGHTS;
  const demoToken = options.token ?? HOME_ASSISTANT_DEMO_TOKEN;
  const tokens = new Set([demoToken]);
  let lights = new Map<string, HaSimLight>(specs.map((s) => [s.entityId, newLight(s, now())]));
  const calls = new Map<string, CallCount>();
  const log: HomeAssistantSimRequest[] = [];
  let fault: HomeAssistantSimFault = { down: false, delayMs: 0, rejectEntity: null };
  let failNext: { status: number; times: number } | null = null;
  let unauthorised = 0;
  let total = 0;
  const sockets = new Set<Socket>();

  const callsOf = (id: string) => {
    let entry = calls.get(id);
    if (!entry) calls.set(id, (entry = { count: 0, inFlight: 0, max: 0 }));
    return entry;
  };

  const server = http.createServer((request, response) => {
    if (fault.down) {
      request.socket.destroy();
      return;
    }
    void handle(request, response).catch(() => {
      if (!response.headersSent) reply(response, 500, { message: 'Internal Server Error' });
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  async function handle(request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
    const method = request.method ?? 'GET';
    const path = (request.url ?? '/').split('?')[0]!;
    const entry: HomeAssistantSimRequest = { at: now(), method, path, status: 0, entityIds: [], body: null };
    total += 1;
    log.push(entry);
    if (log.length > LOG_LIMIT) log.shift();
    const text = method === 'POST' ? await readBody(request) : '';
    const send = async (status: number, body: unknown, asText = false) => {
      entry.status = status;
      if (fault.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, fault.delayMs));
      if (fault.down || response.destroyed) {
        request.socket.destroy();
        return;
      }
      reply(response, status, body, asText);
    };
    const auth = request.headers.authorization ?? '';
    const token = /^Bearer (.+)$/.exec(auth)?.[1];
    if (!token || !tokens.has(token)) {
      unauthorised += 1;
      return send(401, '401: Unauthorized', true);
    }
    let body: Record<string, unknown> = {};
    if (method === 'POST') {
      const parsed = parseJsonObject(text);
      if (!parsed) return send(400, { message: 'Data should be valid JSON.' });
      body = entry.body = parsed;
    }
    const read = answerReadRoute(method, path, body, lights);
    if (read) return send(read.status, read.body, read.text);
    if (method === 'POST' && path.startsWith('/api/services/')) {
      return answerServiceCall(path, body, entry, { lights, fault, failNext, callsOf, now }, send);
    }
    return send(404, { message: 'Not found' });
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, LAN_SIM_HOST, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const url = `http://${LAN_SIM_HOST}:${port}`;

  const lightView = (light: HaSimLight) => viewLight(light, calls.get(light.spec.entityId));

  return {
    url,
    host: LAN_SIM_HOST,
    port,
    view: () => ({
      url,
      token: demoToken,
      fault: { ...fault },
      lights: [...lights.values()].map(lightView),
      requests: { total, unauthorised },
    }),
    light(entityId) {
      const light = lights.get(entityId);
      return light && lightView(light);
    },
    requests: () => [...log],
    setFault(next) {
      fault = { ...fault, ...next };
      if (fault.down) for (const socket of sockets) socket.destroy();
    },
    failNextServiceCalls(status, times = 1) {
      failNext = { status, times };
    },
    revokeTokens: () => tokens.clear(),
    addToken: (token) => void tokens.add(token),
    setUnavailable(entityId, unavailable) {
      const light = lights.get(entityId);
      if (!light) return false;
      light.unavailable = unavailable;
      light.lastChanged = now();
      return true;
    },
    reset() {
      fault = { down: false, delayMs: 0, rejectEntity: null };
      failNext = null;
      tokens.add(demoToken);
      lights = new Map(specs.map((s) => [s.entityId, newLight(s, now())]));
      calls.clear();
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
