import type { DriverEvents } from '../../driver.js';
import { LightError, type LightErrorKind } from '../../errors.js';
import type { Timers } from '../../timers.js';
import {
  addressText,
  answeredId,
  createLight,
  createSlot,
  placeWledLight,
  readWledDevice,
  sameAddress,
  WLED_DEVICES_PER_ADDRESS,
  type Light,
  type Slot,
} from './device.js';
import type { WledAddress } from './http.js';

// Which WLED device answers where, and where each is driven: the addresses the driver asks, the
// devices they answer as, and the rule that moves a device from one address to another.

export interface WledPlacesOptions {
  timers: Timers;
  timeoutMs?: number;
  probeIntervalMs: number;
  healthIntervalMs: number;
  events: DriverEvents;
  log: (message: string) => void;
  /** A device is driven at an address again, or at another one: its last look goes there. */
  onPlaced: (light: Light) => void;
  /** A device is driven nowhere now: what waits for it is dropped. */
  onLost: (light: Light) => void;
}

/** One row of the device list: a device, or an address that has not answered yet. */
export type WledEntry = { light: Light; slot?: undefined } | { slot: Slot; light?: undefined };

export interface WledPlaces {
  readonly lights: readonly Light[];
  /** Every address given or found, in that order. */
  readonly slots: readonly Slot[];
  /** Adds the addresses not known yet; returns the new ones. */
  add(addresses: readonly WledAddress[]): Slot[];
  /** Asks an address what it is and places every device by the answer. */
  refresh: (slot: Slot) => Promise<void>;
  /** A write to this address failed: it does not answer (its device is driven nowhere for now). */
  failed(slot: Slot, error: LightError): void;
  /** Addresses never asked, or asked with no answer yet and no error: read them when listing. */
  unread(): Slot[];
  /** Devices by the order of the address each was first seen at, then addresses not answering yet. */
  entries(): WledEntry[];
  close(): void;
}

/**
 * The addresses and devices of one WLED driver. Each address is asked on its own: one that does not
 * answer every probe interval, one that answers wrongly or for a device driven elsewhere now and
 * then, one a device is driven at by the driver's health check. After each answer every device is
 * placed by `placeWledLight`; an address answering with a known device's MAC first has that
 * device's own address asked again, so a move is trusted only while the old address is silent.
 */
