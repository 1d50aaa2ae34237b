import {
  createHomeAssistantAgent,
  createHomeAssistantDriver,
  HOME_ASSISTANT_TOKEN_REFUSED,
  homeAssistantRequest,
  isHomeAssistantToken,
  parseHomeAssistantUrl,
  type HomeAssistantDriver,
  type HomeAssistantEntityError,
} from '@flaglight/lights/lan';
import type { BridgeActions, BridgeStatus } from '../bridge/local-bridge.js';
import type { Logger } from '../system/log.js';
import type { StateFile } from '../system/state-file.js';
import type { LightsHub } from './lights-hub.js';

const KEY = 'home_assistant';
const DEMO_RETRY_MS = 5_000;

/** `--home-assistant URL`, its token from `FLAGLIGHT_HA_TOKEN`, and `--home-assistant-insecure`. */
export interface HomeAssistantSettings {
  url: string | null;
  token: string | null;
  insecure: boolean;
}

/** What the companion's options carry for Home Assistant (absent: off, unless `--demo`). */
export interface HomeAssistantOptions {
  homeAssistant?: HomeAssistantSettings;
}

/** The status page's view: never the token, only whether one is saved and where it came from. */
export interface HomeAssistantView {
  url: string | null;
  state: 'off' | 'needs-token' | 'connecting' | 'connected' | 'unreachable' | 'token-refused';
  message: string | null;
  /** A token entered on the status page is kept (it can be forgotten there). */
  tokenSaved: boolean;
  /** The token comes from `FLAGLIGHT_HA_TOKEN`. */
  tokenFromEnv: boolean;
  lights: number;
  entityErrors: HomeAssistantEntityError[];
}

/**
 * Why a token was not saved, from the status of `GET /api/`: only 200 is Home Assistant taking it.
 * A redirect, a page that is not there or a server error says nothing about the token.
 */
export function describeTokenCheck(status: number): string {
  const notSaved = 'The token was not saved.';
  if (status === 401 || status === 403) return 'Home Assistant refused this token: the token was not saved.';
  if (status >= 300 && status < 400)
    return `Home Assistant answered ${status} (a redirect): check the URL — use the address Home Assistant itself shows, with http/https as it expects. ${notSaved}`;
  if (status === 404)
    return `Home Assistant answered 404 (not found): is this Home Assistant's own address, without a path? ${notSaved}`;
  if (status >= 500)
    return `Home Assistant answered ${status} (a server error): try again once it runs normally. ${notSaved}`;
  return `Home Assistant answered ${status}, not 200: check the URL. ${notSaved}`;
}

export type SaveTokenResult = { ok: true } | { ok: false; error: string };

export interface HomeAssistantSupport {
  /** Checks a token with `GET /api/` (saved on 200 only), keeps it in the state file and drives with it. */
  saveToken(token: string): Promise<SaveTokenResult>;
  /** Drops the saved token (the `FLAGLIGHT_HA_TOKEN` one, if any, is used again). */
  forgetToken(): Promise<void>;
  view(): HomeAssistantView;
  /** Demo: the simulator answers at another address now (the demo server restarted). */
  moveDemo(sim: { url: string; token: string }): Promise<void>;
  /** The local bridge's actions with the Home Assistant routes and the status page's view added. */
  withActions(actions: BridgeActions): BridgeActions;
}

/**
 * The LAN simulator's Home Assistant, asked of the demo server until it answers (warned once while
 * it does not); null when it has none, or once `signal` aborts.
 */
async function findDemoHomeAssistant(
  server: string,
  signal: AbortSignal,
  log: Logger,
): Promise<{ url: string; token: string } | null> {
  for (let warned = false; !signal.aborted; warned = true) {
    try {
      const response = await fetch(`${server}/sims/lan/state`, {
        signal: AbortSignal.timeout(5_000),
      });
      const state = (await response.json()) as { homeAssistant?: { url?: unknown; token?: unknown } };
      const sim = state.homeAssistant;
      if (typeof sim?.url !== 'string' || typeof sim.token !== 'string') return null;
      return { url: parseHomeAssistantUrl(sim.url), token: sim.token };
    } catch (error) {
      if (!warned)
        log.warn(
          `Home Assistant (demo): no simulator yet (${error instanceof Error ? error.message : String(error)})`,
        );
      await new Promise((resolve) => setTimeout(resolve, DEMO_RETRY_MS).unref());
    }
  }
  return null;
}

/**
 * Asks Home Assistant at `base` whether it takes `token` (`GET /api/`): why it is not saved, or null
 * to save it (taken, or Home Assistant not answering now: then it is tried when it answers).
 */
async function checkToken(base: string, token: string, insecure: boolean): Promise<string | null> {
  const agent = createHomeAssistantAgent(base, insecure);
  try {
    // Never followed: a redirect would carry the token to wherever it points.
    const check = await homeAssistantRequest(base, token, { method: 'GET', path: '/api/', agent });
    if (check.status !== 200) return describeTokenCheck(check.status);
  } catch {
    // Home Assistant is not answering now: the token is kept and tried when it answers.
  } finally {
    agent.destroy();
  }
  return null;
}

