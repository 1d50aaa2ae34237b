import {
  createNanoleafDriver,
  discoverNanoleafMdns,
  fetchNanoleafInfo,
  NANOLEAF_MDNS_MAX_FOUND,
  NANOLEAF_PAIRING_TIMEOUT_MS,
  NANOLEAF_SERIAL_CHANGED,
  NANOLEAF_TOKEN_REVOKED,
  pairNanoleaf,
  parseNanoleafAddress,
  revokeNanoleafToken,
  type NanoleafAddress,
  type NanoleafCandidate,
  type NanoleafDriver,
} from '@flaglight/lights/lan';
import type { Logger } from '../system/log.js';
import type { StateFile, StoredNanoleaf } from '../system/state-file.js';
import type { LanDriver, LightsHub } from './lights-hub.js';

/** What the status page says while it waits (DESIGN §5.9; reference nanoleaf-govee.md §1 "Pairing"). */
export const NANOLEAF_PAIR_STEPS =
  'Hold the power button on the Nanoleaf controller for 5–7 seconds until the lights flash, then click Pair. The companion waits up to 60 seconds; if the time runs out, hold the button again and click Pair to retry.';
export const NANOLEAF_NONE_FOUND =
  'No Nanoleaf controller found. Enter its address (Nanoleaf app: the device → Settings → IP address).';

/**
 * A paired controller stopped answering and a controller appeared elsewhere that could not be
 * confirmed as it without its token: the token stays here, and the user pairs it again.
 */
export function nanoleafPairAgain(name: string, found: string): string {
  return `${name} is not answering, and the Nanoleaf controller found at ${found} could not be confirmed as it, so its token was not sent there. If ${name} moved, pair it again: hold its power button for 5–7 seconds until the lights flash, then click Pair.`;
}

/**
 * A paired controller's address answered with another serial number (another controller there, or
 * this one replaced): the driver stopped, and the user pairs again if it was replaced.
 */
export function nanoleafReplaced(name: string, at: string): string {
  return `${name}: the controller at ${at} answers with another serial number, so Flaglight sends it nothing more. ${NANOLEAF_SERIAL_CHANGED} Hold its power button for 5–7 seconds until the lights flash, then click Pair.`;
}

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

export interface NanoleafSupport {
  /** Drives the paired controllers, and lists the others (given, or found by mDNS) for pairing. */
  start(extra: readonly NanoleafAddress[], demoServer: string | null): Promise<void>;
  discover(): Promise<void>;
  /** Pairs the controller at `address` (or the first unpaired one found). */
  pair(address: string | undefined): Promise<{ ok: true; name: string } | { ok: false; error: string }>;
  /**
   * Unpairs a controller by its id: its token leaves the state file (and the controller, when it
   * answers), its driver leaves the hub; it is offered for pairing again. Null for an unknown id.
   */
  forget(id: string): Promise<{ name: string } | null>;
  view(): NanoleafView;
  close(): Promise<void>;
}

const keyOf = (device: { id: string }) => `nanoleaf:${device.id}`;
const addressText = (a: NanoleafAddress) => `${a.host.includes(':') ? `[${a.host}]` : a.host}:${a.port}`;

/** The hub's face of a Nanoleaf driver. */
function asLanDriver(driver: NanoleafDriver): LanDriver {
  return {
    provider: driver.provider,
    nativeStrobe: driver.nativeStrobe,
    listDevices: () => driver.listDevices(),
    setState: (ids, state) => driver.setState(ids, state),
    playStep: (ids, step) => driver.playStep(ids, step),
    minStrobeHalfPeriodMs: (count) => driver.minStrobeHalfPeriodMs(count),
    cancelPending: () => driver.cancelPending(),
    subscribe: (listener) => driver.subscribe(listener),
    discover: () => driver.discover(),
    close: () => driver.close(),
  };
}

/** Where a controller's address came from: typed by the user (`--nanoleaf`, demo) or an mDNS answer. */
type Found = { from: 'user' } | { from: 'mdns'; deviceId: string | null };
const BY_USER: Found = { from: 'user' };

/**
 * Nanoleaf controllers on the LAN: paired ones are driven (one driver and token each, kept in the
 * state file); the others wait for the power-button pairing. A controller that refuses its token
 * (401: reset, or the token removed) is forgotten and offered for pairing again. A token goes only
 * to the controller that issued it: an unreachable one is followed to a new address the user gave,
 * or to one whose mDNS record shows the TXT `id` stored at pairing (anyone on the LAN can announce
 * a record, and nothing a controller answers without its token names it). Otherwise the token
 * stays here and the controller is marked "pair it again". So is one whose address answers with
 * another serial number: its driver stops and leaves the hub, as a changed Hue certificate does.
 */