export function createWledPlaces(options: WledPlacesOptions): WledPlaces {
  const { timers, events, log } = options;
  const slots: Slot[] = [];
  const lights: Light[] = [];
  /** Orders questions and answers: which came after which. */
  let clock = 0;
  let closed = false;

  const nameOf = (light: Light) => light.info.name;

  /** One read at a time per address; the answer (or the failure) is kept on the slot. */
  function ask(slot: Slot): Promise<void> {
    slot.reading ??= (async () => {
      const asked = (clock += 1);
      try {
        const seen = await readWledDevice(slot.address, slot.agent, options.timeoutMs);
        if (closed) return;
        slot.seen = seen;
        slot.error = null;
        slot.wrong = false;
        slot.answeredAt = clock += 1;
      } catch (error) {
        const light = error instanceof LightError ? error : new LightError('network', String(error));
        silent(slot, light, light.kind !== 'network' && light.kind !== 'timeout');
      } finally {
        slot.checkedAt = asked;
      }
    })().finally(() => {
      slot.reading = null;
    });
    return slot.reading;
  }

  /** Not answering (or not as WLED). An address that never answered is reported itself. */
  function silent(slot: Slot, error: LightError, wrong: boolean): void {
    const first = slot.answeredAt === 0 && slot.error === null;
    slot.seen = null;
    slot.error = error;
    slot.wrong = wrong;
    if (!first) return;
    const message = `WLED "WLED ${slot.address.host}" ${wrong ? 'answered wrongly' : 'is not answering'} (${error.message})`;
    log(`${message} at ${addressText(slot.address)}`);
    events.emit({ type: 'error', error: { kind: error.kind, message } });
  }

  async function refresh(slot: Slot): Promise<void> {
    await ask(slot);
    if (closed) return;
    const id = answeredId(slot);
    const claimed = lights.find((l) => l.id === id && l.home !== slot && l.slot !== slot);
    // Another address answers with a known device's MAC: that device's own address is asked first.
    if (claimed) await ask(claimed.home);
    if (!closed) settle();
  }

  /** New devices from the answers, every device placed, every address's next read planned. */
  function settle(): void {
    addNewLights(slots, lights, options.onLost);
    for (const light of lights) place(light, placeWledLight(light, slots));
    for (const slot of slots) scheduleProbe(slot);
  }

  function place(light: Light, target: Slot | null): void {
    const from = light.slot;
    if (target?.seen) {
      light.info = target.seen.info;
      light.effects = target.seen.effects;
      if (target.seen.info.live && !light.warnedLive) {
        light.warnedLive = true;
        events.emit({
          type: 'warning',
          message: `WLED "${nameOf(light)}" shows another app's live stream: flags show once that stream ends`,
        });
      }
    }
    if (target === from) return;
    light.slot = target;
    if (target === null) return lost(light, from);
    const where = addressText(target.address);
    if (target !== light.home)
      log(`WLED "${nameOf(light)}" answers at ${where}, not at its own ${addressText(light.home.address)}`);
    else if (from !== null) log(`WLED "${nameOf(light)}" is back at its own ${where}`);
    else if (light.placedBefore) log(`WLED "${nameOf(light)}" answers again`);
    light.placedBefore = true;
    options.onPlaced(light);
  }

  function lost(light: Light, from: Slot | null): void {
    options.onLost(light);
    if (!from) return;
    const { message, logLine, kind } = describeLoss(light, from);
    log(logLine);
    events.emit({ type: 'error', error: { kind, message } });
  }

  function scheduleProbe(slot: Slot): void {
    if (slot.probe !== null || closed || lights.some((l) => l.slot === slot)) return;
    // Silent: asked every probe interval. Answering wrongly, or as a device driven elsewhere while
    // no device first seen here waits for it: now and then.
    const waiting = lights.some((l) => l.home === slot && l.slot === null);
    const seldom = slot.wrong || (slot.seen !== null && !waiting);
    slot.probe = timers.setTimeout(
      () => {
        slot.probe = null;
        void refresh(slot);
      },
      seldom ? Math.max(options.probeIntervalMs, options.healthIntervalMs) : options.probeIntervalMs,
    );
  }

  return {
    lights,
    slots,
    add(addresses) {
      const added: Slot[] = [];
      for (const address of addresses)
        if (![...slots, ...added].some((s) => sameAddress(s.address, address)))
          added.push(createSlot(address));
      slots.push(...added);
      return added;
    },
    refresh,
    failed(slot, error) {
      if (slot.seen === null || closed) return;
      silent(slot, error, false);
      settle();
    },
    unread: () => slots.filter((s) => s.answeredAt === 0 && s.error === null),
    entries() {
      const rows: WledEntry[] = [];
      for (const slot of slots) {
        for (const light of lights) if (light.home === slot) rows.push({ light });
        if (slot.answeredAt === 0) rows.push({ slot });
      }
      return rows;
    },
    close() {
      closed = true;
      for (const slot of slots) {
        timers.clearTimeout(slot.probe);
        slot.probe = null;
        slot.agent.destroy();
      }
    },
  };
}

/**
 * A device for each MAC answered that none is known by, first seen at that address. At most
 * `WLED_DEVICES_PER_ADDRESS` per address: the oldest there that is driven nowhere gives its place.
 */
function addNewLights(slots: readonly Slot[], lights: Light[], onDropped: (light: Light) => void): void {
  for (const slot of slots) {
    const id = answeredId(slot);
    if (id === null || !slot.seen || lights.some((l) => l.id === id)) continue;
    const homed = lights.filter((l) => l.home === slot);
    if (homed.length >= WLED_DEVICES_PER_ADDRESS) {
      const oldest = homed.find((l) => l.slot === null);
      if (!oldest) continue;
      lights.splice(lights.indexOf(oldest), 1);
      onDropped(oldest);
    }
    lights.push(createLight(slot, slot.seen));
  }
}

/** Why a device is driven nowhere now: its address is silent, answers wrongly, or as another device. */
function describeLoss(light: Light, from: Slot): { message: string; logLine: string; kind: LightErrorKind } {
  const other = answeredId(from);
  const where = addressText(from.address);
  if (other !== null) {
    const message = `WLED "${light.info.name}" is not at ${where}: another device (${other}) answers there`;
    return { message, logLine: message, kind: 'not-found' };
  }
  const message = `WLED "${light.info.name}" ${from.wrong ? 'answered wrongly' : 'is not answering'} (${from.error?.message ?? 'no answer'})`;
  return { message, logLine: `${message} at ${where}`, kind: from.error?.kind ?? 'network' };
}
