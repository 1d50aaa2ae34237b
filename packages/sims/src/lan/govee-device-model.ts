import type { Socket } from 'node:dgram';
import { LAN_SIM_HOST } from './lan-host.js';

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

/** One virtual Govee device: its socket, look, faults and log. */
export interface GoveeDevice {
  /** Its place among the devices: its first look. */
  index: number;
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

/**
 * How each device is before anyone changes it, by index (round the list): warm white, off, a dimmed
 * teal, a pink at half: what giving the room back reads and puts back.
 */
const FIRST_LOOKS = [
  WARM_WHITE,
  { on: false, brightness: 70, color: { r: 255, g: 120, b: 0 }, kelvin: 0 },
  { on: true, brightness: 20, color: { r: 0, g: 200, b: 160 }, kelvin: 0 },
  { on: true, brightness: 50, color: { r: 255, g: 60, b: 140 }, kelvin: 0 },
];
const firstLook = (index: number) => structuredClone(FIRST_LOOKS[index % FIRST_LOOKS.length]!);

function idOf(index: number): string {
  const n = index + 1;
  return `D4:AD:FC:60:00:00:${(n >> 8).toString(16).padStart(2, '0')}:${(n & 0xff).toString(16).padStart(2, '0')}`.toUpperCase();
}

/** The `i`-th device (0-based) on its command socket. */
export function createGoveeDevice(i: number, socket: Socket, omitsIp: boolean): GoveeDevice {
  const model = MODELS[i % MODELS.length]!;
  return {
    id: idOf(i),
    sku: model.sku,
    label: `${model.kind} ${i + 1}`,
    socket,
    commandPort: socket.address().port,
    lanControl: true,
    omitsIp,
    index: i,
    ...firstLook(i),
    fault: { ...NO_FAULT },
    log: [],
    received: 0,
    reboots: 0,
  };
}

/** What the device shows, brightness applied (`#000000` when off). */
function hex(device: GoveeDevice): string {
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

export function viewGoveeDevice(device: GoveeDevice): VirtualGoveeDeviceView {
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

/** The faults after a patch: loss clamped to 0–100, delays to ≥ 0, unnamed ones kept. */
export function patchGoveeFault(
  current: GoveeDeviceFault,
  fault: Partial<GoveeDeviceFault>,
): GoveeDeviceFault {
  return {
    lossPercent: Math.min(100, Math.max(0, fault.lossPercent ?? current.lossPercent)),
    duplicates: fault.duplicates ?? current.duplicates,
    delayMs: Math.max(0, fault.delayMs ?? current.delayMs),
    jitterMs: Math.max(0, fault.jitterMs ?? current.jitterMs),
    ignoreCommands: fault.ignoreCommands ?? current.ignoreCommands,
  };
}

/** Its first look, LAN Control on, no faults, log cleared (its reboots still counted). */
export function resetGoveeDevice(device: GoveeDevice): void {
  Object.assign(device, firstLook(device.index));
  device.lanControl = true;
  device.fault = { ...NO_FAULT };
  device.log = [];
  device.received = 0;
}
