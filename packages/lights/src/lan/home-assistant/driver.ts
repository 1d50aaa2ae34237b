import type http from 'node:http';
import type { LightStep } from '@flaglight/core';
import {
  DriverEvents,
  type DriverListener,
  type LightDeviceInfo,
  type LightDriver,
  type LightStateCommand,
} from '../../driver.js';
import { LightError } from '../../errors.js';
import { expandStrobe } from '../../player/strobe.js';
import { systemTimers, type Timers } from '../../timers.js';
import { createEntityQueue } from './entity-queue.js';
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
  HA_FEATURE_FLASH,
  HOME_ASSISTANT_AREA_TEMPLATE,
  homeAssistantCall,
  homeAssistantFlashCall,
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
  /** Log lines quote what devices say as they said it: the receiver escapes them (`escapeLogText`). */
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

type Strobe = Extract<LightStep, { kind: 'strobe' }>;

const CLOSED = 'This Home Assistant driver is closed';

/**
 * Home Assistant's lights (provider `home_assistant`) over its REST API, one light per `light.*`
 * entity. A look is one `light.turn_on`/`turn_off` call per entity. A strobe is one call with
 * `flash: short` on an entity whose `supported_features` lists flash, and looks at 400 ms halves
 * on the others. Each entity has one call in flight at most, 400 ms apart, and only its newest look
 * waits behind it. A time-out or refused connection marks Home Assistant unreachable:
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
  const lastLooks = new Map<string, LightStateCommand>();
  /** A strobe's later halves on an entity without flash, cancelled by any newer look. */
  const flashTimers = new Map<string, unknown[]>();
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
  const queue = createEntityQueue({ timers, paceMs, usable, send });

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
    for (const id of [...flashTimers.keys()]) stopFlashes(id);
    queue.dropWaiting();
  }

  function stopFlashes(entityId: string): void {
    for (const timer of flashTimers.get(entityId) ?? []) timers.clearTimeout(timer);
    flashTimers.delete(entityId);
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

  async function send(entityId: string, call: HomeAssistantCall): Promise<void> {
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
        errors.delete(entityId);
        return;
      }
      // A 5xx is the device or its integration failing: tried once more, unless a newer look waits.
      const fresh = () => !queue.hasWaiting(entityId) && usable();
      if (answer.status >= 500 && attempt === 1 && fresh()) {
        await new Promise<void>((resolve) => timers.setTimeout(resolve, paceMs));
        if (fresh()) continue;
        return;
      }
      const light = lights.get(entityId);
      if (light) entityFailed(light, answer, call.service);
      return;
    }
  }

  /** The entity's newest look, as one call (the same look with `flash` for a strobe's start). */
  function submit(light: HomeAssistantLight, look: LightStateCommand, flash = false): Promise<void> {
    const call = flash ? homeAssistantFlashCall(light, look) : homeAssistantCall(light, look);
    return queue.submit(light.entityId, call);
  }

  /** Shows `look` on one entity now, or keeps it for when Home Assistant or the entity answers. */
  function showOn(light: HomeAssistantLight, look: LightStateCommand, flash = false): Promise<void> {
    lastLooks.set(light.entityId, look);
    if (state !== 'connected' || !light.available) return Promise.resolve();
    return submit(light, look, flash);
  }

  /**
   * One strobe on one entity: `flash: short` in the call of its colour where the entity flashes by
   * itself (one request, the device's own blink), else its halves as looks at the entity's pace.
   */
  function strobeOn(light: HomeAssistantLight, step: Strobe): Promise<void> {
    const solid = { on: true, color: step.color, brightness: step.brightness, transitionMs: 0 };
    if (light.features & HA_FEATURE_FLASH) return showOn(light, solid, true);
    const flashes = expandStrobe(step, paceMs).map((f) => ({
      look: { on: true, color: f.color, brightness: f.brightness, transitionMs: 0 },
      afterMs: f.atMs - step.atMs,
    }));
    flashTimers.set(
      light.entityId,
      flashes.slice(1).map((f) =>
        timers.setTimeout(() => {
          const now = lights.get(light.entityId);
          if (now) void showOn(now, f.look);
        }, f.afterMs),
      ),
    );
    return showOn(light, flashes[0]!.look);
  }

  /** The known lights among `ids` (all for none), warning once about the ones it does not know. */
  function targetsOf(ids: readonly string[]): HomeAssistantLight[] {
    const targets = ids.length === 0 ? [...lights.keys()] : ids;
    const unknown = targets.filter((id) => !lights.has(id));
    if (unknown.length > 0)
      events.emit({ type: 'warning', message: `Unknown Home Assistant lights: ${unknown.join(', ')}` });
    return targets.flatMap((id) => lights.get(id) ?? []);
  }

  /** Sends `show` to every target; a newer look on an entity ends its running strobe first. */
  async function each(
    ids: readonly string[],
    show: (light: HomeAssistantLight) => Promise<void>,
  ): Promise<void> {
    ensureUsable();
    if (!read && state === 'connecting') await connect();
    await Promise.all(
      targetsOf(ids).map((light) => {
        stopFlashes(light.entityId);
        return show(light);
      }),
    );
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
    await each(ids, (light) => showOn(light, look));
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
    nativeStrobe: true,
    minStrobeHalfPeriodMs: () => paceMs,
    connect,
    discover: connect,
    async listDevices() {
      if (!read && usable()) return connect();
      return deviceList();
    },
    setState,
    async playStep(ids, step) {
      if (step.kind === 'strobe') {
        if (!(step.periodMs > 0 && step.cycles > 0))
          throw new LightError('bad-request', 'A strobe needs a period and cycles above 0');
        return each(ids, (light) => strobeOn(light, step));
      }
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
