import { LightError } from '@flaglight/lights';
import {
  HUE_CERTIFICATE_CHANGED,
  createHueLocalDriver,
  discoverHueBridgesMdns,
  fetchHueBridgeConfig,
  findPairedHueBridgeAt,
  pairHueBridge,
  type HueBridgeCandidate,
  type RoomStateDriver,
} from '@flaglight/lights/lan';
import type { Logger } from '../system/log.js';
import type { StateFile, StoredHueBridge } from '../system/state-file.js';
import type { LanDriver, LightsHub } from './lights-hub.js';

type HueLocalDriver = ReturnType<typeof createHueLocalDriver>;

/** A bridge that stops answering is looked for again after this, then twice as long each time, up to the most. */
export const HUE_SEARCH_FIRST_MS = 2_000;
export const HUE_SEARCH_MAX_MS = 30_000;

/** An error that says the bridge did not answer at all (gone from its address), not that it refused. */
const isSilence = (error: unknown) =>
  error instanceof LightError && (error.kind === 'network' || error.kind === 'timeout');

/** The hub's face of a Hue driver: `discover` reads the bridge's lights again; `onRead` hears how each read went. */
function asLanDriver(
  driver: HueLocalDriver,
  onRead: (answered: boolean, error?: unknown) => void,
): LanDriver & RoomStateDriver {
  const read = async <T>(call: () => Promise<T>): Promise<T> => {
    try {
      const result = await call();
      onRead(true);
      return result;
    } catch (error) {
      onRead(false, error);
      throw error;
    }
  };
  return {
    provider: driver.provider,
    get nativeStrobe() {
      return driver.nativeStrobe;
    },
    listDevices: () => read(() => driver.listDevices()),
    setState: (ids, state) => driver.setState(ids, state),
    playStep: (ids, step) => driver.playStep(ids, step),
    minStrobeHalfPeriodMs: (count) => driver.minStrobeHalfPeriodMs(count),
    cancelPending: () => driver.cancelPending(),
    subscribe: (listener) => driver.subscribe(listener),
    discover: () => read(() => driver.connect()),
    // The room's snapshot reads and gives back each light's own state through the bridge.
    readStates: (ids) => driver.readStates(ids),
    restoreStates: (saved) => driver.restoreStates(saved),
    close: () => driver.close(),
  };
}

export interface HueView {
  bridges: { url: string; name: string | null; paired: boolean }[];
  pairing: string | null;
}

export interface HueSupport {
  /** Drives the paired bridges, and lists the others (given, or found by mDNS) for pairing. */
  start(extra: readonly string[], demoServer: string | null): Promise<void>;
  discover(): Promise<void>;
  pair(url: string | undefined): Promise<{ ok: true; name: string } | { ok: false; error: string }>;
  /** Looks for every bridge that does not answer now, at once (the demo server is back). */
  searchAgain(): void;
  view(): HueView;
  close(): Promise<void>;
}

const keyOf = (bridge: { bridgeId: string }) => `hue:${bridge.bridgeId.toLowerCase()}`;
const clean = (url: string) => url.replace(/\/+$/, '');

/**
 * Philips Hue bridges on the LAN: paired ones are driven (CLIP v2, certificate pinned to the bridge
 * id); unpaired ones wait for the user to press the link button and click Pair. A paired bridge that
 * stops answering is looked for (mDNS, the addresses given, the demo's simulator) with a back-off,
 * and driven at a new address where its id and stored certificate answer (a DHCP lease ran out);
 * its key is never sent to an address that has not shown both.
 */
