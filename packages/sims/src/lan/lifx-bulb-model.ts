import type { Socket } from 'node:dgram';
import { type Hsbk, LIFX_POWER_ON, type LifxMessage } from '@flaglight/core';
import { currentColor, type LifxWaveformRecord, type WaveformState } from './lifx-waveform.js';

export interface LifxBulbFault {
  /** Share of received datagrams dropped, 0–100 (neither applied nor answered). */
  dropPercent: number;
  /** Each datagram is handled this long after it arrives. */
  delayMs: number;
  /** Silent: ignores everything. */
  offline: boolean;
}

export interface LifxReceived {
  /** The simulator's clock (ms since epoch) and a monotonic high-resolution time (ms). */
  at: number;
  monotonicMs: number;
  from: string;
  /** The socket it came to: the shared discovery port or the bulb's own. */
  via: 'discovery' | 'bulb';
  type: string;
  typeNumber: number;
  source: number;
  sequence: number;
  ackRequired: boolean;
  resRequired: boolean;
  message: LifxMessage;
  /** Why it was neither applied nor answered, if it was not (a fault). */
  ignored: 'dropped' | 'offline' | null;
}

export interface VirtualLifxBulbView {
  id: string;
  label: string;
  /** The address and port its socket is bound to (StateService names the port). */
  address: string;
  port: number;
  power: number;
  on: boolean;
  /** The colour now, waveform included. */
  color: Hsbk;
  /** The colour set by SetColor (what a transient waveform returns to). */
  baseColor: Hsbk;
  waveformRunning: boolean;
  lastWaveform: LifxWaveformRecord | null;
  fault: LifxBulbFault;
  received: number;
}

export interface LifxBulb extends WaveformState {
  id: string;
  /** Its place among the bulbs: its first look. */
  index: number;
  label: string;
  socket: Socket;
  port: number;
  power: number;
  fault: LifxBulbFault;
  log: LifxReceived[];
  received: number;
}

const LABELS = [
  'Lounge',
  'Kitchen',
  'Desk',
  'Hallway',
  'Bedroom',
  'Porch',
  'Study',
  'Garage',
  'Bath',
  'Attic',
];
const NO_FAULT: LifxBulbFault = { dropPercent: 0, delayMs: 0, offline: false };
const WARM_WHITE: Hsbk = { hue: 0, saturation: 0, brightness: 65535, kelvin: 3500 };

/**
 * How each bulb is before anyone changes it, by index (round the list): each its own, some off and
 * some dimmed, so giving the room back shows. An off bulb keeps the colour it lights up in.
 */
const FIRST_LOOKS: { power: number; color: Hsbk }[] = [
  { power: LIFX_POWER_ON, color: WARM_WHITE },
  { power: 0, color: { hue: 43690, saturation: 65535, brightness: 52428, kelvin: 3500 } },
  { power: LIFX_POWER_ON, color: { hue: 21845, saturation: 52428, brightness: 19661, kelvin: 3500 } },
  { power: LIFX_POWER_ON, color: { hue: 5461, saturation: 65535, brightness: 39321, kelvin: 3500 } },
  { power: LIFX_POWER_ON, color: { hue: 0, saturation: 0, brightness: 26214, kelvin: 2700 } },
];

function firstLook(index: number): { power: number; color: Hsbk } {
  const first = FIRST_LOOKS[index % FIRST_LOOKS.length]!;
  return { power: first.power, color: { ...first.color } };
}

function macOf(index: number): string {
  return `d0:73:d5:1a:00:${(index + 1).toString(16).padStart(2, '0')}`;
}

/** Bulb `index`, in its first look, on its own bound socket. */
export function createLifxBulb(index: number, socket: Socket): LifxBulb {
  return {
    id: macOf(index),
    label:
      LABELS[index % LABELS.length] +
      (index >= LABELS.length ? ` ${Math.floor(index / LABELS.length) + 1}` : ''),
    index,
    socket,
    port: socket.address().port,
    ...firstLook(index),
    waveform: null,
    lastWaveform: null,
    fault: { ...NO_FAULT },
    log: [],
    received: 0,
  };
}

/** Back to the first look, no faults, log cleared; the socket stays. */
export function resetLifxBulb(bulb: LifxBulb): void {
  Object.assign(bulb, firstLook(bulb.index));
  bulb.waveform = null;
  bulb.lastWaveform = null;
  bulb.fault = { ...NO_FAULT };
  bulb.log = [];
  bulb.received = 0;
}

/** The fault after `patch`, clamped: a share in 0–100, no negative delay. */
export function patchLifxFault(fault: LifxBulbFault, patch: Partial<LifxBulbFault>): LifxBulbFault {
  return {
    dropPercent: Math.min(100, Math.max(0, patch.dropPercent ?? fault.dropPercent)),
    delayMs: Math.max(0, patch.delayMs ?? fault.delayMs),
    offline: patch.offline ?? fault.offline,
  };
}

export function viewLifxBulb(bulb: LifxBulb, at: number): VirtualLifxBulbView {
  const color = currentColor(bulb, at);
  return {
    id: bulb.id,
    label: bulb.label,
    address: bulb.socket.address().address,
    port: bulb.port,
    power: bulb.power,
    on: bulb.power > 0,
    color,
    baseColor: { ...bulb.color },
    waveformRunning: bulb.waveform !== null,
    lastWaveform: bulb.lastWaveform,
    fault: { ...bulb.fault },
    received: bulb.received,
  };
}
