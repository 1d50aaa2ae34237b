import type { GoveePorts } from '../options.js';
import type { Logger } from '../system/log.js';

/** The LAN targets a demo server's simulator adds to the companion's options. */
export interface DemoLanTargets {
  lifxTargets: { host: string; port: number }[];
  hueBridges: string[];
  goveeTargets: { host: string; port: number }[];
  goveePorts: GoveePorts;
  nanoleaf: { host: string; port: number }[];
  wled?: { host: string; port: number }[];
}

const DEMO_RETRY_MS = 5_000;

/** Waits for the demo server's LAN simulator (a server still starting); false when stopped first. */
export async function waitForDemoLan(
  server: string,
  targets: DemoLanTargets,
  log: Logger,
  signal: AbortSignal,
): Promise<boolean> {
  let warned = false;
  while (!signal.aborted && !(await configureDemo(server, targets, log, !warned))) {
    warned = true;
    await new Promise((resolve) => setTimeout(resolve, DEMO_RETRY_MS).unref());
  }
  return !signal.aborted;
}

/**
 * Reads the demo server's LAN simulator and adds its LIFX discovery port, its Hue bridge, its Govee
 * scan target and ports (every Govee device commanded at the port its reply came from) and its
 * Nanoleaf controllers and its WLED devices.
 */
async function configureDemo(
  server: string,
  options: DemoLanTargets,
  log: Logger,
  warn: boolean,
): Promise<boolean> {
  try {
    const response = await fetch(`${server}/sims/lan/state`, { signal: AbortSignal.timeout(5_000) });
    if (!response.ok) throw new Error(`answered ${response.status}`);
    const state = (await response.json()) as {
      lifx?: { host?: string; discoveryPort?: number };
      hueBridge?: { url?: string };
      govee?: { host?: string; scanPort?: number; replyPort?: number };
      nanoleaf?: { devices?: { host?: string; port?: number }[] };
      wled?: { devices?: { host?: string; port?: number }[] };
    };
    if (state.lifx?.discoveryPort)
      options.lifxTargets.push({ host: state.lifx.host ?? '127.0.0.1', port: state.lifx.discoveryPort });
    if (state.hueBridge?.url) options.hueBridges.push(state.hueBridge.url);
    if (state.govee?.scanPort && state.govee.replyPort) {
      options.goveeTargets.push({ host: state.govee.host ?? '127.0.0.1', port: state.govee.scanPort });
      options.goveePorts = { scan: state.govee.scanPort, listen: state.govee.replyPort, command: 'source' };
    }
    for (const device of state.nanoleaf?.devices ?? [])
      if (device.port) options.nanoleaf.push({ host: device.host ?? '127.0.0.1', port: device.port });
    for (const device of state.wled?.devices ?? [])
      if (device.port) (options.wled ??= []).push({ host: device.host ?? '127.0.0.1', port: device.port });
    log.info(`Demo: LAN simulator of ${server}`);
    return true;
  } catch (error) {
    if (warn) {
      const why = error instanceof Error ? error.message : String(error);
      log.warn(`Demo: no LAN simulator at ${server}/sims/lan/state yet (${why}); trying again every 5 s`);
    }
    return false;
  }
}
