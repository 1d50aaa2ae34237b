// One Govee device as a link paces it: the look asked for, what it shows, and its minute's calls.
import {
  applyCapability,
  nextCapability,
  type GoveeKnownState,
  type GoveeLook,
  type GoveeReadState,
} from './budget.js';
import type { GoveeControl } from './client.js';

export const MINUTE_MS = 60_000;
/** A failed call (timeout, Govee down) is tried again after 2 s, doubling, at most this long. */
const MAX_BACKOFF_MS = 30_000;

export interface Slot {
  sku: string;
  device: string;
  /** The look the user wants now (the latest flag); null: nothing asked. */
  desired: GoveeLook | null;
  /** What we know the device shows (from our own successful calls). */
  known: GoveeKnownState;
  inFlight: boolean;
  /** When each call in the last minute went out (the per-device minute budget). */
  sentAt: number[];
  pausedUntil: number;
  failures: number;
  /** Reads waiting for the device's turn (one state call answers them all). */
  readers: ((state: GoveeReadState) => void)[];
}

export function createSlot(device: { sku: string; device: string }): Slot {
  return {
    sku: device.sku,
    device: device.device,
    desired: null,
    known: {},
    inFlight: false,
    sentAt: [],
    pausedUntil: 0,
    failures: 0,
    readers: [],
  };
}

/** The one capability to send next (only what differs from what the device shows), or null. */
export const nextFor = (slot: Slot): GoveeControl | null => nextCapability(slot.known, slot.desired);

/** The device now shows the capability. */
export const recordSent = (slot: Slot, capability: GoveeControl): void =>
  applyCapability(slot.known, capability);

/**
 * When the slot may send again if not now (paused, or its minute is full); null: now. Calls
 * older than a minute are forgotten first.
 */
export function blockedUntil(slot: Slot, at: number, perMinute: number): number | null {
  while (slot.sentAt.length > 0 && slot.sentAt[0]! <= at - MINUTE_MS) slot.sentAt.shift();
  if (slot.pausedUntil > at) return slot.pausedUntil;
  if (slot.sentAt.length >= perMinute) return slot.sentAt[0]! + MINUTE_MS + 5;
  return null;
}

/** A call failed on the way: the slot waits, longer after each failure in a row. */
export function backOff(slot: Slot, at: number): void {
  slot.failures += 1;
  slot.pausedUntil = at + Math.min(MAX_BACKOFF_MS, 2000 * 2 ** (slot.failures - 1));
}
