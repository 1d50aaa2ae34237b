import type { LightDeviceInfo, LightStateCommand } from '../../driver.js';
import { systemTimers } from '../../timers.js';
import { solidLookOf } from '../skeleton/device-looks.js';
import { createLanDriver, type LanAdapter, type LanKit } from '../skeleton/lan-driver.js';
import type { Light, Slot } from './device.js';
import {
  WLED_BUSY_RETRY_MS,
  WLED_HEALTH_INTERVAL_MS,
  WLED_PACED_HALF_PERIOD_MS,
  WLED_PROBE_INTERVAL_MS,
  WLED_STROBE_GUARD_MS,
  type WledDeviceView,
  type WledDriver,
  type WledDriverOptions,
} from './driver-types.js';
import type { WledAddress } from './http.js';
import { createWledPlaces, type WledEntry, type WledPlaces } from './places.js';
import { createWledRoomState } from './room.js';
import { createWledWrites, type WledWrite } from './writes.js';

export * from './driver-types.js';

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
 *
 * The adapter on the LAN skeleton (`../skeleton/`): its rows are the devices and the addresses not
 * answering yet (`WledEntry`), a look is one write, the places say where a device is reachable.
 */
export function createWledDriver(options: WledDriverOptions): WledDriver {
  const healthIntervalMs = options.healthIntervalMs ?? WLED_HEALTH_INTERVAL_MS;
  const { driver, kit, adapter } = createLanDriver({
    provider: 'wled',
    lightsWord: 'WLED lights',
    closedMessage: 'This WLED driver is closed',
    timers: options.timers ?? systemTimers,
    log: options.onLog ?? (() => undefined),
    nativeStrobe: true,
    // Blink at full speed changes about every 23 ms: SPEC's 50 ms half period is well within it.
    minStrobeHalfPeriodMs: () => 25,
    paceMs: 0,
    healthIntervalMs,
    adapter: (kit) => createWledAdapter(kit, options, healthIntervalMs),
  });
  const { places } = adapter;
  return {
    ...driver,
    ...createWledRoomState({ kit, lights: () => places.lights, timeoutMs: options.timeoutMs }),
    provider: 'wled',
    connect: driver.discover,
    async addAddresses(addresses) {
      kit.ensureUsable();
      await Promise.all(places.add(addresses).map(places.refresh));
      kit.startHealth();
      return places.entries().map(toWledInfo);
    },
    devices: () => places.entries().map(viewWledEntry),
    inFlight: () => kit.queue.inFlight(),
  };
}

function createWledAdapter(
  kit: LanKit<WledWrite>,
  options: WledDriverOptions,
  healthIntervalMs: number,
): LanAdapter<WledEntry, WledWrite> & { places: WledPlaces } {
  const timeout = options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs };
  const writes = createWledWrites({
    kit,
    ...timeout,
    busyRetryMs: options.busyRetryMs ?? WLED_BUSY_RETRY_MS,
    strobeGuardMs: options.strobeGuardMs ?? WLED_STROBE_GUARD_MS,
    pacedHalfPeriodMs: WLED_PACED_HALF_PERIOD_MS,
    onSilent: (slot, error) => places.failed(slot, error),
  });
  const places = createWledPlaces({
    timers: kit.timers,
    ...timeout,
    probeIntervalMs: options.probeIntervalMs ?? WLED_PROBE_INTERVAL_MS,
    healthIntervalMs,
    events: kit.events,
    log: kit.log,
    // A look that came while the device was away (or before it first answered), sent where it is now.
    onPlaced: (light) => {
      const look = kit.looks.last(light.id) ?? light.firstLook;
      if (look) void writes.lookOn(light, look).catch(() => undefined);
    },
    onLost: (light) => {
      kit.looks.cancelFlashes(light.id);
      kit.queue.drop(light.id);
    },
  });
  places.add(options.addresses);
  const lightOf = (id: string): Light | undefined => places.lights.find((l) => l.id === id);

  return {
    places,
    find: async () => void (await Promise.all(places.slots.map(places.refresh))),
    // Only addresses never read yet: the others are read by their probe and the health check.
    beforeList: async () => void (await Promise.all(places.unread().map(places.refresh))),
    devices: () => places.entries(),
    idOf: (entry) => (entry.light ? entry.light.id : placeholderId(entry.slot)),
    toInfo: toWledInfo,
    // An address not answering yet keeps the look for the device it turns out to be.
    show: ({ light, slot }, look) => (light ? writes.lookOn(light, look) : keep(slot, look)),
    strobe: ({ light, slot }, step) => (light ? writes.strobeOn(light, step) : keep(slot, solidLookOf(step))),
    send: (id, write) => {
      const light = lightOf(id);
      return light ? writes.post(light, write) : Promise.resolve();
    },
    reachable: (id) => lightOf(id)?.slot != null,
    checkHealth() {
      // Only idle devices where they are driven: a write in flight or a probe says it already.
      for (const light of places.lights)
        if (
          light.slot &&
          !kit.queue.busy(light.id) &&
          kit.queue.waiting(light.id) === 0 &&
          !light.slot.reading
        )
          void places.refresh(light.slot);
    },
    close: () => places.close(),
  };
}

function keep(slot: Slot, look: LightStateCommand): Promise<void> {
  slot.pendingLook = look;
  return Promise.resolve();
}
const placeholderId = (slot: { address: WledAddress }): string => `${slot.address.host}:${slot.address.port}`;

/** The hub's list: each device by its MAC, then each address not answering yet by the address. */
function toWledInfo({ light, slot }: WledEntry): LightDeviceInfo {
  if (light)
    return {
      id: light.id,
      label: light.info.name,
      name: light.info.name,
      type: `WLED, ${light.info.ledCount} LEDs`,
      connected: light.slot !== null,
    };
  const name = `WLED ${slot.address.host}`;
  return { id: placeholderId(slot), label: name, name, type: 'WLED', connected: false };
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
