import type { LightDeviceInfo } from '../../driver.js';
import type { GoveeLanLightInfo } from './driver-options.js';
import { lookHex, type GoveeLook, type GoveeStatus } from './messages.js';

/** Where a device is in sending its look: commands, the repeat, the status read that confirms. */
export type GoveePhase = 'idle' | 'sending' | 'repeating' | 'confirming' | 'confirmed' | 'failed';

export interface Waiter {
  resolve(): void;
  reject(error: unknown): void;
}

/** One Govee device as the LAN driver tracks it. */
export interface GoveeDevice {
  /** The scan reply's `device` (8-byte hex id): the stable key, also the cloud's id. */
  id: string;
  sku: string;
  label: string;
  address: string;
  /** Where commands go: the configured command port, or the reply's source port (loopback simulator). */
  port: number;
  /** Scans in a row this device did not answer. */
  missedScans: number;
  /** The look asked for last (also re-sent when the device is found again). */
  look: GoveeLook | null;
  phase: GoveePhase;
  /** Tries of the current look (commands, repeat, status read). */
  attempt: number;
  /** Counts stops: a send that finishes after one belongs to a look that is no longer wanted. */
  epoch: number;
  /** The repeat wait or the status time-out. */
  phaseTimer: unknown;
  waiters: Waiter[];
  lastStatus: GoveeStatus | null;
  /** Datagrams sent to it (the bench counts commands per flag). */
  sent: number;
}

export function createGoveeDevice(
  id: string,
  sku: string,
  address: string,
  port: number,
  labelOf: (id: string, sku: string) => string,
): GoveeDevice {
  return {
    id,
    sku,
    label: labelOf(id, sku),
    address,
    port,
    missedScans: 0,
    look: null,
    phase: 'idle',
    attempt: 0,
    epoch: 0,
    phaseTimer: null,
    waiters: [],
    lastStatus: null,
    sent: 0,
  };
}

/** `H6159 ·724E`: the model, and the id's last two bytes to tell two of one model apart. */
export function goveeLabel(id: string, sku: string): string {
  const tail = id
    .replace(/[^0-9a-f]/gi, '')
    .slice(-4)
    .toUpperCase();
  return tail ? `Govee ${sku} ·${tail}` : `Govee ${sku}`;
}

/** A device as every driver lists it. */
export function toDeviceInfo(d: GoveeDevice, reachable: boolean): LightDeviceInfo {
  return { id: d.id, label: d.label, name: d.label, type: 'govee_lan', connected: reachable };
}

/** A device as the Govee driver's `devices()` shows it. */
export function toLightInfo(d: GoveeDevice, reachable: boolean): GoveeLanLightInfo {
  return {
    id: d.id,
    sku: d.sku,
    label: d.label,
    address: d.address,
    port: d.port,
    reachable,
    lastColor: d.look ? lookHex(d.look) : null,
    confirmed: d.phase === 'confirmed',
    sent: d.sent,
  };
}
