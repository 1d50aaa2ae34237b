import type { LightDeviceInfo } from '../../driver.js';
import { LightError } from '../../errors.js';
import { systemTimers } from '../../timers.js';
import type { RoomStateDriver } from '../room-state.js';
import { createLanDriver, type LanAdapter, type LanKit } from '../skeleton/lan-driver.js';
import { CONTROLLER_KEY, createNanoleafController, type NanoleafController } from './controller.js';
import {
  NANOLEAF_HEALTH_INTERVAL_MS,
  NANOLEAF_PROBE_INTERVAL_MS,
  NANOLEAF_STROBE_GUARD_MS,
  type NanoleafDriver,
  type NanoleafDriverOptions,
} from './driver-types.js';
import { NANOLEAF_FRAME_UNIT_MS } from './effects.js';
import { createNanoleafRoomState } from './room.js';
import { createNanoleafWrites, type NanoleafWrite } from './writes.js';

export * from './driver-types.js';

/**
 * One Nanoleaf controller (provider `nanoleaf`) over its local OpenAPI: one device, one token. A
 * look is one `PUT /state`; a strobe is one looping `custom` effect (`PUT /effects`) built from the
 * panel layout, so the player sends one command per strobe (`nativeStrobe`). One request in flight;
 * the writes queued behind it belong to the latest look only (a newer look replaces them). A
 * dropped connection is tried once more; a time-out or refusal marks the device unreachable, it is
 * probed every 2 s and sent its last look when it answers; an idle one is read every 30 s, so one
 * that left the network is reported before the next flag. A looping strobe that no newer look ends
 * (paused mid-flag) is set solid 1 s after its length. 401 ends the driver: pair again. So does
 * another serial number at the address (another controller there): nothing more is sent to it.
 *
 * The adapter on the LAN skeleton (`../skeleton/`): its one row is the controller (`controller.ts`:
 * its reads, probe and stops), a look is its writes (`writes.ts`).
 */
export function createNanoleafDriver(options: NanoleafDriverOptions): NanoleafDriver {
  requireToken(options.token);
  const { driver, kit, adapter } = createLanDriver({
    provider: 'nanoleaf',
    lightsWord: 'Nanoleaf lights',
    closedMessage: 'This Nanoleaf driver is closed',
    timers: options.timers ?? systemTimers,
    log: options.onLog ?? (() => undefined),
    nativeStrobe: true,
    // animData's T counts in 100 ms: the fastest on/off is 0.2 s (SPEC's 0.1 s cannot be shown).
    minStrobeHalfPeriodMs: () => NANOLEAF_FRAME_UNIT_MS,
    paceMs: 0,
    healthIntervalMs: options.healthIntervalMs ?? NANOLEAF_HEALTH_INTERVAL_MS,
    adapter: (kit) => createNanoleafAdapter(kit, options),
  });
  const { controller } = adapter;
  // A silent controller is listed unreachable, not an error (the skeleton's `discover` would throw).
  const connect = async () => {
    await controller.connect();
    return [toNanoleafInfo(controller)];
  };
  return {
    ...driver,
    ...adapter.room,
    provider: 'nanoleaf',
    get connected() {
      return controller.reachable() && controller.active();
    },
    get authorised() {
      return controller.authorised();
    },
    get replaced() {
      return controller.replaced();
    },
    connect,
    discover: connect,
    info: () => controller.info(),
    address: () => controller.address(),
    moveTo: (next) => controller.moveTo(next),
    pendingCount: () => kit.queue.waiting(CONTROLLER_KEY) + kit.looks.pendingFlashes(),
  };
}

function requireToken(token: string): void {
  if (!/^[A-Za-z0-9]{16,64}$/.test(token))
    throw new LightError(
      'bad-request',
      'A Nanoleaf token is 16–64 letters and digits (the one pairing gave)',
    );
}

function createNanoleafAdapter(
  kit: LanKit<NanoleafWrite>,
  options: NanoleafDriverOptions,
): LanAdapter<NanoleafController, NanoleafWrite> & {
  controller: NanoleafController;
  room: RoomStateDriver;
} {
  const controller = createNanoleafController(kit, {
    address: options.address,
    token: options.token,
    known: options.known,
    timeoutMs: options.timeoutMs,
    probeIntervalMs: options.probeIntervalMs ?? NANOLEAF_PROBE_INTERVAL_MS,
  });
  const writes = createNanoleafWrites({
    kit,
    controller,
    timeoutMs: options.timeoutMs,
    strobeGuardMs: options.strobeGuardMs ?? NANOLEAF_STROBE_GUARD_MS,
  });
  const room = createNanoleafRoomState({
    kit,
    controller,
    timeoutMs: options.timeoutMs,
    forgetShown: () => writes.forgetShown(),
  });
  return {
    controller,
    room,
    find: () => controller.read(),
    // The first list reads the controller (unless it is silent: listed unreachable then).
    beforeList: async () => {
      if (!controller.info() && controller.reachable()) await controller.connect();
    },
    devices: () => [controller],
    idOf: () => CONTROLLER_KEY,
    toInfo: toNanoleafInfo,
    show: (_, look) => writes.lookOn(look),
    strobe: (_, step) => writes.strobeOn(step),
    send: (_, write) => writes.put(write),
    // Never beside a read: a write must not follow the read that shows another controller.
    ready: () => !controller.reading(),
    targets(ids) {
      if (ids.length === 0 || ids.includes(controller.id())) return [controller];
      kit.events.emit({ type: 'warning', message: `Unknown Nanoleaf lights: ${ids.join(', ')}` });
      return [];
    },
    checkHealth() {
      // Only while idle and reachable: a write in flight or the probe says it already.
      const idle = !kit.queue.busy(CONTROLLER_KEY) && kit.queue.waiting(CONTROLLER_KEY) === 0;
      if (controller.reachable() && idle && controller.active())
        void controller.read().catch(() => undefined);
    },
    onLost() {
      writes.forgetShown();
      controller.probeLater();
    },
    close: () => controller.close(),
  };
}

function toNanoleafInfo(controller: NanoleafController): LightDeviceInfo {
  const name = controller.name();
  return {
    id: controller.id(),
    label: name,
    name,
    type: controller.info()?.model ?? 'nanoleaf',
    connected: controller.reachable() && controller.active(),
  };
}
