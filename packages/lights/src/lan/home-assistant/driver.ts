import type http from 'node:http';
import {
  DriverEvents,
  type DriverListener,
  type LightDeviceInfo,
  type LightDriver,
  type LightStateCommand,
} from '../../driver.js';
import { LightError } from '../../errors.js';
import { systemTimers, type Timers } from '../../timers.js';
import {
  createHomeAssistantAgent,
  HOME_ASSISTANT_BANNED,
  HOME_ASSISTANT_TOKEN_REFUSED,
  homeAssistantMessage,
  homeAssistantRequest,
  isHomeAssistantToken,
  type HomeAssistantAnswer,
} from './http.js';
import {
  describeModes,
  HOME_ASSISTANT_AREA_TEMPLATE,
  homeAssistantCall,
  parseHomeAssistantAreas,
  parseHomeAssistantLights,
  type HomeAssistantCall,
  type HomeAssistantLight,
} from './looks.js';

/**
 * At most one call per entity in this long: a Zigbee bulb takes a few commands a second, and HA
 * answers a call only once the device did (reference §1.8). Also the strobe's shortest half period.
 */
export const HOME_ASSISTANT_PACE_MS = 400;
/** Home Assistant is asked again after this long when it stopped answering, doubling up to the max. */
export const HOME_ASSISTANT_PROBE_MS = 2_000;
export const HOME_ASSISTANT_PROBE_MAX_MS = 30_000;
/** The states are read again this often: an entity that became unavailable (or came back) shows. */
export const HOME_ASSISTANT_REFRESH_MS = 10_000;

export type HomeAssistantConnection = 'connecting' | 'connected' | 'unreachable' | 'token-refused' | 'closed';

export interface HomeAssistantDriverOptions {
  /** The instance's base URL (`parseHomeAssistantUrl`). */
  url: string;
  token: string;
  /** Accept a self-signed HTTPS certificate (`--home-assistant-insecure`). */
  insecure?: boolean;
  timers?: Timers;
  timeoutMs?: number;
  paceMs?: number;
  probeMs?: number;
  probeMaxMs?: number;
  /** 0 = never (tests that read on demand). */
  refreshMs?: number;
  onLog?: (message: string) => void;
}

export interface HomeAssistantEntityError {
  entityId: string;
  name: string;
  message: string;
}

export interface HomeAssistantDriver extends LightDriver {
  readonly provider: 'home_assistant';
  /** Checks the token (`GET /api/`), reads the lights and their areas. */
  connect(): Promise<LightDeviceInfo[]>;
  discover(): Promise<LightDeviceInfo[]>;
  connection(): HomeAssistantConnection;
  /** Why it is not connected, in words (never the token). */
  problem(): string | null;
  lights(): HomeAssistantLight[];
  /** Entities whose last call HA refused (400, 5xx): named, while the others go on. */
  entityErrors(): HomeAssistantEntityError[];
  close(): Promise<void>;
}

interface Slot {
  inFlight: boolean;
  next: { call: HomeAssistantCall; done: () => void } | null;
  lastStartMs: number;
  timer: unknown;
}

const CLOSED = 'This Home Assistant driver is closed';

/**
 * Home Assistant's lights (provider `home_assistant`) over its REST API, one light per `light.*`
 * entity. A look is one `light.turn_on`/`turn_off` call per entity; strobes are expanded by the
 * player at 400 ms halves. Each entity has one call in flight at most, 400 ms apart, and only its
 * newest look waits behind it. A time-out or refused connection marks Home Assistant unreachable:
 * it is asked again after 2 s (doubling to 30 s) and every entity gets its last look when it
 * answers; an entity that turns `unavailable` gets its last look when it comes back. A 401 (or 403)
 * stops the driver: a new token is needed. A 400 or 5xx for one entity is reported with its name.
 */
