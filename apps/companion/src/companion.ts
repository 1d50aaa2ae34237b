import os from 'node:os';
import path from 'node:path';
import { DEVICE_MAX_LIGHTS, PreferencesDocumentSchema, type Preferences } from '@flaglight/contract';
import { getEffectiveDelayMs, isEffectFlag } from '@flaglight/core';
import {
  DEFAULT_BRIDGE_PORT,
  PortInUseError,
  probeCompanion,
  startLocalBridge,
  type BridgeStatus,
  type LocalBridge,
} from './bridge/local-bridge.js';
import { createF1Fallback, type F1FallbackOptions } from './follow/f1-fallback.js';
import { startFollower, type DeliveredFlag, type Follower, type FollowerStatus } from './follow/follower.js';
import { createGoveeSupport } from './lights/govee-support.js';
import { createHueSupport, type HueSupport } from './lights/hue-support.js';
import { createLifxSupport } from './lights/lifx-support.js';
import { createLightsHub, flagLook, type LightsHub } from './lights/lights-hub.js';
import { createNanoleafSupport, type NanoleafSupport } from './lights/nanoleaf-support.js';
import { linkDevice } from './link/device-flow.js';
import { createServerApi, ServerError, type DeviceCodeAnswer, type ServerApi } from './link/server-api.js';
import type { GoveePorts } from './options.js';
import { createLogger, type Logger } from './system/log.js';
import { openBrowser } from './system/open-browser.js';
import { StateFile } from './system/state-file.js';
import { APP_VERSION } from './version.js';

export interface CompanionOptions {
  server: string;
  dataDir: string;
  port: number;
  openBrowser: boolean;
  /** Follow a local demo server and drive its LAN simulator. */
  demo: boolean;
  /** LIFX discovery targets (unicast), besides the broadcast scan. */
  lifxTargets: { host: string; port: number }[];
  /** Govee scan targets (unicast), besides the multicast scan. */
  goveeTargets: { host: string; port: number }[];
  /** Govee scan, listen and command ports (demo: the simulator's). */
  goveePorts: GoveePorts;
  /** Hue bridges to use besides mDNS. */
  hueBridges: string[];
  /** Nanoleaf controllers to offer for pairing besides mDNS (`--nanoleaf`). */
  nanoleaf: { host: string; port: number }[];
  /** The real LAN scan (broadcast, mDNS, Govee's multicast): never in demo mode or tests. */
  lanScan: boolean;
  console: boolean;
  /** Log to `companion.log` in the data folder (the background mode). */
  logToFile: boolean;
  deviceName?: string;
  /** F1 live timing's hub, followed directly while the server is unreachable; null or absent: off. */
  f1Live?: string | null;
  /** Timings of that fallback (tests). */
  f1Fallback?: Pick<F1FallbackOptions, 'outageMs' | 'recentLiveMs' | 'sessionOverMs' | 'client'>;
}

export type CompanionStart =
  { kind: 'started'; companion: Companion } | { kind: 'already-running'; url: string; status: BridgeStatus };

export interface Companion {
  bridge: LocalBridge;
  log: Logger;
  status(): BridgeStatus;
  /** Resolves once linked (at once when already linked). */
  linked(): Promise<void>;
  close(): Promise<void>;
}

/** A flag that reaches the lights later than this after its emission is played at once. */
const LATE_GRACE_MS = 2_000;
const REPORT_DEBOUNCE_MS = 1_000;
const DEMO_RETRY_MS = 5_000;
const REPORT_MIN_GAP_MS = 3_000;
const REPORT_RETRY_MS = 30_000;

/**
 * The companion: links to the account, follows its live session, applies the broadcast delay and
 * drives the LAN lights, and serves the local bridge. Every part recovers by itself: the server
 * restarting, the network dropping, the computer sleeping, a bulb going away.
 */
