import {
  DriverEvents,
  type DriverListener,
  type LightDeviceInfo,
  type LightDriver,
  type LightStateCommand,
} from '../../driver.js';
import { LightError } from '../../errors.js';
import { systemTimers, type Timers } from '../../timers.js';
import { requireLook, type Light } from './device.js';
import type { WledAddress } from './http.js';
import type { WledEffectIds, WledInfo } from './looks.js';
import { createWledPlaces, type WledEntry } from './places.js';
import { createWledWrites, solidWledLook } from './writes.js';

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
  /**
   * Adds addresses found later (a LAN scan); an address already known, or a known MAC, is not added
   * twice. A known MAC at a new address is driven there only while its own address is silent.
   */
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
 * a newer look replaces the waiting one. A time-out or refusal marks the device unreachable: its
 * address is probed every 2 s and it is sent its last look when it answers. An HTTP error is
 * reported and the device stays in use (a 503 "busy" is tried once more after 1 s if no newer look
 * came). A device is driven only at an address answering with its MAC: at another one only while
 * its own address is silent, and back at its own as soon as that answers with its MAC (`places.ts`).
 */
export function createWledDriver(options: WledDriverOptions): WledDriver {
  const timers = options.timers ?? systemTimers;
  const log = options.onLog ?? (() => undefined);
  const healthIntervalMs = options.healthIntervalMs ?? WLED_HEALTH_INTERVAL_MS;
  const timeout = options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs };
  const events = new DriverEvents();
  let closed = false;
  let healthTimer: unknown = null;
  const writes = createWledWrites({
    timers,
    ...timeout,
    busyRetryMs: options.busyRetryMs ?? WLED_BUSY_RETRY_MS,
    strobeGuardMs: options.strobeGuardMs ?? WLED_STROBE_GUARD_MS,
    pacedHalfPeriodMs: WLED_PACED_HALF_PERIOD_MS,
    events,
    isClosed: () => closed,
    onSilent: (slot, error) => places.failed(slot, error),
  });
  const places = createWledPlaces({
    timers,
    ...timeout,
    probeIntervalMs: options.probeIntervalMs ?? WLED_PROBE_INTERVAL_MS,
    healthIntervalMs,
    events,
    log,
    // A look that came while the device was away (or before it first answered), sent where it is now.
    onPlaced: (light) => {
      if (light.lastLook) void writes.lookOn(light, light.lastLook).catch(() => undefined);
    },
    onLost: (light) => {
      light.flashes.cancelAll();
      writes.dropNext(light);
    },
  });

  function ensureOpen(): void {
    if (closed) throw new LightError('not-configured', CLOSED);
  }

  /**
   * Runs one look per device; every device gets its look, then the first error (if any) is thrown.
   * An address not answering yet (listed by its address) keeps the look for the device it turns out
   * to be.
   */
  async function each(
    ids: readonly string[],
    look: LightStateCommand,
    send: (light: Light) => Promise<boolean>,
  ): Promise<void> {
    ensureOpen();
    const waiting = places.entries().flatMap((e) => (e.slot ? [e.slot] : []));
    const aimed = (id: string) => ids.length === 0 || ids.includes(id);
    for (const slot of waiting) if (aimed(placeholderId(slot))) slot.pendingLook = look;
    const unknown = ids.filter(
      (id) => !places.lights.some((l) => l.id === id) && !waiting.some((s) => placeholderId(s) === id),
    );
    if (unknown.length > 0)
      events.emit({ type: 'warning', message: `Unknown WLED lights: ${unknown.join(', ')}` });
    const results = await Promise.allSettled(places.lights.filter((l) => aimed(l.id)).map(send));
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
  }

  function scheduleHealth(): void {
    if (healthIntervalMs <= 0 || healthTimer !== null || closed) return;
    healthTimer = timers.setTimeout(() => {
      healthTimer = null;
      // Only idle devices where they are driven: a write in flight or a probe says it already.
      for (const light of places.lights)
        if (light.slot && !light.busy && !light.next && !light.slot.reading) void places.refresh(light.slot);
      scheduleHealth();
    }, healthIntervalMs);
  }

  async function connect(): Promise<LightDeviceInfo[]> {
    ensureOpen();
    await Promise.all(places.slots.map(places.refresh));
    scheduleHealth();
    return listWledEntries(places.entries());
  }

  places.add(options.addresses);

  return {
    provider: 'wled',
    nativeStrobe: true,
    // Blink at full speed changes about every 23 ms: SPEC's 50 ms half period is well within it.
    minStrobeHalfPeriodMs: () => 25,
    async listDevices() {
      // Only addresses never read yet: the others are read by their probe and the health check.
      await Promise.all(places.unread().map(places.refresh));
      return listWledEntries(places.entries());
    },
    connect,
    discover: connect,
    async addAddresses(addresses) {
      ensureOpen();
      await Promise.all(places.add(addresses).map(places.refresh));
      scheduleHealth();
      return listWledEntries(places.entries());
    },
    devices: () => places.entries().map(viewWledEntry),
    inFlight: () => places.lights.filter((l) => l.busy).length,
    async setState(ids, state) {
      requireLook(state.color, state.brightness);
      await each(ids, state, (l) => writes.lookOn(l, state));
    },
    async playStep(ids, step) {
      requireLook(step.color, step.brightness);
      if (step.kind === 'strobe') {
        requireLook(step.fromColor, step.brightness);
        if (!(step.periodMs > 0) || !(step.cycles > 0))
          throw new LightError('bad-request', 'A strobe needs a period and cycles above 0');
        return each(ids, solidWledLook(step), (l) => writes.strobeOn(l, step));
      }
      const look = {
        on: true,
        color: step.color,
        brightness: step.brightness,
        transitionMs: step.transitionMs,
      };
      return each(ids, look, (l) => writes.lookOn(l, look));
    },
    cancelPending() {
      for (const light of places.lights) {
        light.flashes.cancelAll();
        writes.dropNext(light);
      }
    },
    subscribe: (listener: DriverListener) => events.subscribe(listener),
    async close() {
      if (closed) return;
      closed = true;
      timers.clearTimeout(healthTimer);
      for (const light of places.lights) writes.stop(light);
      places.close();
    },
  };
}

const placeholderId = (slot: { address: WledAddress }) => `${slot.address.host}:${slot.address.port}`;

/** The hub's list: each device by its MAC, then each address not answering yet by the address. */
function listWledEntries(entries: readonly WledEntry[]): LightDeviceInfo[] {
  return entries.map(({ light, slot }) =>
    light
      ? {
          id: light.id,
          label: light.info.name,
          name: light.info.name,
          type: `WLED, ${light.info.ledCount} LEDs`,
          connected: light.slot !== null,
        }
      : {
          id: placeholderId(slot),
          label: `WLED ${slot.address.host}`,
          name: `WLED ${slot.address.host}`,
          type: 'WLED',
          connected: false,
        },
  );
}

function viewWledEntry({ light, slot }: WledEntry): WledDeviceView {
  return light
    ? {
        id: light.id,
        address: { ...(light.slot ?? light.home).address },
        info: light.info,
        effects: light.effects,
        reachable: light.slot !== null,
      }
    : {
        id: placeholderId(slot),
        address: { ...slot.address },
        info: null,
        effects: null,
        reachable: slot.error === null,
      };
}