export function createHomeAssistantDriver(options: HomeAssistantDriverOptions): HomeAssistantDriver {
  const timers = options.timers ?? systemTimers;
  const log = options.onLog ?? (() => undefined);
  const paceMs = options.paceMs ?? HOME_ASSISTANT_PACE_MS;
  const probeMs = options.probeMs ?? HOME_ASSISTANT_PROBE_MS;
  const probeMaxMs = options.probeMaxMs ?? HOME_ASSISTANT_PROBE_MAX_MS;
  const refreshMs = options.refreshMs ?? HOME_ASSISTANT_REFRESH_MS;
  if (!isHomeAssistantToken(options.token))
    throw new LightError('bad-request', 'A Home Assistant access token is printable text without spaces');
  const events = new DriverEvents();
  const agent: http.Agent = createHomeAssistantAgent(options.url, options.insecure ?? false);
  const slots = new Map<string, Slot>();
  const lastLooks = new Map<string, LightStateCommand>();
  const errors = new Map<string, HomeAssistantEntityError>();
  let lights = new Map<string, HomeAssistantLight>();
  let state: HomeAssistantConnection = 'connecting';
  let problem: string | null = null;
  let connecting: Promise<LightDeviceInfo[]> | null = null;
  let probeTimer: unknown = null;
  let refreshTimer: unknown = null;
  let nextProbeMs = probeMs;
  let read = false;

  const usable = () => state === 'connected' || state === 'connecting';

  const request = (init: { method: 'GET' | 'POST'; path: string; body?: unknown }) =>
    homeAssistantRequest(options.url, options.token, {
      ...init,
      agent,
      ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    });

  function ensureUsable(): void {
    if (state === 'closed') throw new LightError('not-configured', CLOSED);
    if (state === 'token-refused') throw new LightError('auth', problem ?? HOME_ASSISTANT_TOKEN_REFUSED, 401);
  }

  /** 401/403 on any call: nothing more is sent with this token. */
  function refused(status: number): void {
    if (state === 'token-refused' || state === 'closed') return;
    state = 'token-refused';
    problem = status === 403 ? HOME_ASSISTANT_BANNED : HOME_ASSISTANT_TOKEN_REFUSED;
    stopTimers();
    dropQueued();
    log(`Home Assistant: ${problem}`);
    events.emit({ type: 'disconnect', error: { kind: 'auth', message: problem } });
  }

  function unreachable(error: LightError): void {
    if (state === 'closed' || state === 'token-refused') return;
    problem = `Home Assistant is not answering (${error.message})`;
    dropQueued();
    if (state !== 'unreachable') {
      state = 'unreachable';
      nextProbeMs = probeMs;
      log(problem);
      events.emit({ type: 'error', error: { kind: error.kind, message: problem } });
    }
    scheduleProbe();
  }

  function scheduleProbe(): void {
    if (probeTimer !== null || state !== 'unreachable') return;
    probeTimer = timers.setTimeout(() => {
      probeTimer = null;
      void connect().catch(() => undefined);
    }, nextProbeMs);
    nextProbeMs = Math.min(probeMaxMs, nextProbeMs * 2);
  }

  function scheduleRefresh(): void {
    if (refreshMs <= 0 || refreshTimer !== null || state !== 'connected') return;
    refreshTimer = timers.setTimeout(() => {
      refreshTimer = null;
      void connect().catch(() => undefined);
    }, refreshMs);
  }

  function stopTimers(): void {
    timers.clearTimeout(probeTimer);
    timers.clearTimeout(refreshTimer);
    probeTimer = refreshTimer = null;
  }

  function dropQueued(): void {
    for (const slot of slots.values()) {
      timers.clearTimeout(slot.timer);
      slot.timer = null;
      const waiting = slot.next;
      slot.next = null;
      waiting?.done();
    }
  }

  /** A new list of lights: the ones that came back (or Home Assistant itself) get their last look. */
  function took(next: HomeAssistantLight[], areas: Map<string, string>): void {
    const before = lights;
    const wasUp = state === 'connected';
    lights = new Map(next.map((l) => [l.entityId, { ...l, area: areas.get(l.entityId) ?? null }]));
    state = 'connected';
    problem = null;
    nextProbeMs = probeMs;
    if (!wasUp && read) log('Home Assistant answers again');
    for (const light of lights.values()) {
      const old = before.get(light.entityId);
      if (old && old.available && !light.available) {
        const message = `Home Assistant: ${light.name} is unavailable (its device is not answering Home Assistant)`;
        log(message);
        events.emit({ type: 'warning', message });
      }
      const back = (!wasUp && read) || (old !== undefined && !old.available);
      const look = lastLooks.get(light.entityId);
      if (back && light.available && look) void submit(light, look);
    }
    read = true;
  }

  async function readLights(): Promise<void> {
    const check = await request({ method: 'GET', path: '/api/' });
    if (check.status === 401 || check.status === 403) return refused(check.status);
    if (check.status !== 200) throw answerError(check, 'GET /api/');
    const states = await request({ method: 'GET', path: '/api/states' });
    if (states.status === 401 || states.status === 403) return refused(states.status);
    if (states.status !== 200) throw answerError(states, 'GET /api/states');
    const found = parseHomeAssistantLights(states.body);
    let areas = new Map<string, string>();
    // Areas need an administrator's token: without one (401 here only) the lights have none.
    const template = await request({
      method: 'POST',
      path: '/api/template',
      body: { template: HOME_ASSISTANT_AREA_TEMPLATE },
    }).catch(() => null);
    if (template?.status === 200) areas = parseHomeAssistantAreas(template.text);
    took(found, areas);
    scheduleRefresh();
  }

  function answerError(answer: HomeAssistantAnswer, what: string): LightError {
    return new LightError(
      answer.status >= 500 ? 'server' : 'bad-request',
      `Home Assistant answered ${what} with HTTP ${answer.status}: ${homeAssistantMessage(answer)}`,
      answer.status,
    );
  }

  function connect(): Promise<LightDeviceInfo[]> {
    ensureUsable();
    connecting ??= (async () => {
      try {
        await readLights();
      } catch (error) {
        // Down, slow, starting up (5xx) or the wrong address (404): asked again with back-off.
        unreachable(error instanceof LightError ? error : new LightError('network', String(error)));
      } finally {
        connecting = null;
      }
      return deviceList();
    })();
    return connecting;
  }

  function entityFailed(light: HomeAssistantLight, answer: HomeAssistantAnswer, service: string): void {
    const message = `Home Assistant refused ${service} for ${light.name} (${light.entityId}): HTTP ${answer.status}, ${homeAssistantMessage(answer)}`;
    errors.set(light.entityId, { entityId: light.entityId, name: light.name, message });
    log(message);
    events.emit({ type: 'error', error: { kind: answer.status >= 500 ? 'server' : 'bad-request', message } });
  }

  async function send(light: HomeAssistantLight, call: HomeAssistantCall): Promise<void> {
    for (let attempt = 1; ; attempt += 1) {
      let answer: HomeAssistantAnswer;
      try {
        answer = await request({
          method: 'POST',
          path: `/api/services/light/${call.service}`,
          body: call.body,
        });
      } catch (error) {
        unreachable(error instanceof LightError ? error : new LightError('network', String(error)));
        return;
      }
      if (answer.status === 401 || answer.status === 403) return refused(answer.status);
      if (answer.status >= 200 && answer.status < 300) {
        errors.delete(light.entityId);
        return;
      }
      // A 5xx is the device or its integration failing: tried once more, unless a newer look waits.
      const slot = slots.get(light.entityId);
      if (answer.status >= 500 && attempt === 1 && !slot?.next && usable()) {
        await new Promise<void>((resolve) => timers.setTimeout(resolve, paceMs));
        if (!slot?.next && usable()) continue;
        return;
      }
      entityFailed(light, answer, call.service);
      return;
    }
  }

  function pump(light: HomeAssistantLight): void {
    const slot = slots.get(light.entityId);
    if (!slot || slot.inFlight || !slot.next || slot.timer !== null || !usable()) return;
    const wait = slot.lastStartMs + paceMs - timers.now();
    if (wait > 0) {
      slot.timer = timers.setTimeout(() => {
        slot.timer = null;
        pump(light);
      }, wait);
      return;
    }
    const { call, done } = slot.next;
    slot.next = null;
    slot.inFlight = true;
    slot.lastStartMs = timers.now();
    void send(light, call).finally(() => {
      slot.inFlight = false;
      done();
      pump(lights.get(light.entityId) ?? light);
    });
  }

  /** Queues the entity's newest look: it replaces the one still waiting (newest look wins). */
  function submit(light: HomeAssistantLight, look: LightStateCommand): Promise<void> {
    let slot = slots.get(light.entityId);
    if (!slot)
      slots.set(
        light.entityId,
        (slot = { inFlight: false, next: null, lastStartMs: -Infinity, timer: null }),
      );
    const replaced = slot.next;
    const done = new Promise<void>((resolve) => {
      slot.next = { call: homeAssistantCall(light, look), done: resolve };
    });
    replaced?.done();
    pump(light);
    return done;
  }

  async function setState(ids: readonly string[], look: LightStateCommand): Promise<void> {
    ensureUsable();
    if (!Number.isFinite(look.color.hue) || !Number.isFinite(look.color.saturation))
      throw new LightError(
        'bad-request',
        `Not a colour: hue ${look.color.hue}, saturation ${look.color.saturation}`,
      );
    if (!Number.isFinite(look.brightness) || look.brightness < 0 || look.brightness > 1)
      throw new LightError('bad-request', `Brightness must be 0 to 1, not ${look.brightness}`);
    if (!read && state === 'connecting') await connect();
    const targets = ids.length === 0 ? [...lights.keys()] : ids;
    const unknown = targets.filter((id) => !lights.has(id));
    if (unknown.length > 0)
      events.emit({ type: 'warning', message: `Unknown Home Assistant lights: ${unknown.join(', ')}` });
    const sends: Promise<void>[] = [];
    for (const id of targets) {
      const light = lights.get(id);
      if (!light) continue;
      lastLooks.set(id, look);
      // Kept for later: sent when Home Assistant or the entity answers again.
      if (state !== 'connected' || !light.available) continue;
      sends.push(submit(light, look));
    }
    await Promise.all(sends);
  }

  function deviceList(): LightDeviceInfo[] {
    return [...lights.values()].map((light) => ({
      id: light.entityId,
      label: light.name,
      name: light.name,
      type: describeModes(light),
      group: null,
      location: light.area ? { name: light.area } : null,
      connected: state === 'connected' && light.available,
    }));
  }

  return {
    provider: 'home_assistant',
    nativeStrobe: false,
    minStrobeHalfPeriodMs: () => paceMs,
    connect,
    discover: connect,
    async listDevices() {
      if (!read && usable()) return connect();
      return deviceList();
    },
    setState,
    playStep(ids, step) {
      if (step.kind === 'strobe')
        return Promise.reject(
          new LightError('bad-request', 'Home Assistant strobes are expanded by the player'),
        );
      return setState(ids, {
        on: true,
        color: step.color,
        brightness: step.brightness,
        transitionMs: step.transitionMs,
      });
    },
    cancelPending: dropQueued,
    subscribe: (listener: DriverListener) => events.subscribe(listener),
    connection: () => state,
    problem: () => problem,
    lights: () => [...lights.values()],
    entityErrors: () => [...errors.values()].filter((e) => lights.has(e.entityId)).map((e) => ({ ...e })),
    async close() {
      if (state === 'closed') return;
      state = 'closed';
      stopTimers();
      dropQueued();
      agent.destroy();
      await connecting?.catch(() => undefined);
    },
  };
}
