import type { RemoteInfo, Socket } from 'node:dgram';
import { performance } from 'node:perf_hooks';
import { LAN_SIM_HOST } from './lan-host.js';
import { findFreeUdpPort, startUdpDeviceSet } from './udp-device-set.js';

export { findFreeUdpPort } from './udp-device-set.js';

export const GOVEE_LAN_DEMO_DEVICE_COUNT = 3;
const LOG_LIMIT = 1000;

export interface GoveeRgbView {
  r: number;
  g: number;
  b: number;
}

export interface GoveeDeviceFault {
  /** Share of received datagrams lost, 0–100 (neither applied nor answered). */
  lossPercent: number;
  /** Every datagram is handled twice (a duplicate on the network). */
  duplicates: boolean;
  /** Each datagram is handled this long after it arrives… */
  delayMs: number;
  /** …plus a random 0–jitterMs more, so later datagrams can overtake earlier ones (reorder). */
  jitterMs: number;
  /** Takes no `turn`/`brightness`/`colorwc`, but answers scans and `devStatus`. */
  ignoreCommands: boolean;
}

export interface GoveeReceived {
  /** The simulator's clock (ms since epoch) and a monotonic high-resolution time (ms). */
  at: number;
  monotonicMs: number;
  from: string;
  /** The socket it came to: the shared scan port or the device's command port. */
  via: 'scan' | 'command';
  cmd: string;
  data: unknown;
  /** Why it was not applied, if it was not. */
  ignored: 'lan-control-off' | 'lost' | 'ignores-commands' | 'invalid' | null;
}

export interface VirtualGoveeDeviceView {
  /** The 8-byte hex id its scan reply names (`device`). */
  id: string;
  sku: string;
  label: string;
  address: string;
  /** Its command port (4003 on a real LAN; its own port on loopback). */
  commandPort: number;
  lanControl: boolean;
  /** Whether its scan reply leaves out `ip` (some models do). */
  omitsIp: boolean;
  on: boolean;
  brightness: number;
  color: GoveeRgbView;
  /** Non-zero: white at this colour temperature (the colour is ignored). */
  kelvin: number;
  /** What it shows, brightness applied (`#000000` when off). */
  hex: string;
  fault: GoveeDeviceFault;
  received: number;
  reboots: number;
}

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

interface Device {
  id: string;
  sku: string;
  label: string;
  socket: Socket;
  commandPort: number;
  lanControl: boolean;
  omitsIp: boolean;
  on: boolean;
  brightness: number;
  color: GoveeRgbView;
  kelvin: number;
  fault: GoveeDeviceFault;
  log: GoveeReceived[];
  received: number;
  reboots: number;
}

/** Models from Govee's LAN guide (reference §2.1): a strip, a bulb, a floor lamp, then more. */
const MODELS: { sku: string; kind: string }[] = [
  { sku: 'H6159', kind: 'Strip' },
  { sku: 'H6008', kind: 'Bulb' },
  { sku: 'H6076', kind: 'Floor lamp' },
  { sku: 'H6163', kind: 'Strip' },
  { sku: 'H619A', kind: 'Strip' },
  { sku: 'H6072', kind: 'Floor lamp' },
  { sku: 'H61A2', kind: 'Neon strip' },
  { sku: 'H7021', kind: 'String lights' },
  { sku: 'H7055', kind: 'Pathway lights' },
];
const NO_FAULT: GoveeDeviceFault = {
  lossPercent: 0,
  duplicates: false,
  delayMs: 0,
  jitterMs: 0,
  ignoreCommands: false,
};
const WARM_WHITE = { on: true, brightness: 100, color: { r: 255, g: 255, b: 255 }, kelvin: 3000 };

