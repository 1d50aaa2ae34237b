import { type FastifyInstance } from 'fastify';
import { sendLightsPage } from '../lights-page/page.js';
import { goveeSwatches, registerGoveeControl } from './govee-control.js';
import {
  GOVEE_LAN_DEMO_DEVICE_COUNT,
  startVirtualGoveeDevices,
  type VirtualGoveeDevices,
  type VirtualGoveeDeviceView,
} from './govee-lan.js';
import { homeAssistantSwatches, registerHomeAssistantControl } from './home-assistant-routes.js';
import { type HomeAssistantSim, type HomeAssistantSimView, startHomeAssistantSim } from './home-assistant.js';
import { type LocalHueBridge, type LocalHueBridgeView, startLocalHueBridge } from './hue-bridge.js';
import { hueSwatches, registerHueControl } from './hue-control.js';
import {
  LIFX_LAN_DEMO_BULB_COUNT,
  startVirtualLifxBulbs,
  type VirtualLifxBulbs,
  type VirtualLifxBulbView,
} from './lifx-bulbs.js';
import { lifxSwatches, registerLifxControl } from './lifx-control.js';
import {
  NANOLEAF_DEMO_DEVICES,
  nanoleafSwatches,
  registerNanoleafControl,
  startNanoleafDemoDevices,
} from './nanoleaf-control.js';
import type { NanoleafSimDevice, NanoleafSimView } from './nanoleaf.js';
import {
  registerWledControl,
  startWledDemoDevices,
  WLED_DEMO_DEVICES,
  wledSwatches,
} from './wled-control.js';
import type { WledSimDevice, WledSimView } from './wled.js';

export { NANOLEAF_DEMO_DEVICES } from './nanoleaf-control.js';

export interface LanSimOptions {
  /** UDP port answering LIFX discovery for every bulb (0 = ephemeral). */
  lifxPort?: number;
  lifxCount?: number;
  /** HTTPS port of the local Hue bridge (0 = ephemeral). */
  hueBridgePort?: number;
  /** Govee: the shared scan port (0 = ephemeral) and the reply port the companion listens on (0 = a free one). */
  goveeScanPort?: number;
  goveeReplyPort?: number;
  goveeCount?: number;
  /** Nanoleaf controllers, each on its own ephemeral HTTP port (default 3). */
  nanoleafCount?: number;
  /** WLED devices, each on its own ephemeral HTTP port (default 2). */
  wledCount?: number;
  now?: () => number;
}

export interface LanSimState {
  lifx: { host: string; discoveryPort: number; bulbs: VirtualLifxBulbView[] };
  hueBridge: LocalHueBridgeView;
  /**
   * Scan at host:scanPort, listen on replyPort; `commandPort` null: each device takes commands at
   * the port its scan reply came from (loopback stands in for per-device IPs).
   */
  govee: {
    host: string;
    scanPort: number;
    replyPort: number;
    commandPort: null;
    devices: VirtualGoveeDeviceView[];
  };
  nanoleaf: { devices: NanoleafSimView[] };
  /** WLED devices (`host`, `port`), which the companion's `--demo` reads. */
  wled: { devices: WledSimView[] };
  /** Home Assistant's REST API: `url` and the demo's `token`, which the companion's `--demo` reads. */
  homeAssistant: HomeAssistantSimView;
}

export interface LanSim {
  lifx: VirtualLifxBulbs;
  hueBridge: LocalHueBridge;
  govee: VirtualGoveeDevices;
  nanoleaf: NanoleafSimDevice[];
  wled: WledSimDevice[];
  homeAssistant: HomeAssistantSim;
  state(): LanSimState;
  /** `/` (live page), `/state` and `/_control/*`; mount it under a prefix (demo: /sims/lan). */
  plugin: (app: FastifyInstance) => Promise<void>;
  close(): Promise<void>;
}

/** Every virtual device of the LAN simulator. */
type LanDevices = Pick<LanSim, 'lifx' | 'hueBridge' | 'govee' | 'nanoleaf' | 'wled' | 'homeAssistant'>;

