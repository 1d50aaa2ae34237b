import type { GoveePorts } from '../options.js';
import type { Logger } from '../system/log.js';
import {
  waitForDemoLan,
  watchDemoLan,
  withDemoLan,
  type DemoLan,
  type DemoLanPart,
  type DemoLanTargets,
} from './demo-lan.js';
import type { GoveeSupport } from './govee-support.js';
import type { HomeAssistantSupport } from './home-assistant-support.js';
import type { HueSupport } from './hue-support.js';
import type { createLifxSupport } from './lifx-support.js';
import type { LightsHub } from './lights-hub.js';
import type { NanoleafSupport } from './nanoleaf-support.js';
import { startWledSupport } from './wled-support.js';

export interface LanLights {
  /** Resolves once every brand has started (or the companion stopped first). */
  ready: Promise<void>;
  /** The server's stream is back: in demo mode, a restarted demo server's simulator is looked for now. */
  kick(): void;
}

/** Whether a brand's lights are all lost (none answering), or no light is known at all. */
function someBrandLost(hub: LightsHub): boolean {
  const answering = new Map<string, boolean>();
  for (const light of hub.lights())
    answering.set(light.provider, (answering.get(light.provider) ?? false) || light.reachable);
  return answering.size === 0 || [...answering.values()].some((any) => !any);
}

/**
 * Starts the LAN lights: LIFX, Govee, Hue, Nanoleaf and WLED at the given addresses, and in demo
 * mode at the demo server's LAN simulator, waited for while the server starts. Later, when a brand's
 * lights are all lost, the simulator is read again (with a back-off) and the brands it moved (a demo
 * server restarted on new ports) start again there: no companion restart needed.
 */
export function startLanLights(deps: {
  given: DemoLanTargets & { goveePorts: GoveePorts };
  demo: boolean;
  lanScan: boolean;
  server: string;
  hub: LightsHub;
  log: Logger;
  signal: AbortSignal;
  lifx: ReturnType<typeof createLifxSupport>;
  govee: GoveeSupport;
  hue: HueSupport;
  nanoleaf: NanoleafSupport;
  homeAssistant: HomeAssistantSupport;
}): LanLights {
  const { hub, log, server } = deps;
  const demoServer = deps.demo ? server : null;
  let watch: { kick(): void } | null = null;

  const restart = async (lan: DemoLan, parts: DemoLanPart[]) => {
    const targets = withDemoLan(deps.given, lan);
    if (parts.includes('lifx')) await deps.lifx.start(targets.lifxTargets);
    if (parts.includes('govee')) await deps.govee.start(targets.goveeTargets, targets.goveePorts);
    if (parts.includes('hue')) deps.hue.searchAgain();
    if (parts.includes('nanoleaf')) await deps.nanoleaf.start(targets.nanoleaf, demoServer);
    if (parts.includes('wled'))
      await startWledSupport({ hub, log, addresses: targets.wled ?? [], mdns: deps.lanScan });
    if (parts.includes('homeAssistant') && lan.homeAssistant)
      await deps.homeAssistant.moveDemo(lan.homeAssistant);
  };

  const ready = (async () => {
    // A demo server still starting is waited for: the lights start beside the link and the race.
    const lan = deps.demo ? await waitForDemoLan(server, log, deps.signal) : null;
    if (deps.demo && !lan) return;
    const targets = withDemoLan(deps.given, lan);
    await deps.lifx.start(targets.lifxTargets);
    await deps.govee.start(targets.goveeTargets, targets.goveePorts);
    await deps.hue.start(targets.hueBridges, demoServer);
    await deps.nanoleaf.start(targets.nanoleaf, demoServer);
    await startWledSupport({ hub, log, addresses: targets.wled ?? [], mdns: deps.lanScan });
    if (!lan || deps.signal.aborted) return;
    watch = watchDemoLan({
      server,
      log,
      signal: deps.signal,
      applied: lan,
      lost: () => someBrandLost(hub),
      onMoved: restart,
    });
  })().catch((error: unknown) =>
    log.error(`Lights: ${error instanceof Error ? error.message : String(error)}`),
  );

  return { ready, kick: () => watch?.kick() };
}
