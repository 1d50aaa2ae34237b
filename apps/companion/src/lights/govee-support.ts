import { createGoveeLanDriver, GOVEE_LAN_CONTROL_ADVICE, type GoveeLanDriver } from '@flaglight/lights/lan';
import type { GoveePorts } from '../options.js';
import type { Logger } from '../system/log.js';
import type { LightsHub } from './lights-hub.js';

const GOVEE_KEY = 'govee';

/** What the status page shows about Govee: the advice when a scan finds nothing, or why it cannot listen. */
export interface GoveeView {
  active: boolean;
  devices: number;
  advice: string | null;
  error: string | null;
}

export interface GoveeSupport {
  start(targets: readonly { host: string; port: number }[], ports: GoveePorts): Promise<void>;
  view(): GoveeView;
}

/**
 * Govee devices on the LAN: the scan at the given unicast targets, plus the multicast group when
 * the real LAN scan is allowed (never in demo mode). Devices answer only with "LAN Control" on,
 * so a scan that finds nothing says so on the status page.
 */
export function createGoveeSupport(options: {
  hub: LightsHub;
  log: Logger;
  multicast: boolean;
}): GoveeSupport {
  const { hub, log } = options;
  let driver: GoveeLanDriver | null = null;
  let error: string | null = null;
  return {
    async start(targets, ports) {
      if (targets.length === 0 && !options.multicast) return;
      const loopbackOnly =
        !options.multicast && targets.every((target) => /^127\.|^localhost$/.test(target.host));
      const created = createGoveeLanDriver({
        targets,
        multicast: options.multicast,
        ports: {
          scan: ports.scan,
          listen: ports.listen,
          ...(ports.command === 'source' ? {} : { command: ports.command }),
        },
        commandPortFromReply: ports.command === 'source',
        // Talking to the simulator only: never open a socket on the network.
        ...(loopbackOnly ? { bindAddress: '127.0.0.1' } : {}),
        onLog: (message) => log.info(message),
      });
      created.subscribe((event) => {
        // The listen port taken (another Govee app) is the one error the page must explain.
        if (event.type === 'error' && event.error.kind === 'network') error = event.error.message;
      });
      driver = created;
      await hub.add('govee_lan', GOVEE_KEY, created);
      // Nothing found: the driver's warning (the LAN Control advice) is in the log already.
      const found = created.devices().length;
      if (found > 0) log.info(`Govee: ${found} device${found === 1 ? '' : 's'} found`);
    },
    view() {
      if (!driver) return { active: false, devices: 0, advice: null, error: null };
      // A later scan opened the port after all (the other app quit).
      if (driver.listenPort() !== null) error = null;
      return {
        active: true,
        devices: driver.devices().length,
        advice: driver.scanFoundNothing() && !error ? GOVEE_LAN_CONTROL_ADVICE : null,
        error,
      };
    },
  };
}