export function createHueSupport(options: {
  hub: LightsHub;
  log: Logger;
  store: StateFile;
  mdns: boolean;
  deviceName: string;
  /** The mDNS search (tests pass recorded answers): `discoverHueBridgesMdns` by default. */
  findBridges?: () => Promise<Place[]>;
}): HueSupport {
  const { hub, log, store } = options;
  const candidates = new Map<string, { url: string; name: string | null }>();
  let given: string[] = [];
  let pairing: string | null = null;
  let demoServer: string | null = null;

  const stored = (id: string) => store.get().hueBridges.find((b) => b.bridgeId.toLowerCase() === id);
  const search = createBridgeSearch({
    relocate: (id) => relocate(id),
    isPaired: (id) => stored(id) !== undefined,
  });

  const driving = createBridgeDriving({
    hub,
    search,
    async onCertificateChanged(bridge) {
      log.warn(`Hue bridge ${bridge.name ?? bridge.url}: ${HUE_CERTIFICATE_CHANGED}`);
      // The demo's bridge is made anew with each start of the demo server: pair it again.
      if (demoServer) await support.pair(bridge.url);
    },
  });
  /** Bridges whose id answered elsewhere with another certificate: said once. */
  const warnedCertificate = new Set<string>();
  /** The paired bridge answers at `url` as itself: it is driven there from now on. */
  const move = async (bridge: StoredHueBridge, url: string) => {
    keepBridge(store, { ...bridge, url });
    log.info(`Hue bridge ${bridge.name ?? bridge.bridgeId} answers at ${url} now: driven there`);
    await driving.drive({ ...bridge, url });
  };

  const find =
    options.findBridges ?? (options.mdns ? () => discoverHueBridgesMdns({ timeoutMs: 3_000 }) : null);

  /** One look for a paired bridge that stopped answering; true when it is driven again. */
  const relocate = async (id: string): Promise<boolean> => {
    const bridge = stored(id);
    if (!bridge) return true;
    const found = await lookForBridge(bridge, await findBridgePlaces(given, demoServer, find));
    if (found?.kind === 'same') {
      await move(bridge, found.url);
      return true;
    }
    if (found?.kind !== 'certificate-changed') return false;
    // The demo's bridge is made anew with each start of the demo server: pair it again.
    if (demoServer) return (await support.pair(found.url)).ok;
    if (!warnedCertificate.has(id)) {
      warnedCertificate.add(id);
      log.warn(`Hue bridge ${bridge.name ?? id} at ${found.url}: ${HUE_CERTIFICATE_CHANGED}`);
    }
    return false;
  };

  const addCandidate = async (url: string) => {
    const address = clean(url);
    try {
      const config = await fetchHueBridgeConfig(address);
      const bridge = stored(config.bridgeId.toLowerCase());
      // The bridge moved to another address (DHCP): the same id and certificate, the same key.
      if (bridge && bridge.url !== address) {
        const found = await lookForBridge(bridge, [{ url: address, bridgeId: null }]);
        if (found?.kind === 'same') await move(bridge, address);
      }
      candidates.set(config.bridgeId.toLowerCase(), { url: address, name: config.name });
    } catch (error) {
      log.warn(`Hue bridge at ${address}: ${error instanceof Error ? error.message : String(error)}`);
    }
  };

  const support: HueSupport = {
    async start(extra, demo) {
      demoServer = demo;
      given = extra.map(clean);
      for (const bridge of store.get().hueBridges) {
        try {
          await driving.drive(bridge);
        } catch (error) {
          log.warn(
            `Hue bridge ${bridge.name ?? bridge.url}: ${error instanceof Error ? error.message : String(error)}`,
          );
        }
      }
      for (const url of extra) await addCandidate(url);
      await support.discover();
      // The demo's bridge is paired on the spot: its link button is a control route of the simulator.
      if (demo) {
        for (const [id, candidate] of candidates) {
          if (!hub.has(`hue:${id}`)) await support.pair(candidate.url);
        }
      }
    },
    async discover() {
      if (!options.mdns || !find) return;
      try {
        for (const found of await find()) await addCandidate(found.url);
      } catch (error) {
        log.warn(`Hue bridge search: ${error instanceof Error ? error.message : String(error)}`);
      }
    },
    async pair(url) {
      const target =
        (url === undefined ? undefined : clean(url)) ??
        [...candidates.values()].find((c) => !store.get().hueBridges.some((b) => b.url === c.url))?.url;
      if (!target)
        return {
          ok: false,
          error: 'No Hue bridge found. Enter its address (see the Hue app: Settings → Bridges).',
        };
      pairing = 'Press the link button on your Hue bridge…';
      log.info(`Hue: pairing with ${target}: press the link button on the bridge`);
      try {
        const { bridge, name } = await pairBridgeAt(target, options.deviceName, demoServer);
        keepBridge(store, bridge);
        await driving.drive(bridge);
        candidates.set(bridge.bridgeId.toLowerCase(), { url: target, name });
        pairing = `Paired with ${name}.`;
        log.info(`Hue: paired with ${name}`);
        return { ok: true, name };
      } catch (error) {
        pairing = error instanceof Error ? error.message : String(error);
        log.warn(`Hue: ${pairing}`);
        return { ok: false, error: pairing };
      }
    },
    searchAgain: () => search.now(),
    view() {
      const paired = store.get().hueBridges;
      const rows = new Map<string, HueView['bridges'][number]>();
      for (const [id, c] of candidates) rows.set(id, { url: c.url, name: c.name, paired: false });
      for (const b of paired)
        rows.set(b.bridgeId.toLowerCase(), { url: b.url, name: b.name ?? null, paired: true });
      return { bridges: [...rows.values()], pairing };
    },
    async close() {
      driving.stop();
      search.close();
      candidates.clear();
    },
  };
  return support;
}