export async function startCompanion(options: CompanionOptions): Promise<CompanionStart> {
  const server = options.server.replace(/\/+$/, '');
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
  let shown: { state: string; message: string; css: string | null; at: string } | null = null;
  const pending = new Map<number, { state: string; at: number; timer: NodeJS.Timeout }>();
  let pendingId = 0;
  let linkedResolve: () => void = () => undefined;
  const linkedPromise = new Promise<void>((resolve) => (linkedResolve = resolve));

  const appOrigins = (() => {
    const origin = new URL(server).origin;
    const url = new URL(server);
    // The app is reached as 127.0.0.1 or localhost alike on a developer's machine.
    if (url.hostname === '127.0.0.1') return [origin, origin.replace('127.0.0.1', 'localhost')];
    if (url.hostname === 'localhost') return [origin, origin.replace('localhost', '127.0.0.1')];
    return [origin];
  })();

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
      log.warn(
        `Could not read the account's settings: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  };

  const showNow = (flag: DeliveredFlag | { state: string; message: string }) => {
    const state = 'data' in flag ? flag.data.state : flag.state;
    const message = 'data' in flag ? flag.data.cause.message : flag.message;
    hub.play(state);
    shown = { state, message, css: flagLook(state)?.css ?? null, at: new Date().toISOString() };
    log.info(`Flag ${state}${message ? `: ${message}` : ''}`);
  };

  const onFlags = (flags: DeliveredFlag[]) => {
    const delay = delayMs();
    const now = Date.now();
    const timed = flags.map((flag) => ({
      flag,
      at: flag.receivedAt + delay - Math.max(0, flag.ageMs - LATE_GRACE_MS),
    }));
    // Of the flags already due (a backlog after a reconnect), only the newest still matters.
    const due = timed.filter((entry) => entry.at <= now);
    const latestDue = due.at(-1);
    if (latestDue) {
      for (const [id, entry] of pending) {
        if (entry.at <= latestDue.at) {
          clearTimeout(entry.timer);
          pending.delete(id);
        }
      }
      showNow(latestDue.flag);
    }
    for (const entry of timed.filter((e) => e.at > now)) {
      const id = ++pendingId;
      hub.schedule(entry.flag.data.state, entry.at);
      const timer = setTimeout(() => {
        pending.delete(id);
        const { state, cause } = entry.flag.data;
        shown = {
          state,
          message: cause.message,
          css: flagLook(state)?.css ?? null,
          at: new Date().toISOString(),
        };
        log.info(`Flag ${state}${cause.message ? `: ${cause.message}` : ''}`);
      }, entry.at - now);
      timer.unref();
      pending.set(id, { state: entry.flag.data.state, at: entry.at, timer });
    }
  };

  if (loaded.state.preferences !== undefined) applyPreferences(loaded.state.preferences);
  const fallback = createF1Fallback({
    url: options.f1Live ?? null,
    log,
    play: onFlags,
    shownState: () => shown?.state ?? null,
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

  // The server takes 30 reports a minute per device: changes are gathered, one report every 3 s
  // at most, and a failed report is tried again.
  let reportTimer: NodeJS.Timeout | null = null;
  let lastReportAt = 0;
  const reportLights = (delayMs = REPORT_DEBOUNCE_MS) => {
    if (reportTimer) clearTimeout(reportTimer);
    const wait = Math.max(delayMs, lastReportAt + REPORT_MIN_GAP_MS - Date.now());
    reportTimer = setTimeout(() => {
      reportTimer = null;
      const token = store.get().token;
      if (!token) return;
      lastReportAt = Date.now();
      const lights = hub
        .lights()
        .slice(0, DEVICE_MAX_LIGHTS)
        .map(({ provider, id, label, reachable }) => ({
          provider,
          id,
          label: label.slice(0, 80),
          reachable,
        }));
      api.reportLights(token, lights).catch((error: unknown) => {
        if (error instanceof ServerError && (error.status === 401 || error.status === 404)) return;
        log.warn(
          `Could not report the lights to the server: ${error instanceof Error ? error.message : String(error)}`,
        );
        reportLights(REPORT_RETRY_MS);
      });
    }, wait);
    reportTimer.unref();
  };
  hub.onChange(() => reportLights());

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
      flag: shown,
      pending: [...pending.values()]
        .sort((a, b) => a.at - b.at)
        .map((p) => ({ state: p.state, at: new Date(p.at).toISOString() })),
      delayMs: delayMs(),
      paused: hub.paused(),
      lights: hub.lights(),
      hue: hue.view(),
      govee: govee.view(),
      nanoleaf: nanoleaf.view(),
      log: log.recent().slice(-30),
    };
  };

  let bridge: LocalBridge;
  try {
    bridge = await startLocalBridge({
      port: options.port,
      appOrigins,
      actions: {
        status,
        test(state) {
          if (!isEffectFlag(state)) return false;
          showNow({ state, message: 'Test' });
          return true;
        },
        setPaused(paused) {
          hub.setPaused(paused);
          store.update((s) => ({ ...s, paused }));
          log.info(paused ? 'Lights paused' : 'Lights resumed');
        },
        rescan: async () => {
          await hub.rescan();
          await hue.discover();
          await nanoleaf.discover();
        },
        pairHue: (url) => hue.pair(url),
        pairNanoleaf: (address) => nanoleaf.pair(address),
        forgetNanoleaf: (id) => nanoleaf.forget(id),
        async unlink() {
          await follower?.stop();
          forget('Unlinked on this computer.');
        },
      },
    });
  } catch (error) {
    if (error instanceof PortInUseError) {
      const running = await probeCompanion(options.port);
      if (running)
        return { kind: 'already-running', url: `http://127.0.0.1:${options.port}/`, status: running };
      throw new Error(
        `Port ${options.port} is used by another program. Start the companion with --port <another port>.`,
        { cause: error },
      );
    }
    throw error;
  }
  log.info(`Flaglight Companion ${APP_VERSION}: status page ${bridge.url}`);

  // Demo: the LAN simulator of the demo server stands in for the home network.
  // The lights start beside the link and the race: a demo server still starting is waited for.
  const lanReady = (async () => {
    if (options.demo) {
      let warned = false;
      while (!stopping.signal.aborted && !(await configureDemo(server, options, log, !warned))) {
        warned = true;
        await new Promise((resolve) => setTimeout(resolve, DEMO_RETRY_MS).unref());
      }
      if (stopping.signal.aborted) return;
    }
    await lifx.start(options.lifxTargets);
    await govee.start(options.goveeTargets, options.goveePorts);
    await hue.start(options.hueBridges, options.demo ? server : null);
    await nanoleaf.start(options.nanoleaf, options.demo ? server : null);
  })().catch((error: unknown) =>
    log.error(`Lights: ${error instanceof Error ? error.message : String(error)}`),
  );

  /** The link is gone (unlinked in Settings, or here): stop following and offer a new code. */
  const forget = (message: string) => {
    log.warn(`${message} Link it again to follow the race.`);
    store.update((s) => ({ ...s, token: undefined, device: undefined }));
    follower = null;
    followStatus = { state: 'unlinked', sessionKey: null, message, lastEventAt: null };
    fallback.followerStatus(followStatus);
    for (const entry of pending.values()) clearTimeout(entry.timer);
    pending.clear();
    hub.setSelection({ selectedLights: {}, sharedLightsDriver: 'companion' });
    void runLink(false);
  };

  const follow = (token: string) => {
    follower = startFollower({
      api,
      token,
      handlers: {
        onFlags: (flags) => onFlags(fallback.fromServer(flags)),
        onPreferences: applyPreferences,
        onTest(state) {
          if (isEffectFlag(state)) showNow({ state, message: 'Test from the web app' });
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
        },
        onConnected() {
          void refreshPreferences(token);
          reportLights();
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
        if (reportTimer) clearTimeout(reportTimer);
        for (const entry of pending.values()) clearTimeout(entry.timer);
        await follower?.stop();
        await fallback.close();
        await lanReady;
        await hue.close();
        await nanoleaf.close();
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

function platformName(): string {
  const names: Partial<Record<NodeJS.Platform, string>> = {
    win32: 'Windows',
    darwin: 'macOS',
    linux: 'Linux',
  };
  return `${names[process.platform] ?? process.platform} ${os.release()}`.slice(0, 40);
}

/**
 * Reads the demo server's LAN simulator and adds its LIFX discovery port, its Hue bridge, its Govee
 * scan target and ports (every Govee device commanded at the port its reply came from) and its
 * Nanoleaf controllers.
 */
async function configureDemo(
  server: string,
  options: CompanionOptions,
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

export { DEFAULT_BRIDGE_PORT };
