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

/** What the demo server's LAN simulator says at `/sims/lan/state`: where each of its devices answers. */
export interface DemoLan extends DemoLanTargets {
  homeAssistant: { url: string; token: string } | null;
}

const DEMO_RETRY_MS = 5_000;
/** How often the lights are checked for a simulator gone (reading nothing over the network). */
export const DEMO_LAN_CHECK_MS = 2_000;
/** While lights are lost, `/sims/lan/state` is read again after this, doubling up to the most. */
export const DEMO_LAN_FIRST_READ_MS = 2_000;
export const DEMO_LAN_MAX_READ_MS = 30_000;

/** Waits for the demo server's LAN simulator (a server still starting); null when stopped first. */
export async function waitForDemoLan(
  server: string,
  log: Logger,
  signal: AbortSignal,
): Promise<DemoLan | null> {
  for (let warned = false; !signal.aborted; warned = true) {
    try {
      const lan = await readDemoLan(server);
      log.info(`Demo: LAN simulator of ${server}`);
      return lan;
    } catch (error) {
      if (!warned) {
        const why = error instanceof Error ? error.message : String(error);
        log.warn(`Demo: no LAN simulator at ${server}/sims/lan/state yet (${why}); trying again every 5 s`);
      }
      await new Promise((resolve) => setTimeout(resolve, DEMO_RETRY_MS).unref());
    }
  }
  return null;
}

/**
 * Reads the demo server's LAN simulator: its LIFX discovery port, its Hue bridge, its Govee scan
 * target and ports (every Govee device commanded at the port its reply came from), its Nanoleaf
 * controllers, its WLED devices and its Home Assistant.
 */
export async function readDemoLan(server: string): Promise<DemoLan> {
  const response = await fetch(`${server}/sims/lan/state`, { signal: AbortSignal.timeout(5_000) });
  if (!response.ok) throw new Error(`answered ${response.status}`);
  const state = (await response.json()) as {
    lifx?: { host?: string; discoveryPort?: number };
    hueBridge?: { url?: string };
    govee?: { host?: string; scanPort?: number; replyPort?: number };
    nanoleaf?: { devices?: { host?: string; port?: number }[] };
    wled?: { devices?: { host?: string; port?: number }[] };
    homeAssistant?: { url?: unknown; token?: unknown };
  };
  const lan: DemoLan = {
    lifxTargets: [],
    hueBridges: [],
    goveeTargets: [],
    goveePorts: { scan: 0, listen: 0, command: 'source' },
    nanoleaf: [],
    wled: [],
    homeAssistant: null,
  };
  if (state.lifx?.discoveryPort)
    lan.lifxTargets.push({ host: state.lifx.host ?? '127.0.0.1', port: state.lifx.discoveryPort });
  if (state.hueBridge?.url) lan.hueBridges.push(state.hueBridge.url);
  if (state.govee?.scanPort && state.govee.replyPort) {
    lan.goveeTargets.push({ host: state.govee.host ?? '127.0.0.1', port: state.govee.scanPort });
    lan.goveePorts = { scan: state.govee.scanPort, listen: state.govee.replyPort, command: 'source' };
  }
  for (const device of state.nanoleaf?.devices ?? [])
    if (device.port) lan.nanoleaf.push({ host: device.host ?? '127.0.0.1', port: device.port });
  for (const device of state.wled?.devices ?? [])
    if (device.port) lan.wled?.push({ host: device.host ?? '127.0.0.1', port: device.port });
  const ha = state.homeAssistant;
  if (typeof ha?.url === 'string' && typeof ha.token === 'string')
    lan.homeAssistant = { url: ha.url, token: ha.token };
  return lan;
}

/** The given targets with the simulator's added (the demo's Govee ports replace the defaults). */
export function withDemoLan(given: DemoLanTargets, lan: DemoLan | null): DemoLanTargets {
  if (!lan) return given;
  return {
    lifxTargets: [...given.lifxTargets, ...lan.lifxTargets],
    hueBridges: [...given.hueBridges, ...lan.hueBridges],
    goveeTargets: [...given.goveeTargets, ...lan.goveeTargets],
    goveePorts: lan.goveeTargets.length > 0 ? lan.goveePorts : given.goveePorts,
    nanoleaf: [...given.nanoleaf, ...lan.nanoleaf],
    wled: [...(given.wled ?? []), ...(lan.wled ?? [])],
  };
}

export type DemoLanPart = 'lifx' | 'hue' | 'govee' | 'nanoleaf' | 'wled' | 'homeAssistant';

/** The simulator's parts that answer at other addresses than before. */
export function movedDemoLanParts(before: DemoLan, after: DemoLan): DemoLanPart[] {
  const parts: Record<DemoLanPart, (lan: DemoLan) => unknown> = {
    lifx: (lan) => lan.lifxTargets,
    hue: (lan) => lan.hueBridges,
    govee: (lan) => [lan.goveeTargets, lan.goveePorts],
    nanoleaf: (lan) => lan.nanoleaf,
    wled: (lan) => lan.wled,
    homeAssistant: (lan) => lan.homeAssistant,
  };
  return (Object.keys(parts) as DemoLanPart[]).filter(
    (part) => JSON.stringify(parts[part](before)) !== JSON.stringify(parts[part](after)),
  );
}

/**
 * Follows the demo server's LAN simulator: when lights are lost (`lost()`), or when kicked (the
 * server's stream is back), `/sims/lan/state` is read again, with a back-off while nothing changed;
 * a simulator at other addresses (the demo server restarted, each device on a new port) is handed
 * to `onMoved`, so the lights are found again without restarting the companion.
 */
export function watchDemoLan(options: {
  server: string;
  log: Logger;
  signal: AbortSignal;
  applied: DemoLan;
  lost: () => boolean;
  onMoved: (lan: DemoLan, parts: DemoLanPart[]) => Promise<void>;
}): { kick(): void } {
  const { log, signal } = options;
  let applied = options.applied;
  let waitMs = DEMO_LAN_FIRST_READ_MS;
  let kicked = false;
  let checking = false;
  let timer: NodeJS.Timeout | null = null;
  const schedule = (ms: number) => {
    if (signal.aborted) return;
    timer = setTimeout(() => void check(), ms);
    timer.unref();
  };
  const check = async () => {
    timer = null;
    if (signal.aborted || checking) return;
    if (!kicked && !options.lost()) {
      waitMs = DEMO_LAN_FIRST_READ_MS;
      return schedule(DEMO_LAN_CHECK_MS);
    }
    kicked = false;
    checking = true;
    try {
      const lan = await readDemoLan(options.server).catch(() => null);
      const moved = lan ? movedDemoLanParts(applied, lan) : [];
      if (lan && moved.length > 0 && !signal.aborted) {
        applied = lan;
        waitMs = DEMO_LAN_FIRST_READ_MS;
        log.info(
          `Demo: the LAN simulator's ${moved.join(', ')} answer at other addresses: finding the lights again`,
        );
        await options
          .onMoved(lan, moved)
          .catch((error: unknown) =>
            log.warn(`Demo: ${error instanceof Error ? error.message : String(error)}`),
          );
        return schedule(DEMO_LAN_CHECK_MS);
      }
    } finally {
      checking = false;
    }
    schedule(waitMs);
    waitMs = Math.min(waitMs * 2, DEMO_LAN_MAX_READ_MS);
  };
  schedule(DEMO_LAN_CHECK_MS);
  signal.addEventListener('abort', () => timer && clearTimeout(timer), { once: true });
  return {
    kick() {
      kicked = true;
      if (checking) return;
      if (timer) clearTimeout(timer);
      void check();
    },
  };
}
