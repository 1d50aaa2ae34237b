import os from 'node:os';
import path from 'node:path';
import { PreferencesDocumentSchema, type Preferences } from '@flaglight/contract';
import { getEffectiveDelayMs, isEffectFlag } from '@flaglight/core';
import {
  appOriginsFor,
  DEFAULT_BRIDGE_PORT,
  PortInUseError,
  probeCompanion,
  startLocalBridge,
  type BridgeStatus,
  type LocalBridge,
} from './bridge/local-bridge.js';
import type { CompanionOptions, CompanionStart } from './companion-types.js';
import { createF1Fallback } from './follow/f1-fallback.js';
import { startFollower, type Follower, type FollowerStatus } from './follow/follower.js';
import { createPlayback } from './follow/playback.js';
import { createHomeSupport } from './home/home-support.js';
import { createGoveeSupport } from './lights/govee-support.js';
import { createHomeAssistantSupport } from './lights/home-assistant-support.js';
import { createHueSupport, type HueSupport } from './lights/hue-support.js';
import { startLanLights } from './lights/lan-start.js';
import { createLifxSupport } from './lights/lifx-support.js';
import { createLightsHub, type LightsHub } from './lights/lights-hub.js';
import { createNanoleafSupport, type NanoleafSupport } from './lights/nanoleaf-support.js';
import { linkDevice } from './link/device-flow.js';
import { createLightReporter } from './link/light-report.js';
import { createServerApi, ServerError, type DeviceCodeAnswer, type ServerApi } from './link/server-api.js';
import { startStateReporter } from './link/state-report.js';
import { createLogger } from './system/log.js';
import { openBrowser } from './system/open-browser.js';
import { platformName } from './system/paths.js';
import { StateFile } from './system/state-file.js';
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
  if (running) return { kind: 'already-running', url: `http://127.0.0.1:${options.port}/`, status: running };
  const log = createLogger({
    console: options.console,
    ...(options.logToFile ? { file: path.join(options.dataDir, 'companion.log') } : {}),
  });
  const store = new StateFile(options.dataDir);
  const loaded = store.load();
  if (loaded.warning) log.warn(loaded.warning);
  if (loaded.state.token && loaded.state.server !== server) {
    // A token is for the server that issued it, never sent elsewhere.
    log.warn(
      `This companion is linked to ${loaded.state.server ?? 'another server'}; linking it to ${server} instead.`,
    );
    store.update((state) => ({
      ...state,
      token: undefined,
      device: undefined,
      server,
      preferences: undefined,
      lastLiveAt: undefined,
    }));
  }

  const api: ServerApi = createServerApi(server);
  const hub: LightsHub = createLightsHub({ log });
  hub.setPaused(store.get().paused);
  const stopping = new AbortController();
  let follower: Follower | null = null;
  let pendingCode: DeviceCodeAnswer | null = null;
  let followStatus: FollowerStatus = {
    state: 'connecting',
    sessionKey: null,
    message: null,
    lastEventAt: null,
  };
  let preferences: Preferences | null = null;
  let linkedResolve: () => void = () => undefined;
  const linkedPromise = new Promise<void>((resolve) => (linkedResolve = resolve));

  const delayMs = () => {
    if (!preferences) return 0;
    const base = getEffectiveDelayMs(preferences.delay);
    const offset = preferences.delayOffsetsMs[store.get().device?.id ?? ''] ?? 0;
    return Math.max(0, base + offset);
  };

  const applyPreferences = (raw: unknown) => {
    const parsed = PreferencesDocumentSchema.safeParse(raw);
    if (!parsed.success) return;
    const before = preferences ? delayMs() : null;
    preferences = parsed.data.preferences;
    // Kept for the F1 live-timing fallback: the user's delay still applies while the server is away.
    if (JSON.stringify(store.get().preferences) !== JSON.stringify(raw))
      store.update((s) => ({ ...s, preferences: raw }));
    hub.setSelection({
      selectedLights: preferences.selectedLights,
      sharedLightsDriver: preferences.sharedLightsDriver,
    });
    if (before !== delayMs()) log.info(`Broadcast delay: ${(delayMs() / 1000).toFixed(1)} s`);
  };

  const refreshPreferences = async (token: string) => {
    try {
      applyPreferences(await api.preferences(token));
    } catch (error) {
      if (refusedToken(token, error)) return;
      log.warn(
        `Could not read the account's settings: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  };

  const followedSource = () => fallback.view().source;
  const home = createHomeSupport({
    mqtt: options.mqtt ?? null,
    companionName: options.deviceName ?? os.hostname(),
    store,
    log,
  });
  const playback = createPlayback({
    hub,
    log,
    delayMs,
    onPlayed: (data, delay) => home.played(data, followedSource(), delay),
  });
  const { onFlags } = playback;

  if (loaded.state.preferences !== undefined) applyPreferences(loaded.state.preferences);
  const fallback = createF1Fallback({
    url: options.f1Live ?? null,
    log,
    play: onFlags,
    shownState: () => playback.shown()?.state ?? null,
    sessionKey: () => followStatus.sessionKey,
    lastLiveAt: readTime(store.get().lastLiveAt),
    onLastLive(at) {
      const kept = readTime(store.get().lastLiveAt);
      // One write a minute at most while following.
      if (at === null ? store.get().lastLiveAt !== undefined : kept === null || at - kept >= 60_000)
        store.update((s) => ({ ...s, lastLiveAt: at === null ? undefined : new Date(at).toISOString() }));
    },
    ...options.f1Fallback,
  });

  // Lights: LIFX (unicast targets, the broadcast scan when asked) and paired Hue bridges.
  const lifx = createLifxSupport({ hub, log, broadcast: options.lanScan });
  const govee = createGoveeSupport({ hub, log, multicast: options.lanScan && !options.demo });
  const hue: HueSupport = createHueSupport({
    hub,
    log,
    store,
    mdns: options.lanScan,
    deviceName: options.deviceName ?? os.hostname(),
  });
  const nanoleaf: NanoleafSupport = createNanoleafSupport({ hub, log, store, mdns: options.lanScan });
  const ha = createHomeAssistantSupport({ hub, log, store, server, options, signal: stopping.signal });

  const reporter = createLightReporter({
    api,
    log,
    token: () => store.get().token,
    lights: () => hub.lights(),
    onTokenRefused: (token, error) => void refusedToken(token, error),
  });
  const reportLights = () => reporter.schedule();
  hub.onChange(reportLights);

  const status = (): BridgeStatus => {
    const state = store.get();
    return {
      version: APP_VERSION,
      platform: process.platform,
      linked: Boolean(state.token),
      ...(pendingCode && !state.token
        ? {
            userCode: pendingCode.user_code,
            verificationUri: pendingCode.verification_uri,
            verificationUriComplete: pendingCode.verification_uri_complete,
          }
        : {}),
      server,
      device: state.device ?? null,
      source: fallback.view().source,
      f1Live: fallback.view(),
      stream: {
        state: state.token ? followStatus.state : 'unlinked',
        message: followStatus.message,
        lastEventAt: followStatus.lastEventAt ? new Date(followStatus.lastEventAt).toISOString() : null,
      },
      session: followStatus.sessionKey !== null ? { sessionKey: followStatus.sessionKey } : null,
      flag: playback.shown(),
      pending: playback.pending(),
      delayMs: delayMs(),
      paused: hub.paused(),
      lights: hub.lights(),
      hue: hue.view(),
      govee: govee.view(),
      nanoleaf: nanoleaf.view(),
      ...home.status(),
      log: log.recent().slice(-30),
    };
  };

  let bridge: LocalBridge;
  try {
    bridge = await startLocalBridge({
      port: options.port,
      appOrigins: appOriginsFor(server),
      actions: ha.withActions({
        status,
        test: (state) => isEffectFlag(state) && playback.showTest(state, 'Test'),
        setPaused(paused) {
          hub.setPaused(paused);
          store.update((s) => ({ ...s, paused }));
          // Resumed: the lights take the race's flag at once, not at the next change.
          const now = playback.raceFlag();
          if (!paused && now) hub.play(now.state);
          log.info(paused ? 'Lights paused' : `Lights resumed${now ? `: ${now.state}` : ''}`);
          stateReporter.now();
        },
        rescan: async () => {
          await hub.rescan();
          await hue.discover();
          await nanoleaf.discover();
        },
        pairHue: (url) => hue.pair(url),
        pairNanoleaf: (address) => nanoleaf.pair(address),
        forgetNanoleaf: (id) => nanoleaf.forget(id),
        unlink: () => unlinkHere('Unlinked on this computer.'),
      }),
    });
  } catch (error) {
    // What started already stops: the caller gets no companion to close.
    stopping.abort();
    reporter.close();
    await fallback.close();
    await home.close();
    await hub.close();
    if (error instanceof PortInUseError) {
      const answering = await probeCompanion(options.port);
      if (answering)
        return { kind: 'already-running', url: `http://127.0.0.1:${options.port}/`, status: answering };
      throw new Error(
        `Port ${options.port} is used by another program. Start the companion with --port <another port>.`,
        { cause: error },
      );
    }
    throw error;
  }
  log.info(`Flaglight Companion ${APP_VERSION}: status page ${bridge.url}`);
  // What the room shows, told to the server so every page of the account says the same.
  const stateReporter = startStateReporter({
    api,
    log,
    sources: {
      token: () => store.get().token,
      bridgePort: () => bridge.port,
      paused: () => hub.paused(),
      stream: () => followStatus,
      showing: () => playback.shown()?.state ?? null,
    },
  });

  // Demo: the LAN simulator of the demo server stands in for the home network.
  const lan = startLanLights({
    given: options,
    demo: options.demo,
    lanScan: options.lanScan,
    server,
    hub,
    log,
    signal: stopping.signal,
    lifx,
    govee,
    hue,
    nanoleaf,
    homeAssistant: ha,
  });
  const lanReady = lan.ready;

  /**
   * The link is gone (unlinked in Settings, or here): the lights stop at once, flags queued behind
   * the delay included, and stay as they are; following stops and a new code is offered.
   */
  const forget = (message: string) => {
    playback.clear();
    hub.cancelAll();
    if (!store.get().token) return;
    log.warn(`${message} Link it again to follow the race.`);
    store.update((s) => ({ ...s, token: undefined, device: undefined }));
    follower = null;
    followStatus = { state: 'unlinked', sessionKey: null, message, lastEventAt: null };
    fallback.followerStatus(followStatus);
    hub.setSelection({ selectedLights: {}, sharedLightsDriver: 'companion' });
    void runLink(false);
  };

  /** Unlinked here, or the server refused the token on a call of its own (401): the follower stops too. */
  const unlinkHere = async (message: string) => {
    const stopped = follower;
    follower = null;
    playback.clear();
    hub.cancelAll();
    await stopped?.stop();
    forget(message);
  };
  const refusedToken = (token: string, error: unknown) => {
    if (!(error instanceof ServerError && error.status === 401) || store.get().token !== token) return false;
    void unlinkHere(error.message);
    return true;
  };

  const follow = (token: string) => {
    follower = startFollower({
      api,
      token,
      handlers: {
        onFlags: (flags) => onFlags(fallback.fromServer(flags)),
        onPreferences: applyPreferences,
        onTest(state) {
          if (isEffectFlag(state)) playback.showTest(state, 'Test from the web app');
        },
        onUnlinked(message) {
          forget(message);
        },
        onStatus(next) {
          if (next.state !== followStatus.state) {
            if (next.state === 'following') log.info('Following the live session');
            else if (next.message) log.info(next.message);
          }
          followStatus = next;
          fallback.followerStatus(next);
          home.following(next.sessionKey, next.state !== 'waiting' && next.state !== 'unlinked');
        },
        onConnected() {
          void refreshPreferences(token);
          reportLights();
          // A demo server that restarted has its LAN simulator on new ports.
          lan.kick();
        },
      },
    });
  };

  const runLink = async (firstStart: boolean) => {
    const outcome = await linkDevice(
      api,
      { name: options.deviceName ?? os.hostname(), platform: platformName() },
      {
        onCode(code) {
          pendingCode = code;
          log.info(`Open ${code.verification_uri_complete} and confirm ${code.user_code}`);
          if (firstStart && options.openBrowser) void openBrowser(code.verification_uri_complete);
          firstStart = false;
        },
        onExpired() {
          log.info('The link code expired: here is a new one.');
        },
        onUnreachable(message) {
          followStatus = { ...followStatus, state: 'reconnecting', message };
        },
      },
      stopping.signal,
    );
    pendingCode = null;
    if (!outcome.ok) {
      if (outcome.reason === 'denied')
        log.warn('Linking was cancelled in the browser. Run `flaglight-companion link` to try again.');
      return;
    }
    store.update((s) => ({ ...s, server, token: outcome.token.access_token, device: outcome.token.device }));
    log.info(`Linked as "${outcome.token.device.name}".`);
    linkedResolve();
    await refreshPreferences(outcome.token.access_token);
    reportLights();
    follow(outcome.token.access_token);
  };

  const token = store.get().token;
  if (token) {
    linkedResolve();
    void refreshPreferences(token);
    follow(token);
  } else {
    void runLink(true);
  }

  return {
    kind: 'started',
    companion: {
      bridge,
      log,
      status,
      linked: () => linkedPromise,
      async close() {
        stopping.abort();
        reporter.close();
        stateReporter.close();
        playback.clear();
        await follower?.stop();
        await fallback.close();
        await lanReady;
        await hue.close();
        await nanoleaf.close();
        await home.close();
        await hub.close();
        await bridge.close();
      },
    },
  };
}

function readTime(iso: string | undefined): number | null {
  const ms = iso === undefined ? Number.NaN : Date.parse(iso);
  return Number.isFinite(ms) ? ms : null;
}

export { DEFAULT_BRIDGE_PORT };
