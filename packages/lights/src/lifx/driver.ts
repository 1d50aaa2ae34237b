import {
  formatLifxColor,
  LIFX_BREATHE_PERIOD_S,
  LIFX_DEVICE_FLAG_THROTTLE_MS,
  LIFX_DEVICE_STATE_THROTTLE_MS,
  LIFX_MAX_RETRIES,
  LIFX_QUEUE_GAP_MS,
  LIFX_RETRY_BASE_DELAY_MS,
  LIFX_RETRY_FACTOR,
  LIFX_TIMEOUT_MS,
  LightDeviceListSchema,
  type LightColor,
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
import { sleep, systemTimers, type Timers } from '../timers.js';
import {
  Cancelled,
  finalError,
  judgeResponse,
  statePayload,
  type Job,
  type JobKind,
  type RateBudget,
  type Verdict,
} from './requests.js';
import { parseDeviceIds, toLifxSelectors } from './selector.js';

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

export interface LifxCloudDriver extends LightDriver {
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

/**
 * The LIFX cloud driver (SPEC §7, §9): one request at a time, at least 300 ms apart, 100 ms
 * per-device state and 500 ms per-device flag throttles, the `X-RateLimit-*` budget honoured,
 * 30 s time-out, 3 retries with back-off from 2 s; a flag on many bulbs is one multi-id selector
 * (or one batch `PUT /lights/states` above 25 bulbs), so it costs one request whatever the count.
 */
export function createLifxCloudDriver(options: LifxCloudDriverOptions): LifxCloudDriver {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const timers = options.timers ?? systemTimers;
  const doFetch = options.fetch ?? ((...args: Parameters<typeof fetch>) => globalThis.fetch(...args));
  const gapMs = options.gapMs ?? LIFX_QUEUE_GAP_MS;
  const throttle = {
    state: options.stateThrottleMs ?? LIFX_DEVICE_STATE_THROTTLE_MS,
    flag: options.flagThrottleMs ?? LIFX_DEVICE_FLAG_THROTTLE_MS,
  };
  const timeoutMs = options.timeoutMs ?? LIFX_TIMEOUT_MS;
  const maxRetries = options.maxRetries ?? LIFX_MAX_RETRIES;
  const retryBase = options.retryBaseDelayMs ?? LIFX_RETRY_BASE_DELAY_MS;
  const events = new DriverEvents();

  let token = options.token?.trim() || null;
  let connected = false;
  let devices: LightDeviceInfo[] = [];
  let queue: Job[] = [];
  let lastStart = -Infinity;
  let lastTouched = { state: new Map<string, number>(), flag: new Map<string, number>() };
  let holdUntil = 0;
  let budget: RateBudget | null = null;
  let running = false;
  let generation = 0;
  let wake: AbortController | null = null;
  let inFlight: AbortController | null = null;

  function dropAll(reason: Error): void {
    const dropped = queue;
    queue = [];
    for (const job of dropped) job.reject(reason);
    wake?.abort(new Cancelled('dropped'));
  }

  function resetCaches(): void {
    generation += 1;
    devices = [];
    lastTouched = { state: new Map(), flag: new Map() };
    holdUntil = 0;
    budget = null;
    lastStart = -Infinity;
    dropAll(new Cancelled('reset'));
    inFlight?.abort(new Cancelled('reset'));
  }

  function readyAt(job: Job): number {
    let at = Math.max(job.notBefore, lastStart + gapMs, holdUntil);
    if (job.kind !== 'list') {
      const touched = lastTouched[job.kind];
      for (const id of job.devices) at = Math.max(at, (touched.get(id) ?? -Infinity) + throttle[job.kind]);
    }
    return at;
  }

  function noteRateLimit(response: Response): void {
    const limit = Number(response.headers.get('X-RateLimit-Limit'));
    const remaining = Number(response.headers.get('X-RateLimit-Remaining'));
    const reset = Number(response.headers.get('X-RateLimit-Reset'));
    if (!response.headers.has('X-RateLimit-Remaining') || !Number.isFinite(remaining)) return;
    const resetAtMs = Number.isFinite(reset) && reset > 0 ? reset * 1000 : timers.now() + 60_000;
    budget = { limit, remaining, resetAtMs };
    if (remaining <= 0) holdUntil = Math.max(holdUntil, resetAtMs);
  }

  /** One attempt; returns the parsed body, or a verdict for the queue. */
  async function attempt(job: Job): Promise<Verdict> {
    const controller = new AbortController();
    inFlight = controller;
    const timer = timers.setTimeout(() => controller.abort(new Error('timeout')), timeoutMs);
    let response: Response;
    try {
      response = await doFetch(`${baseUrl}${job.path}`, {
        method: job.method,
        headers: {
          Authorization: `Bearer ${token ?? ''}`,
          ...(job.body === undefined ? {} : { 'Content-Type': 'application/json' }),
        },
        body: job.body === undefined ? undefined : JSON.stringify(job.body),
        signal: controller.signal,
      });
    } catch {
      timers.clearTimeout(timer);
      if (controller.signal.reason instanceof Cancelled) throw controller.signal.reason;
      const timedOut = controller.signal.aborted;
      return { ok: false, retry: true, error: finalError(job.kind, timedOut ? 'timeout' : 'network') };
    } finally {
      inFlight = null;
    }
    timers.clearTimeout(timer);
    noteRateLimit(response);
    const text = await response.text().catch(() => '');
    return judgeResponse(job, response.status, text, budget, timers.now());
  }

  async function pump(): Promise<void> {
    if (running) return;
    running = true;
    try {
      while (queue.length > 0) {
        const job = queue[0]!;
        const gen = generation;
        const wait = readyAt(job) - timers.now();
        if (wait > 0) {
          wake = new AbortController();
          try {
            await sleep(timers, wait, wake.signal);
          } catch {
            // dropped or reset: look at the queue again
          }
          wake = null;
          continue;
        }
        lastStart = timers.now();
        if (job.kind !== 'list') for (const id of job.devices) lastTouched[job.kind].set(id, lastStart);
        let result: Awaited<ReturnType<typeof attempt>>;
        try {
          result = await attempt(job);
        } catch (error) {
          if (queue[0] === job) queue.shift();
          job.reject(error);
          continue;
        }
        if (gen !== generation || queue[0] !== job) {
          // reset or cancelled while in flight: the job was already rejected
          continue;
        }
        if (result.ok) {
          queue.shift();
          job.resolve(result.value);
          continue;
        }
        if (result.retry && job.attempts < maxRetries) {
          const backoff = retryBase * LIFX_RETRY_FACTOR ** job.attempts;
          job.attempts += 1;
          job.notBefore = timers.now() + Math.max(backoff, result.waitMs ?? 0);
          continue;
        }
        queue.shift();
        if (result.skip) {
          events.emit({ type: 'warning', message: result.skip });
          job.resolve(null);
          continue;
        }
        if (result.disconnect) {
          job.reject(result.error);
          token = null;
          connected = false;
          resetCaches();
          events.emit({ type: 'disconnect', error: result.error.toJSON() });
          continue;
        }
        events.emit({ type: 'error', error: result.error.toJSON() });
        job.reject(result.error);
      }
    } finally {
      running = false;
    }
  }

  function enqueue(
    kind: JobKind,
    method: string,
    path: string,
    body: unknown,
    devices: string[],
  ): Promise<unknown> {
    if (!token) return Promise.reject(new LightError('not-configured', M.lifxTokenNotSet));
    return new Promise((resolve, reject) => {
      queue.push({ kind, method, path, body, devices, attempts: 0, notBefore: 0, resolve, reject });
      void pump();
    });
  }

  /** Cancellation is not a failure the caller must handle: queued work simply never runs. */
  const quiet = (promise: Promise<unknown>): Promise<void> =>
    promise.then(
      () => undefined,
      (error: unknown) => {
        if (error instanceof Cancelled) return;
        throw error;
      },
    );

  const touched = (ids: readonly string[]) => {
    const list = parseDeviceIds(ids);
    return list.length === 0 ? ['*'] : list;
  };

  async function setState(ids: readonly string[], state: LightStateCommand): Promise<void> {
    const selectors = toLifxSelectors(ids);
    const payload = statePayload(state);
    if (selectors.length === 1)
      return quiet(
        enqueue('state', 'PUT', `/lights/${encodeURIComponent(selectors[0]!)}/state`, payload, touched(ids)),
      );
    return quiet(
      enqueue(
        'state',
        'PUT',
        '/lights/states',
        { states: selectors.map((selector) => ({ selector })), defaults: payload },
        touched(ids),
      ),
    );
  }

  async function effect(ids: readonly string[], name: 'pulse' | 'breathe', body: object): Promise<void> {
    await Promise.all(
      toLifxSelectors(ids).map((selector) =>
        quiet(
          enqueue(
            'flag',
            'POST',
            `/lights/${encodeURIComponent(selector)}/effects/${name}`,
            body,
            touched(parseDeviceIds(selector)),
          ),
        ),
      ),
    );
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
      const raw = await enqueue('list', 'GET', '/lights/all', undefined, []).catch((error: unknown) => {
        throw error instanceof Cancelled ? new LightError('network', M.lifxConnectFailed) : error;
      });
      const parsed = LightDeviceListSchema.safeParse(raw);
      if (!parsed.success) throw new LightError('server', M.lifxConnectFailed);
      devices = parsed.data.map((d) => ({
        id: d.id,
        label: d.label,
        name: d.name ?? d.label,
        type: d.type ?? 'lifx',
        group: d.group ?? null,
        location: d.location ?? null,
        connected: d.connected,
      }));
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
      return effect(ids, 'pulse', {
        power_on: true,
        color: formatLifxColor({ ...step.color, brightness: step.brightness }),
        from_color: formatLifxColor(step.fromColor),
        period: step.periodMs / 1000,
        cycles: step.cycles,
        mode: 'strobe',
      });
    },
    breathe(ids, color, cycles = 1) {
      return effect(ids, 'breathe', {
        color: formatLifxColor(color),
        cycles,
        period: LIFX_BREATHE_PERIOD_S,
        persist: false,
        power_on: true,
      });
    },
    cancelPending() {
      dropAll(new Cancelled('superseded'));
    },
    pendingCount: () => queue.length,
    rateLimit: () => budget && { ...budget },
    subscribe: (listener: DriverListener) => events.subscribe(listener),
  };
  return driver;
}
