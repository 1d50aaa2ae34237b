import { createWledDriver, discoverWledMdns, type WledAddress } from '@flaglight/lights/lan';
import type { Logger } from '../system/log.js';
import type { LightsHub } from './lights-hub.js';

const WLED_KEY = 'wled';

export interface WledSupportOptions {
  hub: LightsHub;
  log: Logger;
  /** The addresses given (`--wled`, or the demo's simulator). */
  addresses: readonly WledAddress[];
  /** mDNS `_wled._tcp` on a real LAN scan only (`--lan-scan`): never in demo mode or tests. */
  mdns: boolean;
  /** The mDNS search (tests pass found addresses): `discoverWledMdns` by default. */
  findDevices?: () => Promise<WledAddress[]>;
}

/**
 * WLED devices on the LAN: one driver for every device given or found, added to the hub like any
 * other brand (the same player, effect programs and broadcast delay). With the LAN scan, each
 * rescan (the hub's `discover`) searches mDNS again and adds what is new; a device found at a new
 * address keeps its id (its MAC), and is driven there only while its own address is silent: it goes
 * back as soon as that answers with its MAC again. No pairing: WLED's JSON API is open on the LAN.
 */
export async function startWledSupport(options: WledSupportOptions): Promise<void> {
  const { hub, log } = options;
  if (options.addresses.length === 0 && !options.mdns) return;
  const search = options.findDevices ?? (() => discoverWledMdns());
  const driver = createWledDriver({
    addresses: options.addresses,
    onLog: (message) => log.info(message),
  });
  await hub.add('wled', WLED_KEY, {
    ...driver,
    async discover() {
      if (options.mdns) await driver.addAddresses(await search().catch(() => []));
      return driver.connect();
    },
  });
  const found = driver.devices();
  const answering = found.filter((d) => d.reachable && d.info !== null).length;
  log.info(`WLED: ${answering} of ${found.length} device${found.length === 1 ? '' : 's'} answering`);
}
