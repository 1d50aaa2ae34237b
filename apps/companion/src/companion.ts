import { DEFAULT_BRIDGE_PORT, probeCompanion } from './bridge/local-bridge.js';
import type { Companion, CompanionOptions, CompanionStart } from './companion-types.js';
import { startLanLights, type LanLights } from './lights/lan-start.js';
import { createLightsHub, type LightsHub } from './lights/lights-hub.js';
import { createLightReporter, type LightReporter } from './link/light-report.js';
import { createServerApi, type ServerApi } from './link/server-api.js';
import { startStateReporter } from './link/state-report.js';
import { createAccountPreferences } from './start/account-preferences.js';
import { describeStatus } from './start/describe-status.js';
import { createFollowState, type FollowState } from './start/follow-state.js';
import { startLinking, type AccountLink } from './start/link-and-follow.js';
import { openLog, openStateFile } from './start/open-state.js';
import { alreadyRunning, createBridgeActions, startBridge } from './start/start-bridge.js';
import { createLights, type CompanionLights } from './start/start-lights.js';
import { startPlayback, type CompanionPlayback } from './start/start-playback.js';
import { startRoomSnapshots } from './start/start-room.js';
import type { Logger } from './system/log.js';
import type { StateFile } from './system/state-file.js';
import { isQuietMoment } from './update/quiet.js';
import { createUpdater, type Updater } from './update/updater.js';
import { APP_VERSION } from './version.js';

export type { Companion, CompanionOptions, CompanionStart } from './companion-types.js';

/**
 * The companion: links to the account, follows its live session, applies the broadcast delay and
 * drives the LAN lights, and serves the local bridge. Every part recovers by itself: the server
 * restarting, the network dropping, the computer sleeping, a bulb going away.
 */
export async function startCompanion(options: CompanionOptions): Promise<CompanionStart> {
  const server = options.server.replace(/\/+$/, '');
  // A second start (the Start-menu shortcut): the running one answers on the port, and nothing of
  // this one starts (its Home Assistant driver alone kept a stray process alive).
  const running = options.port === 0 ? null : await probeCompanion(options.port);
  if (running) return alreadyRunning(options.port, running);
  const log = openLog(options);
  const { store, saved } = openStateFile(options.dataDir, server, log);

  const api = createServerApi(server);
  // The account's looks, read as each flag starts (`preferences` is set just below, before any flag).
  const hub = createLightsHub({ log, looks: () => preferences.looks() });
  hub.setPaused(store.get().paused);
  const stopping = new AbortController();
  const follow = createFollowState();
  const preferences = createAccountPreferences({
    api,
    store,
    hub,
    log,
    refusedToken: (token, error) => account.refusedToken(token, error),
  });
  const flags = startPlayback({
    options,
    store,
    log,
    hub,
    api,
    preferences,
    sessionKey: () => follow.status.sessionKey,
    flagPlayed: (state, sessionKey) => room.flagPlayed(state, sessionKey, flags.sessions.view().kind),
  });
  const room = startRoomSnapshots({ options, hub, log, preferences, follow, sessions: flags.sessions });
  if (saved.preferences !== undefined) preferences.apply(saved.preferences);
  const lights = createLights({ options, server, hub, log, store, signal: stopping.signal });
  const reporter = startLightReport({ api, log, store, hub, account: () => account });
  const updater = startUpdater({ options, server, store, log, hub, follow, flags });
  const status = () => ({
    ...describeStatus({ server, store, follow, flags, lights, hub, log, delayMs: preferences.delayMs }),
    updates: updater.view(),
    room: room.view(),
  });

  const started = await startBridge({
    port: options.port,
    server,
    actions: createBridgeActions({
      status,
      hub,
      store,
      log,
      playback: flags.playback,
      lights,
      reportState: () => stateReporter.now(),
      unlink: (message) => account.unlinkHere(message),
      updater,
    }),
    async stopStarted() {
      updater.close();
      stopping.abort();
      reporter.close();
      await flags.fallback.close();
      await flags.home.close();
      await hub.close();
    },
  });
  if (started.kind === 'already-running') return started;
  const { bridge } = started;
  log.info(`Flaglight Companion ${APP_VERSION}: status page ${bridge.url}`);
  // What the room shows, told to the server so every page of the account says the same.
  const stateReporter = startStateReporter({
    api,
    log,
    sources: {
      token: () => store.get().token,
      bridgePort: () => bridge.port,
      paused: () => hub.paused(),
      stream: () => follow.status,
      showing: () => flags.playback.shown()?.state ?? null,
    },
  });
  const lan = startLan({ options, server, hub, log, lights, signal: stopping.signal });
  const account: AccountLink = startLinking({
    api,
    server,
    options,
    store,
    log,
    hub,
    follow,
    flags,
    preferences,
    reportLights: () => reporter.schedule(),
    lan,
    signal: stopping.signal,
  });

  return {
    kind: 'started',
    companion: {
      bridge,
      log,
      status,
      linked: () => follow.linked,
      close: () => {
        updater.close();
        return closeCompanion({ stopping, reporter, stateReporter, follow, flags, lan, lights, hub, bridge });
      },
    },
  };
}