/**
 * Drives paired bridges on the hub, one driver each: a bridge whose certificate changed at its
 * address leaves the hub (its key is not sent there again); one that stops answering is searched for.
 */
function createBridgeDriving(options: {
  hub: LightsHub;
  search: { lost(id: string): void; answered(id: string): void };
  onCertificateChanged(bridge: StoredHueBridge): Promise<void>;
}) {
  const { hub, search } = options;
  const changedCertificate = new Set<string>();
  /** The driver of each bridge now: a replaced one's last reads say nothing. */
  const current = new Map<string, HueLocalDriver>();
  let stopped = false;
  return {
    drive: async (bridge: StoredHueBridge) => {
      const id = bridge.bridgeId.toLowerCase();
      changedCertificate.delete(id);
      search.answered(id);
      const driver = createHueLocalDriver({
        url: bridge.url,
        bridgeId: bridge.bridgeId,
        applicationKey: bridge.applicationKey,
        fingerprint256: bridge.fingerprint256 ?? '',
      });
      // Another certificate at the bridge's address is another device: stop sending it the key.
      driver.subscribe((event) => {
        if (event.type !== 'error' && event.type !== 'disconnect') return;
        if (event.error.message !== HUE_CERTIFICATE_CHANGED || changedCertificate.has(id)) return;
        changedCertificate.add(id);
        void hub.remove(keyOf(bridge)).then(() => options.onCertificateChanged(bridge));
      });
      current.set(id, driver);
      const onRead = (answered: boolean, error?: unknown) => {
        if (current.get(id) !== driver || stopped) return;
        if (answered) search.answered(id);
        else if (isSilence(error)) search.lost(id);
      };
      await hub.add('hue_local', keyOf(bridge), asLanDriver(driver, onRead));
    },
    stop: () => {
      stopped = true;
      current.clear();
    },
  };
}

/**
 * The searches for bridges that stopped answering, one per bridge id: the first look at once, then
 * after HUE_SEARCH_FIRST_MS doubling up to HUE_SEARCH_MAX_MS, until the bridge answers or is driven
 * at a new address. One look at a time per bridge.
 */
function createBridgeSearch(options: {
  relocate: (id: string) => Promise<boolean>;
  isPaired: (id: string) => boolean;
}) {
  const searches = new Map<string, { timer: NodeJS.Timeout | null; waitMs: number; looking: boolean }>();
  const look = async (id: string) => {
    const search = searches.get(id);
    if (!search || search.looking) return;
    search.timer = null;
    search.looking = true;
    const found = await options.relocate(id).catch(() => false);
    search.looking = false;
    if (searches.get(id) !== search) return;
    if (found || !options.isPaired(id)) {
      searches.delete(id);
      return;
    }
    search.timer = setTimeout(() => void look(id), search.waitMs);
    search.timer.unref();
    search.waitMs = Math.min(search.waitMs * 2, HUE_SEARCH_MAX_MS);
  };
  const stop = (id: string) => {
    const search = searches.get(id);
    if (search?.timer) clearTimeout(search.timer);
    searches.delete(id);
  };
  return {
    lost(id: string) {
      if (searches.has(id)) return;
      searches.set(id, { timer: null, waitMs: HUE_SEARCH_FIRST_MS, looking: false });
      void look(id);
    },
    answered: stop,
    now() {
      for (const [id, search] of searches) {
        if (search.timer) clearTimeout(search.timer);
        search.waitMs = HUE_SEARCH_FIRST_MS;
        void look(id);
      }
    },
    close() {
      for (const id of [...searches.keys()]) stop(id);
    },
  };
}

