import type { LifxMessage, LightColor } from '@flaglight/core';
import type { LightDeviceInfo } from '../../driver.js';
import type { LanLightInfo } from './driver-options.js';
import type { LanWriteGroup } from './messages.js';

/** What a queued message waits for before the next one goes. */
export type Expect = 'ack' | 'LightState' | 'EchoResponse';

export interface Outgoing {
  message: LifxMessage;
  /** A colour or power write (collapsed by newer ones), or null for gets and probes. */
  group: LanWriteGroup | null;
  expect: Expect;
  resolve(reply: LifxMessage | null): void;
  reject(error: unknown): void;
}

export interface InFlight {
  out: Outgoing;
  bytes: Uint8Array;
  sequence: number;
  attempts: number;
  timer: unknown;
}

/** One LIFX bulb as the LAN driver tracks it. */
export interface LanBulb {
  /** MAC hex, lower case, no colons (the LIFX cloud's id). */
  id: string;
  /** `d0:73:d5:12:34:56`, the header's target. */
  mac: string;
  label: string | null;
  address: string;
  port: number;
  reachable: boolean;
  /** null until a LightGet answered; false for a device that answers 223 (a switch). */
  isLight: boolean | null;
  lastColor: string | null;
  /** The last steady look asked for, re-sent when the bulb answers again. */
  lastLook: { color: LightColor; brightness: number; on: boolean } | null;
  queue: Outgoing[];
  inFlight: InFlight | null;
  lastSentAt: number;
  /** A timer waiting out the pace before the next send. */
  paceTimer: unknown;
}

/**
 * Anyone on the LAN who sees a discovery can answer it for as many made-up bulbs as they like: past
 * this many (far more than a home has) no new bulb is kept, so the driver's memory stays bounded.
 */
export const LIFX_LAN_MAX_BULBS = 256;

export function createBulb(mac: string, address: string, port: number): LanBulb {
  return {
    id: mac.replace(/:/g, '').toLowerCase(),
    mac: mac.toLowerCase(),
    label: null,
    address,
    port,
    reachable: true,
    isLight: null,
    lastColor: null,
    lastLook: null,
    queue: [],
    inFlight: null,
    lastSentAt: -Infinity,
    paceTimer: null,
  };
}

/** A LIFX id as the cloud writes it (`d073d5123456`) or a MAC (`d0:73:d5:12:34:56`) → the id. */
export function normaliseLifxId(id: string): string {
  return id.replace(/^id:/, '').replace(/[:-]/g, '').toLowerCase();
}

const LIGHT_TYPE = 'lifx_lan';

export function bulbLabel(bulb: LanBulb): string {
  return bulb.label ?? bulb.id;
}

/** The bulbs that are lights: a device that answered LightGet with StateUnhandled is left out. */
export function listLights(bulbs: ReadonlyMap<string, LanBulb>): LanBulb[] {
  return [...bulbs.values()].filter((b) => b.isLight !== false);
}

export function toDeviceInfo(bulb: LanBulb): LightDeviceInfo {
  return {
    id: bulb.id,
    label: bulbLabel(bulb),
    name: bulbLabel(bulb),
    type: LIGHT_TYPE,
    connected: bulb.reachable,
  };
}

export function toLanLightInfo(bulb: LanBulb): LanLightInfo {
  return {
    id: bulb.id,
    mac: bulb.mac,
    label: bulbLabel(bulb),
    address: bulb.address,
    port: bulb.port,
    reachable: bulb.reachable,
    lastColor: bulb.lastColor,
  };
}
