// The local bridge: its actions (the status page's buttons, the web app's test, the `unlink`
// command), started on its port; a port already taken is answered by the companion there, or explained.
import { isEffectFlag } from '@flaglight/core';
import {
  appOriginsFor,
  PortInUseError,
  probeCompanion,
  startLocalBridge,
  type BridgeActions,
  type BridgeStatus,
  type LocalBridge,
} from '../bridge/local-bridge.js';
import type { CompanionStart } from '../companion-types.js';
import type { Playback } from '../follow/playback.js';
import type { LightsHub } from '../lights/lights-hub.js';
import type { Logger } from '../system/log.js';
import type { StateFile } from '../system/state-file.js';
import type { Updater } from '../update/updater.js';
import type { CompanionLights } from './start-lights.js';

export type AlreadyRunning = Extract<CompanionStart, { kind: 'already-running' }>;

export function alreadyRunning(port: number, status: BridgeStatus): AlreadyRunning {
  return { kind: 'already-running', url: `http://127.0.0.1:${port}/`, status };
}

export function createBridgeActions(deps: {
  status: () => BridgeStatus;
  hub: LightsHub;
  store: StateFile;
  log: Logger;
  playback: Playback;
  lights: Pick<CompanionLights, 'hue' | 'nanoleaf' | 'ha'>;
  /** Tells the server what the room shows now (paused or resumed). */
  reportState: () => void;
  unlink: (message: string) => Promise<void>;
  updater: Updater;
}): BridgeActions {
  const { hub, store, log, playback } = deps;
  const { hue, nanoleaf, ha } = deps.lights;
  return ha.withActions({
    status: deps.status,
    test: (state) => isEffectFlag(state) && playback.showTest(state, 'Test'),
    setPaused(paused) {
      hub.setPaused(paused);
      store.update((s) => ({ ...s, paused }));
      // Resumed: the lights take the race's flag at once, not at the next change.
      const now = playback.raceFlag();
      if (!paused && now) hub.play(now.state);
      log.info(paused ? 'Lights paused' : `Lights resumed${now ? `: ${now.state}` : ''}`);
      // Paused lights are a quiet moment: a waiting update need not wait for its next look.
      if (paused) deps.updater.lookForQuiet();
      deps.reportState();
    },
    rescan: async () => {
      await hub.rescan();
      await hue.discover();
      await nanoleaf.discover();
    },
    pairHue: (url) => hue.pair(url),
    pairNanoleaf: (address) => nanoleaf.pair(address),
    forgetNanoleaf: (id) => nanoleaf.forget(id),
    unlink: () => deps.unlink('Unlinked on this computer.'),
    updates: {
      check: () => deps.updater.checkNow(),
      setAuto: (auto) => deps.updater.setAuto(auto),
      installWhenQuiet: () => deps.updater.installWhenQuiet(),
      setChannel: (channel) => deps.updater.setChannel(channel),
      listVersions: () => deps.updater.listVersions(),
      installVersion: (version, confirmOlder) => deps.updater.installVersion(version, confirmOlder),
    },
  });
}

/** Starts the bridge; when it cannot, what started already stops first (the caller gets no companion to close). */
export async function startBridge(deps: {
  port: number;
  server: string;
  actions: BridgeActions;
  stopStarted: () => Promise<void>;
}): Promise<{ kind: 'started'; bridge: LocalBridge } | AlreadyRunning> {
  const { port } = deps;
  try {
    const bridge = await startLocalBridge({
      port,
      appOrigins: appOriginsFor(deps.server),
      actions: deps.actions,
    });
    return { kind: 'started', bridge };
  } catch (error) {
    await deps.stopStarted();
    if (error instanceof PortInUseError) {
      const answering = await probeCompanion(port);
      if (answering) return alreadyRunning(port, answering);
      throw new Error(
        `Port ${port} is used by another program. Start the companion with --port <another port>.`,
        {
          cause: error,
        },
      );
    }
    throw error;
  }
}
