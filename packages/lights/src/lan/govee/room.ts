import {
  readEach,
  restoreEach,
  ROOM_READ_TIMEOUT_MS,
  savedNumber,
  withReadTimeout,
  type RoomStateDriver,
} from '../room-state.js';
import type { LanKit } from '../skeleton/lan-adapter.js';
import type { GoveeDevice } from './device.js';
import type { GoveeLookSender } from './look-sender.js';
import { GOVEE_STATUS_MESSAGE, type GoveeStatus } from './messages.js';

// "As it was" on Govee LAN (reference/nanoleaf-govee.md §2.1): a `devStatus` read (onOff,
// brightness, color, colorTemInKelvin). Giving it back is `turn` 0 for a device that was off (its
// colour is not written: a colour command may light it up, a flash in a dark room), else `turn` 1,
// `brightness`, then `colorwc` with its colour, and its white when it showed one (a kelvin above 0).

const envelope = (cmd: string, data: unknown) => JSON.stringify({ msg: { cmd, data } });
const byte = (v: number | null) => v !== null && Number.isInteger(v) && v >= 0 && v <= 255;

/** The datagrams that give a device back its saved status, or null for a status no device gives. */
export function goveeRestoreCommands(state: Record<string, unknown>): string[] | null {
  if (state.onOff === 0) return [envelope('turn', { value: 0 })];
  const brightness = savedNumber(state, 'brightness');
  const kelvin = savedNumber(state, 'colorTemInKelvin') ?? 0;
  const color = (state.color ?? {}) as Record<string, unknown>;
  const [r, g, b] = [savedNumber(color, 'r'), savedNumber(color, 'g'), savedNumber(color, 'b')];
  if (state.onOff !== 1 || brightness === null || !byte(r) || !byte(g) || !byte(b)) return null;
  const white = Math.max(0, Math.round(kelvin));
  return [
    envelope('turn', { value: 1 }),
    envelope('brightness', { value: Math.min(100, Math.max(1, Math.round(brightness))) }),
    envelope('colorwc', { color: { r, g, b }, colorTemInKelvin: 0 }),
    // A white at a temperature: the colour first (what it shows when set to a colour again), then the white.
    ...(white > 0 ? [envelope('colorwc', { color: { r, g, b }, colorTemInKelvin: white })] : []),
  ];
}

export interface GoveeRoomState extends RoomStateDriver {
  /** A `devStatus` answer from a device: the reads waiting for it end. */
  statusFrom(device: GoveeDevice, status: GoveeStatus): void;
}

export function createGoveeRoomState(options: {
  kit: LanKit<string>;
  devices: ReadonlyMap<string, GoveeDevice>;
  sender: GoveeLookSender;
}): GoveeRoomState {
  const { kit, devices, sender } = options;
  const waiting = new Map<string, ((status: GoveeStatus) => void)[]>();

  function readStatus(device: GoveeDevice): Promise<GoveeStatus> {
    let reader: (status: GoveeStatus) => void = () => undefined;
    const answer = new Promise<GoveeStatus>((resolve) => {
      reader = resolve;
      waiting.set(device.id, [...(waiting.get(device.id) ?? []), resolve]);
    });
    void kit.queue.submit(device.id, [GOVEE_STATUS_MESSAGE]).catch(() => undefined);
    return withReadTimeout(answer, ROOM_READ_TIMEOUT_MS, `Govee device "${device.label}"`).finally(() => {
      const left = (waiting.get(device.id) ?? []).filter((r) => r !== reader);
      if (left.length > 0) waiting.set(device.id, left);
      else waiting.delete(device.id);
    });
  }

  return {
    statusFrom(device, status) {
      const readers = waiting.get(device.id) ?? [];
      waiting.delete(device.id);
      for (const resolve of readers) resolve(status);
    },
    readStates: (ids) =>
      readEach(ids.length > 0 ? ids : [...devices.keys()], async (id) => {
        const device = devices.get(id);
        if (!device) return null;
        if (!kit.reach.isReachable(id)) throw new Error('not answering');
        const status = await readStatus(device);
        return {
          readable: true,
          on: status.onOff === 1,
          state: { ...status, color: { ...status.color } },
        };
      }),
    restoreStates: (saved) =>
      restoreEach(saved, async (id, state) => {
        const device = devices.get(id);
        if (!device) throw new Error('This Govee device was not found on the network');
        if (!kit.reach.isReachable(id)) throw new Error(`Govee device "${device.label}" is not answering`);
        const commands = goveeRestoreCommands(state);
        if (!commands) throw new Error('The saved Govee status is not one a device gives');
        // Its look is over: nothing more is sent or confirmed for it, and it is not sent again.
        sender.release(device);
        device.look = null;
        kit.looks.release(id);
        await kit.queue.submit(id, commands);
      }),
  };
}