/**
 * Home Assistant's lights through its REST API: one driver for the instance at `--home-assistant`
 * (in demo mode, the LAN simulator's), with the token from `FLAGLIGHT_HA_TOKEN` or the one entered
 * on the status page, which is kept in the state file for that address only and wins over the
 * environment's. The token is never logged, never shown again and never sent to the Flaglight
 * server. A token Home Assistant refuses (401) stops the driver; the page asks for a new one.
 */
export function createHomeAssistantSupport(options: {
  hub: LightsHub;
  log: Logger;
  store: StateFile;
  server: string;
  options: HomeAssistantOptions & { demo: boolean };
  signal: AbortSignal;
}): HomeAssistantSupport {
  const { hub, log, store, signal } = options;
  const given = options.options.homeAssistant ?? { url: null, token: null, insecure: false };
  let url: string | null = given.url;
  let envToken: string | null = given.token;
  let demoToken = false;
  let driver: HomeAssistantDriver | null = null;
  let problem: string | null = null;

  const savedToken = () => {
    const saved = store.get().homeAssistant;
    // A token is for the address it was entered for: never sent to another one.
    return saved && saved.url === url ? saved.token : null;
  };

  const drive = async () => {
    if (signal.aborted || url === null) return;
    const token = savedToken() ?? envToken;
    if (token === null) {
      await hub.remove(KEY);
      driver = null;
      return;
    }
    try {
      const created = createHomeAssistantDriver({
        url,
        token,
        insecure: given.insecure,
        onLog: (message) => log.info(message),
      });
      problem = null;
      driver = created;
      await hub.add('home_assistant', KEY, created);
      const count = created.lights().length;
      if (created.connection() === 'connected')
        log.info(`Home Assistant: ${count} light${count === 1 ? '' : 's'} at ${url}`);
    } catch (error) {
      problem = error instanceof Error ? error.message : String(error);
      log.warn(`Home Assistant: ${problem}`);
    }
  };

  /** Demo mode without `--home-assistant`: the LAN simulator's instance and its demo token. */
  const demoSettings = async () => {
    const sim = await findDemoHomeAssistant(options.server, signal, log);
    if (!sim) return;
    url = sim.url;
    demoToken = envToken === null;
    envToken ??= sim.token;
  };

  void (async () => {
    if (options.options.demo && url === null) await demoSettings();
    if (url !== null && savedToken() === null && envToken === null)
      log.info('Home Assistant: enter a long-lived access token on the status page');
    await drive();
  })().catch((error: unknown) =>
    log.error(`Home Assistant: ${error instanceof Error ? error.message : String(error)}`),
  );

  const support: HomeAssistantSupport = {
    async saveToken(token) {
      const base = url;
      if (base === null) return { ok: false, error: 'Start the companion with --home-assistant URL first.' };
      const trimmed = token.trim();
      if (!isHomeAssistantToken(trimmed))
        return { ok: false, error: 'Paste the whole long-lived access token (one line, no spaces).' };
      const refused = await checkToken(base, trimmed, given.insecure);
      if (refused !== null) return { ok: false, error: refused };
      store.update((s) => ({ ...s, homeAssistant: { url: base, token: trimmed } }));
      log.info('Home Assistant: token saved');
      await drive();
      return { ok: true };
    },
    async forgetToken() {
      if (!store.get().homeAssistant) return;
      store.update((s) => ({ ...s, homeAssistant: undefined }));
      log.info('Home Assistant: saved token forgotten');
      await drive();
    },
    async moveDemo(sim) {
      // Only the demo's own instance: one given with --home-assistant stays where it was given.
      if (!options.options.demo || given.url !== null) return;
      const next = parseHomeAssistantUrl(sim.url);
      if (next === url) return;
      url = next;
      if (demoToken) envToken = sim.token;
      await drive();
    },
    view() {
      const lights = driver?.lights() ?? [];
      const connection = driver?.connection();
      const tokenSaved = savedToken() !== null;
      const state: HomeAssistantView['state'] =
        url === null
          ? 'off'
          : !driver
            ? 'needs-token'
            : connection === 'closed'
              ? 'connecting'
              : (connection ?? 'connecting');
      return {
        url,
        state,
        message:
          state === 'needs-token'
            ? (problem ?? 'Enter a long-lived access token (Home Assistant: your profile → Security).')
            : state === 'token-refused'
              ? (driver?.problem() ?? HOME_ASSISTANT_TOKEN_REFUSED)
              : (driver?.problem() ?? problem),
        tokenSaved,
        tokenFromEnv: !tokenSaved && envToken !== null && !demoToken,
        lights: lights.length,
        entityErrors: driver?.entityErrors() ?? [],
      };
    },
    withActions(actions) {
      return {
        ...actions,
        status: (): BridgeStatus => ({ ...actions.status(), homeAssistant: support.view() }),
        saveHomeAssistantToken: (token) => support.saveToken(token),
        forgetHomeAssistantToken: () => support.forgetToken(),
      };
    },
  };
  return support;
}
