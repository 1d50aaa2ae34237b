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
import {
  createWledDevice,
  readWledDevice,
  requireLook,
  sameAddress,
  type Device,
  type Write,
} from './device.js';
import { wledBaseUrl, wledRequest, type WledAddress } from './http.js';
import { wledStateBody, wledStrobeBody, type WledEffectIds, type WledInfo } from './looks.js';

/** An unreachable device is asked again this often (`GET /json/info`), and sent its last look when it answers. */
export const WLED_PROBE_INTERVAL_MS = 2_000;
/** An idle device is read this often, so one that left the network is reported without a flag. */
export const WLED_HEALTH_INTERVAL_MS = 30_000;
/** A busy device (503, WLED 0.15+) gets the same write once more after this pause (its `Retry-After: 1`). */
export const WLED_BUSY_RETRY_MS = 1_000;
/** A flash effect runs until the next look; none this long after the strobe's length: set solid. */
export const WLED_STROBE_GUARD_MS = 1_000;
/** A device without a flash effect flashes by paced writes: at most 4 a second (an ESP8266 takes ~10). */
export const WLED_PACED_HALF_PERIOD_MS = 250;

type Strobe = Extract<LightStep, { kind: 'strobe' }>;

export interface WledDriverOptions {
  addresses: readonly WledAddress[];
  timers?: Timers;
  timeoutMs?: number;
  probeIntervalMs?: number;
  busyRetryMs?: number;
  strobeGuardMs?: number;
  /** Between two reads of an idle, reachable device; 0 = never. Default 30 s. */
  healthIntervalMs?: number;
  /** Log lines quote what devices say as they said it: the receiver escapes them (`escapeLogText`). */
  onLog?: (message: string) => void;
}

export interface WledDeviceView {
  id: string;
  address: WledAddress;
  info: WledInfo | null;
  effects: WledEffectIds | null;
  reachable: boolean;
}

export interface WledDriver extends LightDriver {
  readonly provider: 'wled';
  /** Reads every device (info, effect list) and returns them. */
  connect(): Promise<LightDeviceInfo[]>;
  discover(): Promise<LightDeviceInfo[]>;
  /** Adds devices found later (a LAN scan); an address already known, or a known MAC, is not added twice. */
  addAddresses(addresses: readonly WledAddress[]): Promise<LightDeviceInfo[]>;
  devices(): WledDeviceView[];
  /** Requests in flight (at most one per device). */
  inFlight(): number;
  close(): Promise<void>;
}

const CLOSED = 'This WLED driver is closed';

/**
 * WLED devices (provider `wled`) over their JSON API, one light each (id: the MAC). A look is one
 * `POST /json/state` (on, bri, transition, the segment's colour and effect); a strobe is one write
 * of the device's Blink (or Strobe) effect found by name in `/json/effects`, or paced writes where
 * it has none, so the driver is `nativeStrobe`. Per device one request in flight and one waiting:
 * a newer look replaces the waiting one. A time-out or refusal marks the device unreachable: it is
 * probed every 2 s and sent its last look when it answers. An HTTP error is reported and the device
 * stays in use (a 503 "busy" is tried once more after 1 s if no newer look came).
 */
