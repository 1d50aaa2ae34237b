import http from 'node:http';
import type { LightStateCommand } from '../../driver.js';
import { LightError } from '../../errors.js';
import { wledBaseUrl, wledRequest, type WledAddress } from './http.js';
import { findWledEffects, parseWledInfo, type WledEffectIds, type WledInfo } from './looks.js';

// What the WLED driver keeps: each address it asks (a slot), and each device (a light, by its MAC)
// with the address it is driven at. The two are apart so that one address answering with another
// device's MAC never makes the driver forget an address or a device.

/** A device's light list never holds more than this many devices first seen at one address. */
export const WLED_DEVICES_PER_ADDRESS = 4;

/** What an address answered to `GET /json/info` and `GET /json/effects`. */
export interface WledAnswer {
  info: WledInfo;
  effects: WledEffectIds;
}

/** One address given or found: asked on its own, whatever device it answers as. */
export interface Slot {
  address: WledAddress;
  agent: http.Agent;
  /** Its last answer; null when it did not answer, or not as WLED. */
  seen: WledAnswer | null;
  /** Why it did not answer (its last read or write that failed). */
  error: LightError | null;
  /** It answered, but not as WLED (too large, another service): asked again only now and then. */
  wrong: boolean;
  /**
   * On the driver's read clock: when its last finished read was asked, and when it last answered
   * (0: never). A device moves to another address only if its own was asked after that answered.
   */
  checkedAt: number;
  answeredAt: number;
  reading: Promise<void> | null;
  probe: unknown;
  /** A look for the address before it first answered: the device it answers as starts with it. */
  pendingLook: LightStateCommand | null;
}

/** One WLED device, by the MAC it answers with (or its address when it names none). */
export interface Light {
  id: string;
  /** The address it first answered at: where it belongs, asked again while it is driven elsewhere. */
  home: Slot;
  /** The address it is driven at now; null while no address can be trusted to be it. */
  slot: Slot | null;
  info: WledInfo;
  effects: WledEffectIds;
  /** It was driven somewhere before: "answers again" rather than "found". */
  placedBefore: boolean;
  /** The look its address was given before it first answered: sent once it is placed, if no newer came. */
  firstLook: LightStateCommand | null;
  warnedLive: boolean;
}

export const sameAddress = (a: WledAddress, b: WledAddress) => a.host === b.host && a.port === b.port;
export const addressText = (a: WledAddress) => `${a.host.includes(':') ? `[${a.host}]` : a.host}:${a.port}`;

/** The device an address answers as now: its MAC, or the address itself when it names no MAC. */
export function answeredId(slot: Slot): string | null {
  if (!slot.seen) return null;
  return slot.seen.info.mac ?? `${slot.address.host}:${slot.address.port}`;
}

export function createSlot(address: WledAddress): Slot {
  return {
    address: { ...address },
    // One socket: never two requests at once to a device that reboots when pushed (reference §3.4).
    agent: new http.Agent({ keepAlive: true, maxSockets: 1 }),
    seen: null,
    error: null,
    wrong: false,
    checkedAt: 0,
    answeredAt: 0,
    reading: null,
    probe: null,
    pendingLook: null,
  };
}

/** The device a slot answered as, first seen there: not yet driven (`placeWledLight` says where). */
export function createLight(home: Slot, seen: WledAnswer): Light {
  const light: Light = {
    id: answeredId(home)!,
    home,
    slot: null,
    info: seen.info,
    effects: seen.effects,
    placedBefore: false,
    firstLook: home.pendingLook,
    warnedLive: false,
  };
  home.pendingLook = null;
  return light;
}

/**
 * Where a device is driven: at its own address while that answers with its MAC;
 * else at the address it moved to, while that still answers with it; else at another address
 * answering with its MAC only when its own address, asked after that answer, did not answer with
 * it. Never at an address answering with another MAC. So a device moved while its own address is
 * silent comes back there as soon as its own address answers with its MAC again.
 */
export function placeWledLight(light: Light, slots: readonly Slot[]): Slot | null {
  const answers = (slot: Slot) => answeredId(slot) === light.id;
  if (answers(light.home)) return light.home;
  if (light.slot && answers(light.slot)) return light.slot;
  return slots.find((s) => answers(s) && light.home.checkedAt > s.answeredAt) ?? null;
}

/**
 * `GET /json/info` then `GET /json/effects`: what the device is and its effect ids by name. Rejects
 * with a `LightError` (kind `server` when the answer is not WLED's).
 */
export async function readWledDevice(
  address: WledAddress,
  agent: http.Agent,
  timeoutMs?: number,
): Promise<WledAnswer> {
  const base = wledBaseUrl(address);
  const timeout = timeoutMs === undefined ? {} : { timeoutMs };
  const answer = await wledRequest(`${base}/json/info`, { method: 'GET', agent, ...timeout });
  const info = answer.status === 200 ? parseWledInfo(answer.body) : null;
  if (!info)
    throw new LightError(
      'server',
      `${address.host}:${address.port} is not a WLED device (HTTP ${answer.status})`,
    );
  const effects = await wledRequest(`${base}/json/effects`, { method: 'GET', agent, ...timeout });
  return { info, effects: findWledEffects(effects.status === 200 ? effects.body : null) };
}
