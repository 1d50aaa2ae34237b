import {
  LIFX_DEVICE_FLAG_THROTTLE_MS,
  LIFX_DEVICE_STATE_THROTTLE_MS,
  LIFX_MAX_RETRIES,
  LIFX_QUEUE_GAP_MS,
  LIFX_RETRY_BASE_DELAY_MS,
  LIFX_TIMEOUT_MS,
  LightDeviceListSchema,
  type LightColor,
  type LightDevice,
  type LightStep,
} from '@flaglight/core';
import {
  DriverEvents,
  type DriverListener,
  type LightDeviceInfo,
  type LightDriver,
  type LightStateCommand,
} from '../driver.js';
import { LIGHT_ERROR_MESSAGES as M, LightError } from '../errors.js';
import type { RoomStateDriver } from '../lan/room-state.js';
import { systemTimers, type Timers } from '../timers.js';
import { createLifxPacing } from './pacing.js';
import { createLifxQueue } from './queue.js';
import {
  breatheBody,
  Cancelled,
  effectRequests,
  pulseBody,
  stateRequest,
  type LifxRequest,
} from './requests.js';
import { lifxRestoreRequests, readLifxStates } from './room.js';

export interface LifxCloudDriverOptions {
  /** e.g. 'https://api.lifx.com/v1', demo '/sims/lifx/v1', tests the simulator's URL + '/v1'. */
  baseUrl: string;
  token?: string | null;
  fetch?: typeof fetch;
  timers?: Timers;
  gapMs?: number;
  stateThrottleMs?: number;
  flagThrottleMs?: number;
  timeoutMs?: number;
  maxRetries?: number;
  retryBaseDelayMs?: number;
}

export interface LifxCloudDriver extends LightDriver, RoomStateDriver {
  readonly provider: 'lifx';
  /** Switches (or clears) the token: caches, throttles and queued requests are dropped. */
  setToken(token: string | null): void;
  readonly hasToken: boolean;
  /** True after a successful device list, false after a 401 or `disconnect()`. */
  readonly connected: boolean;
  /** Lists the devices and marks the provider connected. */
  connect(): Promise<LightDeviceInfo[]>;
  /** Forgets the token and every cache, cancels everything queued (SPEC §4 Session). */
  disconnect(): void;
  /** SPEC §7 breathe: color, cycles, period 0.5, persist false, power_on true. */
  breathe(ids: readonly string[], color: LightColor, cycles?: number): Promise<void>;
  /** Requests waiting in the queue. */
  pendingCount(): number;
  /** The last `X-RateLimit-*` figures seen. */
  rateLimit(): { limit: number; remaining: number; resetAtMs: number } | null;
}

/** Cancellation is not a failure the caller must handle: queued work simply never runs. */
function quiet(promise: Promise<unknown>): Promise<void> {
  return promise.then(
    () => undefined,
    (error: unknown) => {
      if (error instanceof Cancelled) return;
      throw error;
    },
  );
}

/** A listed LIFX light as SPEC §3 Light device. */
function toDeviceInfo(d: LightDevice): LightDeviceInfo {
  return {
    id: d.id,
    label: d.label,
    name: d.name ?? d.label,
    type: d.type ?? 'lifx',
    group: d.group ?? null,
    location: d.location ?? null,
    connected: d.connected,
  };
}

/**
 * The LIFX cloud driver (SPEC §7, §9): one request at a time, at least 300 ms apart, 100 ms
 * per-device state and 500 ms per-device flag throttles, the `X-RateLimit-*` budget honoured,
 * 30 s time-out, 3 retries with back-off from 2 s; a flag on many bulbs is one multi-id selector
 * (or one batch `PUT /lights/states` above 25 bulbs), so it costs one request whatever the count.
 */
