// The light brands the companion drives, each ready to start at its addresses (see lan-start.ts).
import os from 'node:os';
import type { CompanionOptions } from '../companion-types.js';
import { createGoveeSupport, type GoveeSupport } from '../lights/govee-support.js';
import { createHomeAssistantSupport, type HomeAssistantSupport } from '../lights/home-assistant-support.js';
import { createHueSupport, type HueSupport } from '../lights/hue-support.js';
import { createLifxSupport } from '../lights/lifx-support.js';
import type { LightsHub } from '../lights/lights-hub.js';
import { createNanoleafSupport, type NanoleafSupport } from '../lights/nanoleaf-support.js';
import type { Logger } from '../system/log.js';
import type { StateFile } from '../system/state-file.js';

export interface CompanionLights {
  lifx: ReturnType<typeof createLifxSupport>;
  govee: GoveeSupport;
  hue: HueSupport;
  nanoleaf: NanoleafSupport;
  ha: HomeAssistantSupport;
}

/** LIFX (unicast targets, the broadcast scan when asked), Govee, paired Hue bridges, Nanoleaf, Home Assistant. */
export function createLights(deps: {
  options: CompanionOptions;
  server: string;
  hub: LightsHub;
  log: Logger;
  store: StateFile;
  signal: AbortSignal;
}): CompanionLights {
  const { options, server, hub, log, store } = deps;
  const lifx = createLifxSupport({ hub, log, broadcast: options.lanScan });
  const govee = createGoveeSupport({ hub, log, multicast: options.lanScan && !options.demo });
  const hue = createHueSupport({
    hub,
    log,
    store,
    mdns: options.lanScan,
    deviceName: options.deviceName ?? os.hostname(),
  });
  const nanoleaf = createNanoleafSupport({ hub, log, store, mdns: options.lanScan });
  const ha = createHomeAssistantSupport({ hub, log, store, server, options, signal: deps.signal });
  return { lifx, govee, hue, nanoleaf, ha };
}
