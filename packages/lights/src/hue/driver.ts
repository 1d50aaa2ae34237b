import { HUE_GAMUTS, hsbToXy, type LightStep } from '@flaglight/core';
import {
  DriverEvents,
  isOff,
  type DriverListener,
  type LightDeviceInfo,
  type LightDriver,
  type LightStateCommand,
} from '../driver.js';
import { LIGHT_ERROR_MESSAGES as M, LightError, toLightErrorInfo, type LightErrorInfo } from '../errors.js';
import { sleep, systemTimers, type Timers } from '../timers.js';
import type { HueLightCommand, HueLightInfo, HueTransport } from './transports.js';

/** Hue's guidance: about 10 light commands per second (reference §3.5). */
export const HUE_LIGHT_COMMAND_GAP_MS = 100;

/** A busy bridge (429, 503) is given this long, doubling per attempt: 1 s, 2 s, 4 s. */
export const HUE_RETRY_BASE_DELAY_MS = 1_000;
export const HUE_MAX_RETRIES = 3;

export interface HueDriverOptions {
  transport: HueTransport;
  timers?: Timers;
  /** Minimum gap between two light commands. Default 100 ms. */
  gapMs?: number;
  /** Default 1 s. */
  retryBaseDelayMs?: number;
  /** Default 3. */
  maxRetries?: number;
}

export interface HueDriver extends LightDriver {
  readonly provider: 'hue';
  readonly transport: HueTransport;
  readonly connected: boolean;
  connect(): Promise<LightDeviceInfo[]>;
  disconnect(): void;
  pendingCount(): number;
  /** Queues one CLIP v2 body for a light on the paced queue (replacing that light's queued one). */
  sendCommand(id: string, command: HueLightCommand): Promise<void>;
}

interface Pending {
  id: string;
  command: HueLightCommand;
  attempts: number;
  resolve(): void;
  reject(error: unknown): void;
}

/**
 * SPEC §8: a refused key or session ('unauthorized': kind `auth`, from the bridge's 401/403 or the
 * app server's hue_not_connected / hue_unauthorized codes) or a bridge that is gone ('not
 * connected') marks the bridge provider disconnected. Decided on the error's kind, not its text.
 */
export function isHueDisconnectError(error: LightErrorInfo): boolean {
  return error.kind === 'auth' || error.message === M.hueNotConnected;
}

/** The CLIP v2 body for a look: `on`, `dimming.brightness` (%), `color.xy` in the bulb's gamut, `dynamics.duration`. */
export function toHueCommand(state: LightStateCommand, light?: Pick<HueLightInfo, 'gamut'>): HueLightCommand {
  if (isOff(state)) return { on: { on: false }, dynamics: { duration: Math.round(state.transitionMs) } };
  const xy = hsbToXy(state.color, light?.gamut ?? HUE_GAMUTS.C);
  return {
    on: { on: true },
    dimming: { brightness: Math.round(Math.min(1, Math.max(0, state.brightness)) * 1000) / 10 },
    color: { xy: { x: Math.round(xy.x * 10000) / 10000, y: Math.round(xy.y * 10000) / 10000 } },
    dynamics: { duration: Math.round(state.transitionMs) },
  };
}

/**
 * The Hue driver (CLIP v2 over a local bridge or through the server). One paced queue of light
 * commands, ≥ 100 ms apart; a newer command for a light replaces its queued one, so a strobe
 * never builds a backlog. Strobes are expanded by the player at a pace the bridge can show.
 * A busy bridge (429 or 503) pauses the whole queue, 1 s then 2 s then 4 s, and the command is
 * sent again unless a newer one for that light has taken its place.
 */
