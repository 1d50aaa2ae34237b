import {
  HUE_CERTIFICATE_CHANGED,
  createHueLocalDriver,
  discoverHueBridgesMdns,
  fetchHueBridgeConfig,
  pairHueBridge,
} from '@flaglight/lights/lan';
import type { Logger } from '../system/log.js';
import type { StateFile, StoredHueBridge } from '../system/state-file.js';
import type { LanDriver, LightsHub } from './lights-hub.js';

type HueLocalDriver = ReturnType<typeof createHueLocalDriver>;

/** The hub's face of a Hue driver: `discover` reads the bridge's lights again. */
function asLanDriver(driver: HueLocalDriver): LanDriver {
  return {
    provider: driver.provider,
    get nativeStrobe() {
      return driver.nativeStrobe;
    },
    listDevices: () => driver.listDevices(),
    setState: (ids, state) => driver.setState(ids, state),
    playStep: (ids, step) => driver.playStep(ids, step),
    minStrobeHalfPeriodMs: (count) => driver.minStrobeHalfPeriodMs(count),
    cancelPending: () => driver.cancelPending(),
    subscribe: (listener) => driver.subscribe(listener),
    discover: () => driver.connect(),
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
  view(): HueView;
  close(): Promise<void>;
}

const keyOf = (bridge: { bridgeId: string }) => `hue:${bridge.bridgeId.toLowerCase()}`;

/**
 * Philips Hue bridges on the LAN: paired ones are driven (CLIP v2, certificate pinned to the bridge
 * id); unpaired ones wait for the user to press the link button and click Pair.
 */
export function createHueSupport(options: {
  hub: LightsHub;
  log: Logger;
  store: StateFile;
  mdns: boolean;
  deviceName: string;
}): HueSupport {
  const { hub, log, store } = options;
  const candidates = new Map<string, { url: string; name: string | null }>();
  let pairing: string | null = null;
  let demoServer: string | null = null;

  const changedCertificate = new Set<string>();
  const drive = async (bridge: StoredHueBridge) => {
    changedCertificate.delete(bridge.bridgeId.toLowerCase());
    const driver = createHueLocalDriver({
      url: bridge.url,
      bridgeId: bridge.bridgeId,
      applicationKey: bridge.applicationKey,
      fingerprint256: bridge.fingerprint256 ?? '',
    });
    // Another certificate at the bridge's address is another device: stop sending it the key.
    driver.subscribe((event) => {
      if (event.type !== 'error' && event.type !== 'disconnect') return;
      if (event.error.message !== HUE_CERTIFICATE_CHANGED) return;
      const id = bridge.bridgeId.toLowerCase();
      if (changedCertificate.has(id)) return;
      changedCertificate.add(id);
      void hub.remove(keyOf(bridge)).then(async () => {
        log.warn(`Hue bridge ${bridge.name ?? bridge.url}: ${HUE_CERTIFICATE_CHANGED}`);
        // The demo's bridge is made anew with each start of the demo server: pair it again.
        if (demoServer) await support.pair(bridge.url);
      });
    });
    await hub.add('hue_local', keyOf(bridge), asLanDriver(driver));
  };

  const addCandidate = async (url: string) => {
    const clean = url.replace(/\/+$/, '');
    try {
      const config = await fetchHueBridgeConfig(clean);
      const stored = store
        .get()
        .hueBridges.find((b) => b.bridgeId.toLowerCase() === config.bridgeId.toLowerCase());
      if (stored && stored.url !== clean) {
        // The bridge moved to another address (DHCP): same id, same key.
        store.update((s) => ({
          ...s,
          hueBridges: s.hueBridges.map((b) => (b === stored ? { ...b, url: clean } : b)),
        }));
        await drive({ ...stored, url: clean });
      }
      candidates.set(config.bridgeId.toLowerCase(), { url: clean, name: config.name });
    } catch (error) {
      log.warn(`Hue bridge at ${clean}: ${error instanceof Error ? error.message : String(error)}`);
    }
  };

  const support: HueSupport = {
    async start(extra, demo) {
      demoServer = demo;
      for (const bridge of store.get().hueBridges) {
        try {
          await drive(bridge);
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
      if (!options.mdns) return;
      try {
        for (const found of await discoverHueBridgesMdns({ timeoutMs: 3_000 })) await addCandidate(found.url);
      } catch (error) {
        log.warn(`Hue bridge search: ${error instanceof Error ? error.message : String(error)}`);
      }
    },
    async pair(url) {
      const target =
        url?.replace(/\/+$/, '') ??
        [...candidates.values()].find((c) => !store.get().hueBridges.some((b) => b.url === c.url))?.url;
      if (!target)
        return {
          ok: false,
          error: 'No Hue bridge found. Enter its address (see the Hue app: Settings → Bridges).',
        };
      pairing = 'Press the link button on your Hue bridge…';
      log.info(`Hue: pairing with ${target}: press the link button on the bridge`);
      try {
        if (demoServer) await pressDemoLinkButton(demoServer);
        const config = await fetchHueBridgeConfig(target);
        const paired = await pairHueBridge(target, {
          deviceType: `flaglight#${options.deviceName}`.slice(0, 40),
          onWaiting: () => {
            pairing = 'Press the link button on your Hue bridge…';
          },
        });
        const bridge: StoredHueBridge = {
          url: target,
          bridgeId: paired.bridgeId,
          applicationKey: paired.applicationKey,
          fingerprint256: paired.fingerprint256,
          name: config.name,
        };
        store.update((s) => ({
          ...s,
          hueBridges: [
            ...s.hueBridges.filter((b) => b.bridgeId.toLowerCase() !== bridge.bridgeId.toLowerCase()),
            bridge,
          ],
        }));
        await drive(bridge);
        candidates.set(bridge.bridgeId.toLowerCase(), { url: target, name: config.name });
        pairing = `Paired with ${config.name}.`;
        log.info(`Hue: paired with ${config.name}`);
        return { ok: true, name: config.name };
      } catch (error) {
        pairing = error instanceof Error ? error.message : String(error);
        log.warn(`Hue: ${pairing}`);
        return { ok: false, error: pairing };
      }
    },
    view() {
      const paired = store.get().hueBridges;
      const rows = new Map<string, HueView['bridges'][number]>();
      for (const [id, c] of candidates) rows.set(id, { url: c.url, name: c.name, paired: false });
      for (const b of paired)
        rows.set(b.bridgeId.toLowerCase(), { url: b.url, name: b.name ?? null, paired: true });
      return { bridges: [...rows.values()], pairing };
    },
    async close() {
      candidates.clear();
    },
  };
  return support;
}

async function pressDemoLinkButton(server: string): Promise<void> {
  await fetch(`${server}/sims/lan/_control/hue/link-button`, {
    method: 'POST',
    signal: AbortSignal.timeout(5_000),
  }).catch(() => undefined);
}
