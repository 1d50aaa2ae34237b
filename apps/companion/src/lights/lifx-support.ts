import { createLifxLanDriver } from '@flaglight/lights/lan';
import type { Logger } from '../system/log.js';
import type { LightsHub } from './lights-hub.js';

const LIFX_KEY = 'lifx';

/** LIFX bulbs on the LAN: discovery at the given unicast targets, plus the broadcast scan when allowed. */
export function createLifxSupport(options: { hub: LightsHub; log: Logger; broadcast: boolean }) {
  const { hub, log } = options;
  return {
    async start(targets: readonly { host: string; port: number }[]): Promise<void> {
      if (targets.length === 0 && !options.broadcast) return;
      const loopbackOnly =
        !options.broadcast && targets.every((target) => /^127\.|^localhost$|^::1$/.test(target.host));
      const driver = createLifxLanDriver({
        targets,
        broadcast: options.broadcast,
        // Talking to the simulator only: never open a socket on the network.
        ...(loopbackOnly ? { bindAddress: '127.0.0.1' } : {}),
        onLog: (message) => log.info(message),
      });
      await hub.add('lifx_lan', LIFX_KEY, driver);
      const found = hub.lights().filter((light) => light.provider === 'lifx_lan').length;
      log.info(
        found === 0
          ? 'LIFX: no bulbs answered yet (searching again every minute)'
          : `LIFX: ${found} bulb${found === 1 ? '' : 's'} found`,
      );
    },
  };
}