type Place = Pick<HueBridgeCandidate, 'url' | 'bridgeId'>;

/** Stores a paired bridge (its address, key and pin), in place of what was stored for its id. */
function keepBridge(store: StateFile, bridge: StoredHueBridge): void {
  const id = bridge.bridgeId.toLowerCase();
  store.update((s) => ({
    ...s,
    hueBridges: [...s.hueBridges.filter((b) => b.bridgeId.toLowerCase() !== id), bridge],
  }));
}

/** Where a paired bridge may answer now: the addresses given, the demo's simulator, mDNS. */
async function findBridgePlaces(
  given: readonly string[],
  demoServer: string | null,
  find: (() => Promise<Place[]>) | null,
): Promise<Place[]> {
  const places: Place[] = given.map((url) => ({ url, bridgeId: null }));
  const demo = demoServer ? await readDemoBridge(demoServer) : null;
  if (demo) places.push({ url: demo, bridgeId: null });
  if (find) places.push(...(await find().catch(() => [])));
  return places;
}

/**
 * The first place where the paired bridge answers as itself (its id and stored certificate), else
 * the first where a bridge says it is it with another certificate; null when neither.
 */
async function lookForBridge(
  bridge: StoredHueBridge,
  places: readonly Place[],
): Promise<{ kind: 'same' | 'certificate-changed'; url: string } | null> {
  const id = bridge.bridgeId.toLowerCase();
  let changed: string | null = null;
  for (const place of places) {
    const url = clean(place.url);
    if (url === bridge.url || (place.bridgeId !== null && place.bridgeId !== id)) continue;
    const found = await findPairedHueBridgeAt(url, {
      bridgeId: id,
      fingerprint256: bridge.fingerprint256 ?? null,
    });
    if (found.kind === 'same') return { kind: 'same', url };
    if (found.kind === 'certificate-changed') changed ??= url;
  }
  return changed === null ? null : { kind: 'certificate-changed', url: changed };
}

/** Pairs with the bridge at `target` (its link button; the demo's is pressed by its control route). */
async function pairBridgeAt(
  target: string,
  deviceName: string,
  demoServer: string | null,
): Promise<{ bridge: StoredHueBridge; name: string }> {
  if (demoServer) await pressDemoLinkButton(demoServer);
  const config = await fetchHueBridgeConfig(target);
  const paired = await pairHueBridge(target, { deviceType: `flaglight#${deviceName}`.slice(0, 40) });
  return {
    bridge: {
      url: target,
      bridgeId: paired.bridgeId,
      applicationKey: paired.applicationKey,
      fingerprint256: paired.fingerprint256,
      name: config.name,
    },
    name: config.name,
  };
}

/** The demo server's simulated bridge: where it answers since the server (re)started. */
async function readDemoBridge(server: string): Promise<string | null> {
  try {
    const response = await fetch(`${server}/sims/lan/state`, { signal: AbortSignal.timeout(5_000) });
    if (!response.ok) return null;
    const state = (await response.json()) as { hueBridge?: { url?: unknown } };
    return typeof state.hueBridge?.url === 'string' ? state.hueBridge.url : null;
  } catch {
    return null;
  }
}

async function pressDemoLinkButton(server: string): Promise<void> {
  await fetch(`${server}/sims/lan/_control/hue/link-button`, {
    method: 'POST',
    signal: AbortSignal.timeout(5_000),
  }).catch(() => undefined);
}
