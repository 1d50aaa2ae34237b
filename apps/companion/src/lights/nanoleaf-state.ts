// What the companion knows of the Nanoleaf controllers: the ones offered for pairing, the paired
// ones' drivers, the ones to pair again, the pairing under way; and the status page's view of it.
import type { NanoleafAddress, NanoleafDriver } from '@flaglight/lights/lan';
import type { Logger } from '../system/log.js';
import type { StateFile, StoredNanoleaf } from '../system/state-file.js';
import type { LightsHub } from './lights-hub.js';
import { NANOLEAF_PAIR_STEPS } from './nanoleaf-messages.js';

export interface NanoleafView {
  /**
   * `id` (the serial number) for a paired controller: what `POST /api/nanoleaf/forget` takes.
   * `needsPairing`: it is not answering and could not be followed to a new address, or its address
   * answers with another serial number: pair it again.
   */
  devices: { address: string; name: string | null; paired: boolean; id?: string; needsPairing?: true }[];
  /** The pairing under way or its outcome, in words for the status page. */
  pairing: string | null;
  steps: string;
}

/** Where a controller's address came from: typed by the user (`--nanoleaf`, demo) or an mDNS answer. */
export type Found = { from: 'user' } | { from: 'mdns'; deviceId: string | null };
export const BY_USER: Found = { from: 'user' };

export interface NanoleafContext {
  hub: LightsHub;
  log: Logger;
  store: StateFile;
  /** Controllers offered for pairing, by address text. */
  candidates: Map<string, { address: NanoleafAddress; name: string | null; found: Found }>;
  drivers: Map<string, NanoleafDriver>;
  /** Paired controllers that could not be followed to a new address: pair them again. */
  pairAgain: Set<string>;
  /** Paired controllers whose address answered with another serial number: stopped, pair again. */
  replaced: Set<string>;
  pairing: string | null;
  /** A pairing waits for the power button (one at a time). */
  busy: boolean;
  /** The demo server whose simulated controllers are paired by themselves; null outside the demo. */
  demoServer: string | null;
}

export function createNanoleafContext(deps: {
  hub: LightsHub;
  log: Logger;
  store: StateFile;
}): NanoleafContext {
  return {
    ...deps,
    candidates: new Map(),
    drivers: new Map(),
    pairAgain: new Set(),
    replaced: new Set(),
    pairing: null,
    busy: false,
    demoServer: null,
  };
}

export const keyOf = (device: { id: string }) => `nanoleaf:${device.id}`;
export const addressText = (a: NanoleafAddress) =>
  `${a.host.includes(':') ? `[${a.host}]` : a.host}:${a.port}`;

export function storedNanoleaf(ctx: NanoleafContext): StoredNanoleaf[] {
  return ctx.store.get().nanoleafDevices;
}

/** Unpaired here: its token leaves the state file, its driver the list, and it is offered for pairing again. */
export function forgetDevice(ctx: NanoleafContext, device: StoredNanoleaf): void {
  ctx.store.update((s) => ({ ...s, nanoleafDevices: s.nanoleafDevices.filter((d) => d.id !== device.id) }));
  ctx.drivers.delete(device.id);
  ctx.pairAgain.delete(device.id);
  ctx.replaced.delete(device.id);
  ctx.candidates.set(addressText(device), {
    address: { host: device.host, port: device.port },
    name: device.name ?? null,
    found: device.mdnsId === undefined ? BY_USER : { from: 'mdns', deviceId: device.mdnsId },
  });
}

export function describeNanoleaf(ctx: NanoleafContext): NanoleafView {
  const rows = new Map<string, NanoleafView['devices'][number]>();
  for (const [text, c] of ctx.candidates) rows.set(text, { address: text, name: c.name, paired: false });
  for (const d of storedNanoleaf(ctx)) {
    const lost =
      ctx.replaced.has(d.id) || (ctx.pairAgain.has(d.id) && ctx.drivers.get(d.id)?.connected === false);
    rows.set(addressText(d), {
      address: addressText(d),
      name: d.name ?? null,
      paired: true,
      id: d.id,
      ...(lost ? { needsPairing: true as const } : {}),
    });
  }
  return { devices: [...rows.values()], pairing: ctx.pairing, steps: NANOLEAF_PAIR_STEPS };
}
