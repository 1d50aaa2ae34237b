import type { RemoteInfo } from 'node:dgram';
import { performance } from 'node:perf_hooks';
import { applyGoveeCommand, parseGoveeMessage } from './govee-answers.js';
import {
  createGoveeDevice,
  type GoveeDevice,
  type GoveeDeviceFault,
  type GoveeReceived,
  patchGoveeFault,
  resetGoveeDevice,
  viewGoveeDevice,
  type VirtualGoveeDeviceView,
} from './govee-device-model.js';
import { findFreeUdpPort, startUdpDeviceSet } from './udp-device-set.js';

export { findFreeUdpPort } from './udp-device-set.js';
export type {
  GoveeDeviceFault,
  GoveeReceived,
  GoveeRgbView,
  VirtualGoveeDeviceView,
} from './govee-device-model.js';

export const GOVEE_LAN_DEMO_DEVICE_COUNT = 3;
const LOG_LIMIT = 1000;

export interface VirtualGoveeDevicesOptions {
  count?: number;
  /** The shared scan port (the role of 4001); 0 = ephemeral. */
  scanPort?: number;
  /** Where scan and status replies go, at the requester's IP (the role of 4002); 0 = a free port. */
  replyPort?: number;
  /** Indexes of devices whose scan reply leaves out `ip`. */
  omitIp?: readonly number[];
  now?: () => number;
  /** Chance source for loss and jitter (tests may pass a fixed sequence). */
  random?: () => number;
}

export interface VirtualGoveeDevices {
  host: string;
  scanPort: number;
  replyPort: number;
  list(): VirtualGoveeDeviceView[];
  get(id: string): VirtualGoveeDeviceView | undefined;
  log(id: string): GoveeReceived[];
  /** The "LAN Control" switch in the Govee Home app: off → silent. */
  setLanControl(id: string | undefined, on: boolean): void;
  setFault(id: string | undefined, fault: Partial<GoveeDeviceFault>): void;
  /** A reboot that comes back at a new address: on loopback, a new command port. */
  reboot(id: string): Promise<VirtualGoveeDeviceView>;
  reset(): void;
  close(): Promise<void>;
}

/**
 * Virtual Govee devices on the LAN API (reference/nanoleaf-govee.md §2.1, §3), on 127.0.0.1: one
 * shared scan port answers `scan` for every device whose LAN Control is on (each reply from that
 * device's own command socket to the requester's IP at the reply port, as a real device replies to
 * 4002, not the source port); each device takes `turn`, `brightness`, `colorwc` and `devStatus` on
 * its own command port (ports stand in for the per-device IPs of a real LAN, decision 016).
 */
export async function startVirtualGoveeDevices(
  options: VirtualGoveeDevicesOptions = {},
): Promise<VirtualGoveeDevices> {
  const now = options.now ?? Date.now;
  const random = options.random ?? Math.random;
  const omitIp = new Set(options.omitIp ?? []);
  const replyPort = options.replyPort || (await findFreeUdpPort());

  const set = await startUdpDeviceSet<GoveeDevice>({
    sharedPort: options.scanPort ?? 0,
    count: options.count ?? GOVEE_LAN_DEMO_DEVICE_COUNT,
    create: (i, socket) => createGoveeDevice(i, socket, omitIp.has(i)),
    socketOf: (device) => device.socket,
    onSharedMessage: (datagram, from) => receive('scan', undefined, datagram, from),
    onDeviceMessage: (device, datagram, from) => receive('command', device, datagram, from),
  });
  const { shared: scanSocket, devices } = set;

  function reply(device: GoveeDevice, cmd: string, data: unknown, to: RemoteInfo): void {
    if (set.closed) return;
    device.socket.send(JSON.stringify({ msg: { cmd, data } }), replyPort, to.address);
  }

  function receive(
    via: GoveeReceived['via'],
    own: GoveeDevice | undefined,
    datagram: Buffer,
    from: RemoteInfo,
  ) {
    const message = parseGoveeMessage(datagram);
    if (!message) return;
    const { cmd, data } = message;
    // The scan port takes only scans, for every device; a command port only its device's commands.
    if (via === 'scan' && cmd !== 'scan') return;
    if (via === 'command' && cmd === 'scan') return;
    for (const device of own ? [own] : devices) {
      const entry: GoveeReceived = {
        at: now(),
        monotonicMs: performance.now(),
        from: `${from.address}:${from.port}`,
        via,
        cmd,
        data: message.sent,
        ignored: !device.lanControl
          ? 'lan-control-off'
          : device.fault.lossPercent > 0 && random() * 100 < device.fault.lossPercent
            ? 'lost'
            : null,
      };
      device.received += 1;
      device.log.push(entry);
      if (device.log.length > LOG_LIMIT) device.log.splice(0, device.log.length - LOG_LIMIT);
      if (entry.ignored) continue;
      const handle = () => {
        if (set.closed) return;
        if (device.fault.ignoreCommands && cmd !== 'scan' && cmd !== 'devStatus') {
          entry.ignored = 'ignores-commands';
          return;
        }
        const answer = (replyCmd: string, replyData: unknown) => reply(device, replyCmd, replyData, from);
        if (!applyGoveeCommand(device, cmd, data, answer)) entry.ignored = 'invalid';
      };
      const copies = device.fault.duplicates ? 2 : 1;
      for (let copy = 0; copy < copies; copy += 1) {
        const wait = device.fault.delayMs + random() * device.fault.jitterMs;
        if (wait <= 0) handle();
        else set.later(handle, wait);
      }
    }
  }

  const find = (id: string) => devices.find((d) => d.id.toLowerCase() === id.toLowerCase());
  const pick = (id: string | undefined) =>
    id === undefined ? devices : devices.filter((d) => d === find(id));

  return {
    host: scanSocket.address().address,
    scanPort: scanSocket.address().port,
    replyPort,
    list: () => devices.map(viewGoveeDevice),
    get: (id) => {
      const device = find(id);
      return device ? viewGoveeDevice(device) : undefined;
    },
    log: (id) => [...(find(id)?.log ?? [])],
    setLanControl(id, on) {
      for (const device of pick(id)) device.lanControl = on;
    },
    setFault(id, fault) {
      for (const device of pick(id)) device.fault = patchGoveeFault(device.fault, fault);
    },
    async reboot(id) {
      const device = find(id);
      if (!device) throw new Error(`no Govee device ${id}`);
      // A power cycle restores the last look (Govee devices keep it), on the new address.
      await set.rebind(device, (socket) => {
        device.socket = socket;
        device.commandPort = socket.address().port;
        device.reboots += 1;
      });
      return viewGoveeDevice(device);
    },
    reset() {
      for (const device of devices) resetGoveeDevice(device);
    },
    close: () => set.close(),
  };
}