/** Updates: checked from the start unless turned off; installed only at a quiet moment (decision 045). */
function startUpdater(deps: {
  options: CompanionOptions;
  server: string;
  store: StateFile;
  log: Logger;
  hub: LightsHub;
  follow: FollowState;
  flags: CompanionPlayback;
}): Updater {
  const { update } = deps.options;
  const { playback } = deps.flags;
  return createUpdater({
    server: deps.server,
    enabled: update?.enabled ?? false,
    store: deps.store,
    log: deps.log,
    executable: update?.executable ?? null,
    isQuiet: () =>
      isQuietMoment({
        paused: deps.hub.paused(),
        sessionKey: deps.follow.status.sessionKey,
        pending: playback.pending().length,
        shownAt: playback.shown()?.at ?? null,
        now: Date.now(),
      }),
    install: update?.install ?? (() => Promise.resolve({ ok: false, message: 'Updates are turned off.' })),
    ...(update?.firstCheckMs !== undefined ? { firstCheckMs: update.firstCheckMs } : {}),
    ...(update?.quietPollMs !== undefined ? { quietPollMs: update.quietPollMs } : {}),
  });
}

/** The lights reported to the server (for Settings) whenever the hub's lights change. */
function startLightReport(deps: {
  api: ServerApi;
  log: Logger;
  store: StateFile;
  hub: LightsHub;
  account: () => AccountLink;
}): LightReporter {
  const { hub } = deps;
  const reporter = createLightReporter({
    api: deps.api,
    log: deps.log,
    token: () => deps.store.get().token,
    lights: () => hub.lights(),
    onTokenRefused: (token, error) => void deps.account().refusedToken(token, error),
  });
  hub.onChange(() => reporter.schedule());
  return reporter;
}

/** The LAN lights started at their addresses; in demo mode, the demo server's LAN simulator stands in for the home network. */
function startLan(deps: {
  options: CompanionOptions;
  server: string;
  hub: LightsHub;
  log: Logger;
  lights: CompanionLights;
  signal: AbortSignal;
}): LanLights {
  const { options, lights } = deps;
  return startLanLights({
    given: options,
    demo: options.demo,
    lanScan: options.lanScan,
    server: deps.server,
    hub: deps.hub,
    log: deps.log,
    signal: deps.signal,
    lifx: lights.lifx,
    govee: lights.govee,
    hue: lights.hue,
    nanoleaf: lights.nanoleaf,
    homeAssistant: lights.ha,
  });
}

async function closeCompanion(parts: {
  stopping: AbortController;
  reporter: LightReporter;
  stateReporter: ReturnType<typeof startStateReporter>;
  follow: FollowState;
  flags: CompanionPlayback;
  lan: LanLights;
  lights: CompanionLights;
  hub: LightsHub;
  bridge: Companion['bridge'];
}): Promise<void> {
  parts.stopping.abort();
  parts.reporter.close();
  parts.stateReporter.close();
  parts.flags.playback.clear();
  await parts.follow.follower?.stop();
  await parts.flags.fallback.close();
  parts.flags.sessions.close();
  await parts.lan.ready;
  await parts.lights.hue.close();
  await parts.lights.nanoleaf.close();
  await parts.flags.home.close();
  await parts.hub.close();
  await parts.bridge.close();
}

export { DEFAULT_BRIDGE_PORT };