function idOf(index: number): string {
  const n = index + 1;
  return `D4:AD:FC:60:00:00:${(n >> 8).toString(16).padStart(2, '0')}:${(n & 0xff).toString(16).padStart(2, '0')}`.toUpperCase();
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isByte = (value: unknown): value is number =>
  typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 255;

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

  const set = await startUdpDeviceSet<Device>({
    sharedPort: options.scanPort ?? 0,
    count: options.count ?? GOVEE_LAN_DEMO_DEVICE_COUNT,
    create(i, socket) {
      const model = MODELS[i % MODELS.length]!;
      return {
        id: idOf(i),
        sku: model.sku,
        label: `${model.kind} ${i + 1}`,
        socket,
        commandPort: socket.address().port,
        lanControl: true,
        omitsIp: omitIp.has(i),
        ...structuredClone(WARM_WHITE),
        fault: { ...NO_FAULT },
        log: [],
        received: 0,
        reboots: 0,
      };
    },
    socketOf: (device) => device.socket,
    onSharedMessage: (datagram, from) => receive('scan', undefined, datagram, from),
    onDeviceMessage: (device, datagram, from) => receive('command', device, datagram, from),
  });
  const { shared: scanSocket, devices } = set;

  function hex(device: Device): string {
    if (!device.on) return '#000000';
    const scale = device.brightness / 100;
    const base = device.kelvin > 0 ? { r: 255, g: 255, b: 255 } : device.color;
    return `#${[base.r, base.g, base.b]
      .map((c) =>
        Math.round(c * scale)
          .toString(16)
          .padStart(2, '0'),
      )
      .join('')}`;
  }

  function view(device: Device): VirtualGoveeDeviceView {
    return {
      id: device.id,
      sku: device.sku,
      label: device.label,
      address: LAN_SIM_HOST,
      commandPort: device.commandPort,
      lanControl: device.lanControl,
      omitsIp: device.omitsIp,
      on: device.on,
      brightness: device.brightness,
      color: { ...device.color },
      kelvin: device.kelvin,
      hex: hex(device),
      fault: { ...device.fault },
      received: device.received,
      reboots: device.reboots,
    };
  }

  function reply(device: Device, cmd: string, data: unknown, to: RemoteInfo): void {
    if (set.closed) return;
    device.socket.send(JSON.stringify({ msg: { cmd, data } }), replyPort, to.address);
  }

  /** Applies one command; false when its data is not what Govee's API takes. */
  function apply(device: Device, cmd: string, data: Record<string, unknown>, from: RemoteInfo): boolean {
    switch (cmd) {
      case 'scan':
        if (data.account_topic !== 'reserve') return false;
        reply(
          device,
          'scan',
          {
            ...(device.omitsIp ? {} : { ip: LAN_SIM_HOST }),
            device: device.id,
            sku: device.sku,
            bleVersionHard: '3.01.01',
            bleVersionSoft: '1.03.01',
            wifiVersionHard: '1.00.10',
            wifiVersionSoft: '1.02.03',
          },
          from,
        );
        return true;
      case 'devStatus':
        reply(
          device,
          'devStatus',
          {
            onOff: device.on ? 1 : 0,
            brightness: device.brightness,
            color: { ...device.color },
            colorTemInKelvin: device.kelvin,
          },
          from,
        );
        return true;
      case 'turn':
        if (data.value !== 0 && data.value !== 1) return false;
        device.on = data.value === 1;
        return true;
      case 'brightness':
        if (
          typeof data.value !== 'number' ||
          !Number.isInteger(data.value) ||
          data.value < 1 ||
          data.value > 100
        )
          return false;
        device.brightness = data.value;
        return true;
      case 'colorwc': {
        const kelvin = data.colorTemInKelvin ?? 0;
        if (typeof kelvin !== 'number' || kelvin < 0) return false;
        // Non-zero kelvin means white at that temperature: the colour is ignored (§2.1).
        if (kelvin !== 0) {
          device.kelvin = Math.round(kelvin);
          return true;
        }
        const color = data.color;
        if (!isObject(color) || !isByte(color.r) || !isByte(color.g) || !isByte(color.b)) return false;
        device.color = { r: color.r, g: color.g, b: color.b };
        device.kelvin = 0;
        return true;
      }
      default:
        return false;
    }
  }

  function receive(via: GoveeReceived['via'], own: Device | undefined, datagram: Buffer, from: RemoteInfo) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(datagram.toString('utf8'));
    } catch {
      return; // not JSON: a real device ignores it too
    }
    if (!isObject(parsed) || !isObject(parsed.msg) || typeof parsed.msg.cmd !== 'string') return;
    const cmd = parsed.msg.cmd;
    const data = isObject(parsed.msg.data) ? parsed.msg.data : {};
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
        data: parsed.msg.data,
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
        if (!apply(device, cmd, data, from)) entry.ignored = 'invalid';
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
    list: () => devices.map(view),
    get: (id) => {
      const device = find(id);
      return device ? view(device) : undefined;
    },
    log: (id) => [...(find(id)?.log ?? [])],
    setLanControl(id, on) {
      for (const device of pick(id)) device.lanControl = on;
    },
    setFault(id, fault) {
      for (const device of pick(id))
        device.fault = {
          lossPercent: Math.min(100, Math.max(0, fault.lossPercent ?? device.fault.lossPercent)),
          duplicates: fault.duplicates ?? device.fault.duplicates,
          delayMs: Math.max(0, fault.delayMs ?? device.fault.delayMs),
          jitterMs: Math.max(0, fault.jitterMs ?? device.fault.jitterMs),
          ignoreCommands: fault.ignoreCommands ?? device.fault.ignoreCommands,
        };
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
      return view(device);
    },
    reset() {
      for (const device of devices) {
        Object.assign(device, structuredClone(WARM_WHITE));
        device.lanControl = true;
        device.fault = { ...NO_FAULT };
        device.log = [];
        device.received = 0;
      }
    },
    close: () => set.close(),
  };
}