export function createWledDriver(options: WledDriverOptions): WledDriver {
  const timers = options.timers ?? systemTimers;
  const log = options.onLog ?? (() => undefined);
  const probeIntervalMs = options.probeIntervalMs ?? WLED_PROBE_INTERVAL_MS;
  const healthIntervalMs = options.healthIntervalMs ?? WLED_HEALTH_INTERVAL_MS;
  const timeout = options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs };
  const events = new DriverEvents();
  let devices: Device[] = [];
  let closed = false;
  let healthTimer: unknown = null;
  const wrong = new WeakSet<Device>();

  const idOf = (d: Device) => d.info?.mac ?? `${d.address.host}:${d.address.port}`;
  const nameOf = (d: Device) => d.info?.name ?? `WLED ${d.address.host}`;
  const url = (d: Device, path: string) => `${wledBaseUrl(d.address)}${path}`;

  function ensureOpen(): void {
    if (closed) throw new LightError('not-configured', CLOSED);
  }

  function dropNext(d: Device): void {
    const waiting = d.next;
    d.next = null;
    waiting?.resolve(false);
  }

  function stop(d: Device): void {
    d.flashes.cancelAll();
    dropNext(d);
    for (const key of ['probe', 'guard', 'retry'] as const) {
      timers.clearTimeout(d.timers[key]);
      d.timers[key] = null;
    }
  }

  function unreachable(d: Device, error: LightError, what = 'is not answering'): void {
    if (!d.reachable) return;
    d.reachable = false;
    d.flashes.cancelAll();
    dropNext(d);
    const message = `WLED "${nameOf(d)}" ${what} (${error.message})`;
    log(`${message} at ${d.address.host}:${d.address.port}`);
    events.emit({ type: 'error', error: { kind: error.kind, message } });
    scheduleProbe(d);
  }

  function scheduleProbe(d: Device): void {
    if (d.timers.probe !== null || closed || !devices.includes(d)) return;
    d.timers.probe = timers.setTimeout(
      () => {
        d.timers.probe = null;
        void read(d).then(() => {
          if (!d.reachable) scheduleProbe(d);
        });
        // A device that answers wrongly (too large, not WLED) is asked again only now and then.
      },
      wrong.has(d) ? Math.max(probeIntervalMs, healthIntervalMs) : probeIntervalMs,
    );
  }

  /** Reads info and the effect list; marks the device reachable (and sends its last look) or not. */
  async function read(d: Device): Promise<void> {
    try {
      const { info: parsed, effects } = await readWledDevice(d.address, d.agent, options.timeoutMs);
      if (closed) return;
      wrong.delete(d);
      const wasUsable = d.reachable && d.effects !== null;
      d.info = parsed;
      d.effects = effects;
      if (parsed.live && !d.warnedLive) {
        d.warnedLive = true;
        events.emit({
          type: 'warning',
          message: `WLED "${nameOf(d)}" shows another app's live stream: flags show once that stream ends`,
        });
      }
      if (mergedIntoTwin(d) || wasUsable) return;
      if (!d.reachable) log(`WLED "${nameOf(d)}" answers again`);
      d.reachable = true;
      // A look that came while the device was away (or before it first answered).
      if (d.lastLook) void lookOn(d, d.lastLook).catch(() => undefined);
    } catch (error) {
      const light = error instanceof LightError ? error : new LightError('network', String(error));
      if (light.kind === 'network' || light.kind === 'timeout') unreachable(d, light);
      else {
        wrong.add(d);
        unreachable(d, light, 'answered wrongly');
      }
    }
  }

  /** The same device (MAC) at a second address: a moved device takes the new address, a duplicate goes. */
  function mergedIntoTwin(d: Device): boolean {
    const twin = devices.find((o) => o !== d && o.info?.mac && o.info.mac === d.info?.mac);
    if (!twin) return false;
    devices = devices.filter((o) => o !== d);
    stop(d);
    d.agent.destroy();
    if (!twin.reachable) {
      log(`WLED "${nameOf(twin)}" moved to ${d.address.host}:${d.address.port}`);
      twin.address = { ...d.address };
      twin.agent.destroy();
      timers.clearTimeout(twin.timers.probe);
      twin.timers.probe = null;
      void read(twin);
    }
    return true;
  }

  async function post(d: Device, write: Write): Promise<void> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        const { status } = await wledRequest(url(d, '/json/state'), {
          method: 'POST',
          body: write.body,
          agent: d.agent,
          ...timeout,
        });
        if (status >= 200 && status < 300) return;
        const error = new LightError(
          status >= 500 ? 'server' : 'bad-request',
          `WLED "${nameOf(d)}" refused the look (HTTP ${status}${status === 503 ? ': busy' : ''})`,
          status,
        );
        events.emit({ type: 'error', error: error.toJSON() });
        if (status === 503 && !write.retry) retryLater(d, write.body);
        throw error;
      } catch (error) {
        if (!(error instanceof LightError)) throw new LightError('network', String(error));
        if (error.status !== undefined) throw error;
        // A kept-alive connection the device closed: one more try on a new one.
        if (error.kind === 'network' && attempt === 1 && !closed) continue;
        if (error.kind === 'network' || error.kind === 'timeout') unreachable(d, error);
        throw error;
      }
    }
  }

  function retryLater(d: Device, body: unknown): void {
    const generation = d.generation;
    timers.clearTimeout(d.timers.retry);
    d.timers.retry = timers.setTimeout(() => {
      d.timers.retry = null;
      if (d.generation === generation && !closed && d.reachable)
        void submit(d, body, true).catch(() => undefined);
    }, options.busyRetryMs ?? WLED_BUSY_RETRY_MS);
  }

  function pump(d: Device): void {
    if (d.busy || closed || !d.reachable) return;
    const write = d.next;
    if (!write) return;
    d.next = null;
    d.busy = true;
    post(d, write)
      .then(() => write.resolve(true), write.reject)
      .finally(() => {
        d.busy = false;
        pump(d);
      });
  }

  /** One write: it replaces the one still waiting (newest look wins). False when replaced or unreachable. */
  function submit(d: Device, body: unknown, retry = false): Promise<boolean> {
    dropNext(d);
    if (!d.reachable || closed) return Promise.resolve(false);
    return new Promise<boolean>((resolve, reject) => {
      d.next = { body, retry, resolve, reject };
      pump(d);
    });
  }

  /** A new look on one device: it ends a running flash effect's guard and any paced flashes. */
  function begin(d: Device, look: LightStateCommand): void {
    d.generation += 1;
    d.flashes.cancelAll();
    timers.clearTimeout(d.timers.guard);
    d.timers.guard = null;
    d.lastLook = look;
  }

  function lookOn(d: Device, state: LightStateCommand): Promise<boolean> {
    begin(d, state);
    if (!d.effects) return Promise.resolve(false);
    return submit(d, wledStateBody(state, d.effects, d.info?.white ?? false));
  }

  function strobeOn(d: Device, step: Strobe): Promise<boolean> {
    const solid: LightStateCommand = {
      on: true,
      color: step.color,
      brightness: step.brightness,
      transitionMs: 0,
    };
    begin(d, solid);
    const effects = d.effects;
    if (!effects) return Promise.resolve(false);
    const white = d.info?.white ?? false;
    if (!effects.flash) {
      // No flash effect on this build: the flashes as paced writes, as the player would send them.
      const flashes = expandStrobe(step, WLED_PACED_HALF_PERIOD_MS);
      const body = (f: (typeof flashes)[number]) =>
        wledStateBody(
          { on: true, color: f.color, brightness: f.brightness, transitionMs: 0 },
          effects,
          white,
        );
      const start = timers.now();
      for (const f of flashes.slice(1))
        d.flashes.at(start + f.atMs - step.atMs, () => void submit(d, body(f)).catch(() => undefined));
      return submit(d, body(flashes[0]!));
    }
    const generation = d.generation;
    d.timers.guard = timers.setTimeout(
      () => {
        d.timers.guard = null;
        if (d.generation === generation && !closed && d.reachable)
          void lookOn(d, solid).catch(() => undefined);
      },
      step.periodMs * step.cycles + (options.strobeGuardMs ?? WLED_STROBE_GUARD_MS),
    );
    return submit(d, wledStrobeBody(step, effects.flash, white));
  }

  function targets(ids: readonly string[]): Device[] {
    if (ids.length === 0) return devices;
    const found = devices.filter((d) => ids.includes(idOf(d)));
    const unknown = ids.filter((id) => !devices.some((d) => idOf(d) === id));
    if (unknown.length > 0)
      events.emit({ type: 'warning', message: `Unknown WLED lights: ${unknown.join(', ')}` });
    return found;
  }

  /** Runs one look per device; every device gets its look, then the first error (if any) is thrown. */
  async function each(ids: readonly string[], send: (d: Device) => Promise<boolean>): Promise<void> {
    ensureOpen();
    const results = await Promise.allSettled(targets(ids).map(send));
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
  }

  async function connectDevice(d: Device): Promise<void> {
    d.connecting ??= read(d).finally(() => {
      d.connecting = null;
    });
    return d.connecting;
  }

  function deviceList(): LightDeviceInfo[] {
    return devices.map((d) => ({
      id: idOf(d),
      label: nameOf(d),
      name: nameOf(d),
      type: d.info ? `WLED, ${d.info.ledCount} LEDs` : 'WLED',
      connected: d.reachable && d.info !== null,
    }));
  }

  function scheduleHealth(): void {
    if (healthIntervalMs <= 0 || healthTimer !== null || closed) return;
    healthTimer = timers.setTimeout(() => {
      healthTimer = null;
      // Only idle, reachable devices: a write in flight or the probe says it already.
      for (const d of devices) if (d.reachable && !d.busy && !d.next && !d.connecting) void connectDevice(d);
      scheduleHealth();
    }, healthIntervalMs);
  }

  async function connect(): Promise<LightDeviceInfo[]> {
    ensureOpen();
    await Promise.all(devices.map(connectDevice));
    scheduleHealth();
    return deviceList();
  }

  for (const address of options.addresses)
    if (!devices.some((d) => sameAddress(d.address, address)))
      devices.push(createWledDevice(address, timers));

  return {
    provider: 'wled',
    nativeStrobe: true,
    // Blink at full speed changes about every 23 ms: SPEC's 50 ms half period is well within it.
    minStrobeHalfPeriodMs: () => 25,
    async listDevices() {
      // Only devices never read yet: the others are read by their probe and the health check.
      await Promise.all(devices.filter((d) => d.info === null && d.reachable).map(connectDevice));
      return deviceList();
    },
    connect,
    discover: connect,
    async addAddresses(addresses) {
      ensureOpen();
      const added = addresses
        .filter((a) => !devices.some((d) => sameAddress(d.address, a)))
        .map((a) => createWledDevice(a, timers));
      devices.push(...added);
      await Promise.all(added.map(connectDevice));
      scheduleHealth();
      return deviceList();
    },
    devices: () =>
      devices.map((d) => ({
        id: idOf(d),
        address: { ...d.address },
        info: d.info,
        effects: d.effects,
        reachable: d.reachable,
      })),
    inFlight: () => devices.filter((d) => d.busy).length,
    async setState(ids, state) {
      requireLook(state.color, state.brightness);
      await each(ids, (d) => lookOn(d, state));
    },
    async playStep(ids, step) {
      requireLook(step.color, step.brightness);
      if (step.kind === 'strobe') {
        requireLook(step.fromColor, step.brightness);
        if (!(step.periodMs > 0) || !(step.cycles > 0))
          throw new LightError('bad-request', 'A strobe needs a period and cycles above 0');
        return each(ids, (d) => strobeOn(d, step));
      }
      const look = {
        on: true,
        color: step.color,
        brightness: step.brightness,
        transitionMs: step.transitionMs,
      };
      return each(ids, (d) => lookOn(d, look));
    },
    cancelPending() {
      for (const d of devices) {
        d.flashes.cancelAll();
        dropNext(d);
      }
    },
    subscribe: (listener: DriverListener) => events.subscribe(listener),
    async close() {
      if (closed) return;
      closed = true;
      timers.clearTimeout(healthTimer);
      for (const d of devices) {
        stop(d);
        d.agent.destroy();
      }
    },
  };
}
