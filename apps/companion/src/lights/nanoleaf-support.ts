import {
  createNanoleafDriver,
  discoverNanoleafMdns,
  fetchNanoleafInfo,
  NANOLEAF_PAIRING_TIMEOUT_MS,
  NANOLEAF_TOKEN_REVOKED,
  pairNanoleaf,
  parseNanoleafAddress,
  revokeNanoleafToken,
  type NanoleafAddress,
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

export interface NanoleafView {
  /** `id` (the serial number) for a paired controller: what `POST /api/nanoleaf/forget` takes. */
  devices: { address: string; name: string | null; paired: boolean; id?: string }[];
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

/**
 * Nanoleaf controllers on the LAN: paired ones are driven (one driver and token each, kept in the
 * state file); the others wait for the power-button pairing. A controller that refuses its token
 * (401: reset, or the token removed) is forgotten and offered for pairing again; one found at a new
 * address by the next search is moved there with its token.
 */
export function createNanoleafSupport(options: {
  hub: LightsHub;
  log: Logger;
  store: StateFile;
  mdns: boolean;
  /** Pairing tuning (tests). */
  pairingTimeoutMs?: number;
  pollMs?: number;
}): NanoleafSupport {
  const { hub, log, store } = options;
  const candidates = new Map<string, { address: NanoleafAddress; name: string | null }>();
  const drivers = new Map<string, NanoleafDriver>();
  let pairing: string | null = null;
  let busy = false;
  let demoServer: string | null = null;

  const stored = () => store.get().nanoleafDevices;

  const forget = (device: StoredNanoleaf) => {
    store.update((s) => ({ ...s, nanoleafDevices: s.nanoleafDevices.filter((d) => d.id !== device.id) }));
    drivers.delete(device.id);
    candidates.set(addressText(device), {
      address: { host: device.host, port: device.port },
      name: device.name ?? null,
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
      if (event.type !== 'disconnect' || event.error.message !== NANOLEAF_TOKEN_REVOKED) return;
      if (drivers.get(device.id) !== driver) return;
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

  /** An unreachable paired controller may have moved: try its token at an unknown address. */
  const relocate = async (address: NanoleafAddress) => {
    for (const device of stored()) {
      const driver = drivers.get(device.id);
      if (!driver || driver.connected) continue;
      try {
        const info = await fetchNanoleafInfo(address, device.token, 2_000);
        if (info.id !== device.id) continue;
        store.update((s) => ({
          ...s,
          nanoleafDevices: s.nanoleafDevices.map((d) => (d.id === device.id ? { ...d, ...address } : d)),
        }));
        driver.moveTo(address);
        candidates.delete(addressText(address));
        return;
      } catch {
        // Not this one.
      }
    }
  };

  const addCandidate = async (address: NanoleafAddress, name: string | null) => {
    if (stored().some((d) => d.host === address.host && d.port === address.port)) return;
    candidates.set(addressText(address), { address, name });
    await relocate(address);
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
      for (const address of extra) await addCandidate(address, null);
      await support.discover();
      if (demo) for (const [text] of candidates) await support.pair(text);
    },
    async discover() {
      if (!options.mdns) return;
      try {
        for (const found of await discoverNanoleafMdns()) await addCandidate(found, found.name);
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
      busy = true;
      const timeoutMs = options.pairingTimeoutMs ?? NANOLEAF_PAIRING_TIMEOUT_MS;
      pairing = `Waiting for ${addressText(address)}: hold the power button for 5–7 seconds until the lights flash…`;
      log.info(`Nanoleaf: pairing with ${addressText(address)}: hold its power button 5–7 s`);
      try {
        await pressDemoButton();
        const token = await pairNanoleaf(address, {
          timeoutMs,
          ...(options.pollMs === undefined ? {} : { pollMs: options.pollMs }),
          onWaiting: ({ remainingMs }) => {
            pairing = `${addressText(address)} is not in pairing mode yet: hold its power button for 5–7 seconds until the lights flash… (${Math.ceil(remainingMs / 1000)} s left)`;
          },
        });
        const info = await fetchNanoleafInfo(address, token);
        const device: StoredNanoleaf = { ...address, token, id: info.id, name: info.name, model: info.model };
        store.update((s) => ({
          ...s,
          nanoleafDevices: [...s.nanoleafDevices.filter((d) => d.id !== device.id), device],
        }));
        candidates.delete(addressText(address));
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
      // Off the driver list first: the controller's 401 after the revoke must not read as "revoked".
      forget(device);
      await hub.remove(keyOf(device));
      const name = device.name ?? 'Nanoleaf';
      try {
        await revokeNanoleafToken({ host: device.host, port: device.port }, device.token);
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
      for (const d of stored())
        rows.set(addressText(d), { address: addressText(d), name: d.name ?? null, paired: true, id: d.id });
      return { devices: [...rows.values()], pairing, steps: NANOLEAF_PAIR_STEPS };
    },
    async close() {
      candidates.clear();
      drivers.clear();
    },
  };
  return support;
}