export function createHueDriver(options: HueDriverOptions): HueDriver {
  const { transport } = options;
  const timers = options.timers ?? systemTimers;
  const gapMs = options.gapMs ?? HUE_LIGHT_COMMAND_GAP_MS;
  const retryBase = options.retryBaseDelayMs ?? HUE_RETRY_BASE_DELAY_MS;
  const maxRetries = options.maxRetries ?? HUE_MAX_RETRIES;
  const events = new DriverEvents();
  let lights = new Map<string, HueLightInfo>();
  let queue: Pending[] = [];
  let lastSent = -Infinity;
  let pausedUntil = -Infinity;
  let running = false;
  let connected = false;
  let wake: AbortController | null = null;

  function fail(error: unknown): LightError {
    const info = toLightErrorInfo(error, M.hueCommandFailed);
    const light = error instanceof LightError ? error : new LightError(info.kind, info.message);
    if (isHueDisconnectError(light) && connected) {
      connected = false;
      drop();
      events.emit({ type: 'disconnect', error: light.toJSON() });
    }
    return light;
  }

  function drop(): void {
    const dropped = queue;
    queue = [];
    for (const p of dropped) p.resolve();
    wake?.abort();
  }

  async function pump(): Promise<void> {
    if (running) return;
    running = true;
    try {
      while (queue.length > 0) {
        const wait = Math.max(lastSent + gapMs, pausedUntil) - timers.now();
        if (wait > 0) {
          wake = new AbortController();
          await sleep(timers, wait, wake.signal).catch(() => undefined);
          wake = null;
          continue;
        }
        const next = queue.shift()!;
        lastSent = timers.now();
        try {
          await transport.putLight(next.id, next.command);
          next.resolve();
        } catch (error) {
          if (error instanceof LightError && error.kind === 'rate-limit' && next.attempts < maxRetries) {
            pausedUntil = timers.now() + retryBase * 2 ** next.attempts;
            next.attempts += 1;
            // A newer command for this light queued meanwhile goes instead.
            if (queue.some((p) => p.id === next.id)) next.resolve();
            else queue.unshift(next);
            continue;
          }
          const light = fail(error);
          events.emit({ type: 'error', error: light.toJSON() });
          next.reject(light);
        }
      }
    } finally {
      running = false;
    }
  }

  function send(id: string, command: HueLightCommand): Promise<void> {
    return new Promise((resolve, reject) => {
      const queued = queue.find((p) => p.id === id);
      if (queued) {
        queued.resolve();
        Object.assign(queued, { command, resolve, reject, attempts: 0 });
      } else {
        queue.push({ id, command, resolve, reject, attempts: 0 });
      }
      void pump();
    });
  }

  async function setState(ids: readonly string[], state: LightStateCommand): Promise<void> {
    const targets = ids.length > 0 ? ids : [...lights.keys()];
    if (targets.length === 0) {
      events.emit({ type: 'warning', message: 'No Hue lights to set' });
      return;
    }
    await Promise.all(targets.map((id) => send(id, toHueCommand(state, lights.get(id)))));
  }

  const driver: HueDriver = {
    provider: 'hue',
    transport,
    nativeStrobe: false,
    // A quarter of slack over the pace, so network jitter does not make flashes coalesce.
    minStrobeHalfPeriodMs: (count) => Math.ceil((Math.max(1, count) * gapMs * 1.25) / 25) * 25,
    get connected() {
      return connected;
    },
    async listDevices() {
      let list: HueLightInfo[];
      try {
        list = await transport.listLights();
      } catch (error) {
        const light = fail(error);
        throw light.kind === 'auth' || light.kind === 'network'
          ? light
          : new LightError(light.kind, M.hueFetchLightsFailed, light.status);
      }
      lights = new Map(list.map((l) => [l.id, l]));
      return list.map((l) => ({
        id: l.id,
        label: l.name,
        name: l.name,
        type: l.type,
        connected: l.connected ?? true,
      }));
    },
    async connect() {
      const list = await driver.listDevices();
      connected = true;
      return list;
    },
    disconnect() {
      connected = false;
      lights = new Map();
      drop();
      events.emit({ type: 'disconnect', error: { kind: 'not-configured', message: M.hueNotConnected } });
    },
    setState,
    async playStep(ids, step: Exclude<LightStep, { kind: 'restore' }>) {
      if (step.kind === 'set-state')
        return setState(ids, {
          on: true,
          color: step.color,
          brightness: step.brightness,
          transitionMs: step.transitionMs,
        });
      // Without the player's expansion a strobe shows its colour: the bridge cannot flash at 20 Hz.
      return setState(ids, { on: true, color: step.color, brightness: step.brightness, transitionMs: 0 });
    },
    cancelPending: drop,
    pendingCount: () => queue.length,
    sendCommand: send,
    subscribe: (listener: DriverListener) => events.subscribe(listener),
  };
  return driver;
}