export function createNanoleafSupport(options: {
  hub: LightsHub;
  log: Logger;
  store: StateFile;
  mdns: boolean;
  /** The mDNS search (tests pass recorded answers): `discoverNanoleafMdns` by default. */
  findControllers?: () => Promise<NanoleafCandidate[]>;
  /** Pairing tuning (tests). */
  pairingTimeoutMs?: number;
  pollMs?: number;
}): NanoleafSupport {
  const { hub, log, store } = options;
  const candidates = new Map<string, { address: NanoleafAddress; name: string | null; found: Found }>();
  const drivers = new Map<string, NanoleafDriver>();
  /** Paired controllers that could not be followed to a new address: pair them again. */
  const pairAgain = new Set<string>();
  /** Paired controllers whose address answered with another serial number: stopped, pair again. */
  const replaced = new Set<string>();
  let pairing: string | null = null;
  let busy = false;
  let demoServer: string | null = null;

  const stored = () => store.get().nanoleafDevices;

  const forget = (device: StoredNanoleaf) => {
    store.update((s) => ({ ...s, nanoleafDevices: s.nanoleafDevices.filter((d) => d.id !== device.id) }));
    drivers.delete(device.id);
    pairAgain.delete(device.id);
    replaced.delete(device.id);
    candidates.set(addressText(device), {
      address: { host: device.host, port: device.port },
      name: device.name ?? null,
      found: device.mdnsId === undefined ? BY_USER : { from: 'mdns', deviceId: device.mdnsId },
    });
  };

  const drive = async (device: StoredNanoleaf) => {
    const driver = createNanoleafDriver({
      address: { host: device.host, port: device.port },
      token: device.token,
      known: { id: device.id, name: device.name ?? 'Nanoleaf' },
      onLog: (message) => log.info(message),
    });
    driver.subscribe((event) => {
      if (event.type !== 'disconnect' || drivers.get(device.id) !== driver) return;
      if (event.error.message === NANOLEAF_SERIAL_CHANGED) return void stopReplaced(device);
      if (event.error.message !== NANOLEAF_TOKEN_REVOKED) return;
      forget(device);
      pairing = `${device.name ?? 'Nanoleaf'}: ${NANOLEAF_TOKEN_REVOKED}`;
      void hub.remove(keyOf(device)).then(async () => {
        // The demo's controllers are made anew with each start of the demo server: pair again.
        if (demoServer) await support.pair(addressText(device));
      });
    });
    drivers.set(device.id, driver);
    await hub.add('nanoleaf', keyOf(device), asLanDriver(driver));
  };

  /** As a changed Hue certificate: off the hub, kept paired, and the status page asks to pair again. */
  const stopReplaced = (device: StoredNanoleaf) => {
    if (replaced.has(device.id)) return;
    replaced.add(device.id);
    pairing = nanoleafReplaced(device.name ?? 'Nanoleaf', addressText(device));
    log.warn(`Nanoleaf: ${pairing}`);
    void hub.remove(keyOf(device)).then(async () => {
      // The demo's controllers are made anew with each start of the demo server: pair again.
      if (demoServer) await support.pair(addressText(device));
    });
  };

  /**
   * An unreachable paired controller may have moved. Its token is tried at the new address only
   * when the user gave that address, or when the address's mDNS record shows the TXT `id` stored
   * at pairing; the serial number it then answers must be the stored one too.
   */
  const relocate = async (address: NanoleafAddress, found: Found) => {
    const lost = stored().filter((d) => drivers.get(d.id)?.connected === false);
    const confirmed = lost.filter(
      (d) =>
        found.from === 'user' ||
        (d.mdnsId !== undefined && found.deviceId !== null && d.mdnsId === found.deviceId),
    );
    for (const device of confirmed) {
      try {
        const info = await fetchNanoleafInfo(address, device.token, 2_000);
        if (info.id !== device.id) continue;
        store.update((s) => ({
          ...s,
          nanoleafDevices: s.nanoleafDevices.map((d) => (d.id === device.id ? { ...d, ...address } : d)),
        }));
        candidates.delete(addressText(address));
        pairAgain.delete(device.id);
        // A stopped driver (another controller took its address) starts anew at the new one.
        if (replaced.delete(device.id)) await drive({ ...device, ...address });
        else drivers.get(device.id)?.moveTo(address);
        return;
      } catch {
        // Not this one.
      }
    }
    if (found.from === 'user') return;
    for (const device of lost.filter((d) => !replaced.has(d.id))) {
      pairAgain.add(device.id);
      pairing = nanoleafPairAgain(device.name ?? 'Nanoleaf', addressText(address));
      log.warn(`Nanoleaf: ${pairing}`);
    }
  };

  const addCandidate = async (address: NanoleafAddress, name: string | null, found: Found) => {
    if (stored().some((d) => d.host === address.host && d.port === address.port)) return;
    candidates.set(addressText(address), { address, name, found });
    // Records anyone can announce must not pile up from search to search: the oldest go first.
    for (const text of candidates.keys()) {
      if (candidates.size <= NANOLEAF_MDNS_MAX_FOUND) break;
      candidates.delete(text);
    }
    await relocate(address, found);
  };

  const pressDemoButton = async () => {
    if (!demoServer) return;
    await fetch(`${demoServer}/sims/lan/_control/nanoleaf/button`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
      signal: AbortSignal.timeout(5_000),
    }).catch(() => undefined);
  };

  const support: NanoleafSupport = {
    async start(extra, demo) {
      demoServer = demo;
      for (const device of stored()) {
        try {
          await drive(device);
        } catch (error) {
          log.warn(
            `Nanoleaf ${device.name ?? device.host}: ${error instanceof Error ? error.message : String(error)}`,
          );
        }
      }
      for (const address of extra) await addCandidate(address, null, BY_USER);
      await support.discover();
      if (demo) for (const [text] of candidates) await support.pair(text);
    },
    async discover() {
      if (!options.mdns) return;
      try {
        const search = options.findControllers ?? discoverNanoleafMdns;
        for (const found of await search())
          await addCandidate(found, found.name, { from: 'mdns', deviceId: found.deviceId });
      } catch (error) {
        log.warn(`Nanoleaf search: ${error instanceof Error ? error.message : String(error)}`);
      }
    },
    async pair(text) {
      if (busy) return { ok: false, error: 'A Nanoleaf pairing is already waiting for the power button.' };
      let address: NanoleafAddress | undefined;
      try {
        address = text === undefined ? [...candidates.values()][0]?.address : parseNanoleafAddress(text);
      } catch (error) {
        return { ok: false, error: error instanceof Error ? error.message : String(error) };
      }
      if (!address) return { ok: false, error: NANOLEAF_NONE_FOUND };
      const timeoutMs = options.pairingTimeoutMs ?? NANOLEAF_PAIRING_TIMEOUT_MS;
      // The one slot: taken here and freed in `finally`, whatever the controller answered.
      busy = true;
      try {
        pairing = `Waiting for ${addressText(address)}: hold the power button for 5–7 seconds until the lights flash…`;
        log.info(`Nanoleaf: pairing with ${addressText(address)}: hold its power button 5–7 s`);
        await pressDemoButton();
        const token = await pairNanoleaf(address, {
          timeoutMs,
          ...(options.pollMs === undefined ? {} : { pollMs: options.pollMs }),
          onWaiting: ({ remainingMs }) => {
            pairing = `${addressText(address)} is not in pairing mode yet: hold its power button for 5–7 seconds until the lights flash… (${Math.ceil(remainingMs / 1000)} s left)`;
          },
        });
        const info = await fetchNanoleafInfo(address, token);
        // The mDNS record this address was found by, if any: what a later move must show.
        const found = candidates.get(addressText(address))?.found;
        const device: StoredNanoleaf = {
          ...address,
          token,
          id: info.id,
          name: info.name,
          model: info.model,
          ...(found?.from === 'mdns' && found.deviceId !== null ? { mdnsId: found.deviceId } : {}),
        };
        // A controller paired at the address of one that another answered for replaces it.
        const gone = stored().filter(
          (d) => d.id !== device.id && replaced.has(d.id) && addressText(d) === addressText(address),
        );
        for (const old of gone) {
          replaced.delete(old.id);
          drivers.delete(old.id);
        }
        store.update((s) => ({
          ...s,
          nanoleafDevices: [
            ...s.nanoleafDevices.filter((d) => d.id !== device.id && !gone.some((g) => g.id === d.id)),
            device,
          ],
        }));
        candidates.delete(addressText(address));
        pairAgain.delete(device.id);
        await drive(device);
        pairing = `Paired with ${info.name}.`;
        log.info(`Nanoleaf: paired with ${info.name} (${info.model})`);
        return { ok: true, name: info.name };
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        pairing = message;
        log.warn(`Nanoleaf: ${message}`);
        return { ok: false, error: message };
      } finally {
        busy = false;
      }
    },
    async forget(id) {
      const device = stored().find((d) => d.id === id);
      if (!device) return null;
      // Another controller answers at its address: the token is not sent there to be revoked.
      const elsewhere = replaced.has(device.id);
      // Off the driver list first: the controller's 401 after the revoke must not read as "revoked".
      forget(device);
      await hub.remove(keyOf(device));
      const name = device.name ?? 'Nanoleaf';
      try {
        if (!elsewhere) await revokeNanoleafToken({ host: device.host, port: device.port }, device.token);
      } catch (error) {
        // Unreachable now: the token is gone from here all the same, and a reset clears it there.
        log.warn(`Nanoleaf ${name}: ${error instanceof Error ? error.message : String(error)}`);
      }
      log.info(`Nanoleaf: forgot ${name}`);
      return { name };
    },
    view() {
      const rows = new Map<string, NanoleafView['devices'][number]>();
      for (const [text, c] of candidates) rows.set(text, { address: text, name: c.name, paired: false });
      for (const d of stored()) {
        const lost = replaced.has(d.id) || (pairAgain.has(d.id) && drivers.get(d.id)?.connected === false);
        rows.set(addressText(d), {
          address: addressText(d),
          name: d.name ?? null,
          paired: true,
          id: d.id,
          ...(lost ? { needsPairing: true as const } : {}),
        });
      }
      return { devices: [...rows.values()], pairing, steps: NANOLEAF_PAIR_STEPS };
    },
    async close() {
      candidates.clear();
      drivers.clear();
    },
  };
  return support;
}