export function createLifxCloudDriver(options: LifxCloudDriverOptions): LifxCloudDriver {
  const timers = options.timers ?? systemTimers;
  const events = new DriverEvents();

  let token = options.token?.trim() || null;
  let connected = false;
  let devices: LightDeviceInfo[] = [];

  const queue = createLifxQueue({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    doFetch: options.fetch ?? ((...args: Parameters<typeof fetch>) => globalThis.fetch(...args)),
    timers,
    pacing: createLifxPacing({
      timers,
      gapMs: options.gapMs ?? LIFX_QUEUE_GAP_MS,
      throttle: {
        state: options.stateThrottleMs ?? LIFX_DEVICE_STATE_THROTTLE_MS,
        flag: options.flagThrottleMs ?? LIFX_DEVICE_FLAG_THROTTLE_MS,
      },
    }),
    timeoutMs: options.timeoutMs ?? LIFX_TIMEOUT_MS,
    maxRetries: options.maxRetries ?? LIFX_MAX_RETRIES,
    retryBaseDelayMs: options.retryBaseDelayMs ?? LIFX_RETRY_BASE_DELAY_MS,
    token: () => token,
    events,
    onUnauthorized(error) {
      token = null;
      connected = false;
      resetCaches();
      events.emit({ type: 'disconnect', error: error.toJSON() });
    },
  });

  function resetCaches(): void {
    devices = [];
    queue.reset();
  }

  function enqueue({ kind, method, path, body, devices }: LifxRequest): Promise<unknown> {
    if (!token) return Promise.reject(new LightError('not-configured', M.lifxTokenNotSet));
    return queue.add(kind, method, path, body, devices);
  }

  async function setState(ids: readonly string[], state: LightStateCommand): Promise<void> {
    return quiet(enqueue(stateRequest(ids, state)));
  }

  async function effect(ids: readonly string[], name: 'pulse' | 'breathe', body: object): Promise<void> {
    await Promise.all(effectRequests(ids, name, body).map((request) => quiet(enqueue(request))));
  }

  const driver: LifxCloudDriver = {
    provider: 'lifx',
    nativeStrobe: true,
    minStrobeHalfPeriodMs: () => 0,
    get hasToken() {
      return token !== null;
    },
    get connected() {
      return connected;
    },
    setToken(next) {
      const normalised = next?.trim() || null;
      if (normalised === token) return;
      token = normalised;
      connected = false;
      resetCaches();
      events.emit({ type: 'reset' });
    },
    async listDevices() {
      const raw = await enqueue({
        kind: 'list',
        method: 'GET',
        path: '/lights/all',
        body: undefined,
        devices: [],
      }).catch((error: unknown) => {
        throw error instanceof Cancelled ? new LightError('network', M.lifxConnectFailed) : error;
      });
      const parsed = LightDeviceListSchema.safeParse(raw);
      if (!parsed.success) throw new LightError('server', M.lifxConnectFailed);
      devices = parsed.data.map(toDeviceInfo);
      return [...devices];
    },
    async connect() {
      const list = await driver.listDevices();
      connected = true;
      return list;
    },
    disconnect() {
      token = null;
      connected = false;
      resetCaches();
      events.emit({ type: 'disconnect', error: { kind: 'not-configured', message: M.lifxTokenNotSet } });
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
      return effect(ids, 'pulse', pulseBody(step));
    },
    // "As it was": every bulb read in one list call, given back in one batch call (lifx/room.ts).
    async readStates(ids) {
      return readLifxStates(
        await enqueue({ kind: 'list', method: 'GET', path: '/lights/all', devices: [] }),
        ids,
      );
    },
    async restoreStates(saved) {
      queue.dropAll(new Cancelled('superseded'));
      const { requests, left } = lifxRestoreRequests(saved);
      const report = { restored: [] as string[], left: [...left] };
      await Promise.all(
        requests.map(async ({ request, ids }) => {
          try {
            await enqueue(request);
            report.restored.push(...ids);
          } catch (error) {
            const reason = error instanceof Error ? error.message : String(error);
            report.left.push(...ids.map((id) => ({ id, reason })));
          }
        }),
      );
      return report;
    },
    breathe(ids, color, cycles = 1) {
      return effect(ids, 'breathe', breatheBody(color, cycles));
    },
    cancelPending() {
      queue.dropAll(new Cancelled('superseded'));
    },
    pendingCount: () => queue.pendingCount(),
    rateLimit: () => {
      const budget = queue.budget();
      return budget && { ...budget };
    },
    subscribe: (listener: DriverListener) => events.subscribe(listener),
  };
  return driver;
}