/** Starts the devices one kind after another; when one fails, those already started are closed. */
async function startLanDevices(options: LanSimOptions, now: () => number): Promise<LanDevices> {
  const lifx = await startVirtualLifxBulbs({
    count: options.lifxCount ?? LIFX_LAN_DEMO_BULB_COUNT,
    discoveryPort: options.lifxPort ?? 0,
    now,
  });
  let hueBridge: LocalHueBridge;
  let govee: VirtualGoveeDevices;
  try {
    hueBridge = await startLocalHueBridge({ port: options.hueBridgePort ?? 0, now });
  } catch (error) {
    await lifx.close();
    throw error;
  }
  try {
    // The third device's scan reply leaves out `ip`, as some models do (reference §2.1).
    govee = await startVirtualGoveeDevices({
      count: options.goveeCount ?? GOVEE_LAN_DEMO_DEVICE_COUNT,
      scanPort: options.goveeScanPort ?? 0,
      replyPort: options.goveeReplyPort ?? 0,
      omitIp: [2],
      now,
    });
  } catch (error) {
    await Promise.all([lifx.close(), hueBridge.close()]);
    throw error;
  }
  let nanoleaf: NanoleafSimDevice[];
  try {
    nanoleaf = await startNanoleafDemoDevices(options.nanoleafCount ?? NANOLEAF_DEMO_DEVICES.length, now);
  } catch (error) {
    await Promise.all([lifx.close(), hueBridge.close(), govee.close()]);
    throw error;
  }
  let homeAssistant: HomeAssistantSim;
  try {
    homeAssistant = await startHomeAssistantSim({ now });
  } catch (error) {
    await Promise.all([lifx.close(), hueBridge.close(), govee.close(), ...nanoleaf.map((d) => d.close())]);
    throw error;
  }
  let wled: WledSimDevice[];
  try {
    wled = await startWledDemoDevices(options.wledCount ?? WLED_DEMO_DEVICES.length, now);
  } catch (error) {
    await Promise.all([lifx.close(), hueBridge.close(), govee.close(), ...nanoleaf.map((d) => d.close())]);
    await homeAssistant.close();
    throw error;
  }
  return { lifx, hueBridge, govee, nanoleaf, wled, homeAssistant };
}

/**
 * The LAN simulator (lan-lights.md §3, nanoleaf-govee.md §3): virtual LIFX bulbs and Govee devices
 * on UDP, a local Hue bridge on HTTPS and Nanoleaf controllers on HTTP, all on 127.0.0.1, with an
 * HTTP face for the demo page, their state and faults.
 */
export async function startLanSim(options: LanSimOptions = {}): Promise<LanSim> {
  const now = options.now ?? Date.now;
  const devices = await startLanDevices(options, now);
  const { lifx, hueBridge, govee, nanoleaf, wled, homeAssistant } = devices;

  const state = (): LanSimState => ({
    lifx: { host: lifx.host, discoveryPort: lifx.discoveryPort, bulbs: lifx.list() },
    hueBridge: hueBridge.view(),
    govee: {
      host: govee.host,
      scanPort: govee.scanPort,
      replyPort: govee.replyPort,
      commandPort: null,
      devices: govee.list(),
    },
    nanoleaf: { devices: nanoleaf.map((d) => d.view()) },
    wled: { devices: wled.map((d) => d.view()) },
    homeAssistant: homeAssistant.view(),
  });

  async function plugin(app: FastifyInstance): Promise<void> {
    app.get('/', async (_request, reply) => sendLightsPage(reply, 'LAN lights simulator'));
    app.get('/state', async () => state());
    // The live page's shape: every light of every kind as one swatch.
    app.get('/_control/bulbs', async () => ({
      bulbs: [
        ...lifxSwatches(lifx),
        ...hueSwatches(hueBridge, now),
        ...goveeSwatches(govee),
        ...nanoleafSwatches(nanoleaf),
        ...wledSwatches(wled),
        ...homeAssistantSwatches(homeAssistant),
      ],
    }));
    registerLifxControl(app, lifx);
    registerGoveeControl(app, govee);
    registerHueControl(app, hueBridge);
    registerNanoleafControl(app, nanoleaf);
    registerHomeAssistantControl(app, homeAssistant);
    registerWledControl(app, wled);
    app.post('/_control/reset', async () => {
      lifx.reset();
      hueBridge.reset();
      govee.reset();
      for (const device of nanoleaf) device.reset();
      for (const device of wled) device.reset();
      homeAssistant.reset();
      return { ok: true };
    });
  }

  return {
    ...devices,
    state,
    plugin,
    async close() {
      await Promise.all(wled.map((d) => d.close()));
      await homeAssistant.close();
      await Promise.all([lifx.close(), hueBridge.close(), govee.close(), ...nanoleaf.map((d) => d.close())]);
    },
  };
}
