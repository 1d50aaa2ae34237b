import { type Clock, systemClock } from '../shared/clock.js';
import { Faults } from '../shared/faults.js';
import { createHueLights, type HueSimLight } from './lights.js';

export const DEMO_HUE_CLIENT_ID = 'demo-hue-client';
export const DEMO_HUE_CLIENT_SECRET = 'demo-hue-secret';
export const DEMO_HUE_APPLICATION_KEY = 'demo-hue-application-key';
export const HUE_DEMO_LIGHT_COUNT = 4;
/** The link button stays "pressed" this long (reference §3.1: pair within ~30 s). */
export const HUE_LINK_BUTTON_WINDOW_MS = 30_000;
export const HUE_ACCESS_TOKEN_TTL_S = 7 * 24 * 3600;
export const HUE_CODE_TTL_MS = 10 * 60_000;
/** The simulated bridge's id (lower-case hex, as its certificate CN). */
export const HUE_SIM_BRIDGE_ID = '001788fffe6a2b3c';

export interface HueSimOptions {
  now?: Clock;
  lightCount?: number;
  clientId?: string;
  clientSecret?: string;
  /** The registered callback, used when the authorize request names none. */
  redirectUri?: string;
  /**
   * Origins the OAuth decision may send the browser back to, besides the registered callback's,
   * its own and loopback ones (demo: PUBLIC_URL's). Any other `redirect_uri` gets a 400 page.
   */
  appOrigins?: readonly string[];
  /** Application keys the bridge already knows. Default `[DEMO_HUE_APPLICATION_KEY]`. */
  applicationKeys?: string[];
  accessTokenTtlSeconds?: number;
}

export interface HueLoggedRequest {
  method: string;
  path: string;
  at: number;
  status: number;
  body: unknown;
}

/** The options with their defaults filled in. */
export interface HueSettings {
  now: Clock;
  clientId: string;
  clientSecret: string;
  redirectUri: string | undefined;
  appOrigins: readonly string[];
  lightCount: number;
  accessTokenTtlSeconds: number;
  initialKeys: string[];
}

/** Everything the simulated bridge and remote API remember; `resetHueState` brings it back. */
export interface HueState {
  lights: HueSimLight[];
  appKeys: Set<string>;
  linkPressedAt: number;
  remoteLinkAt: number;
  offline: boolean;
  /** Lights added since the start, so each new one is the next of a bigger bridge. */
  added: number;
  codes: Map<string, { redirectUri: string; expiresAt: number }>;
  /** Access token → expiry (epoch ms). */
  accessTokens: Map<string, number>;
  refreshTokens: Set<string>;
  log: HueLoggedRequest[];
  readonly faults: Faults;
}

export function resolveHueSettings(options: HueSimOptions): HueSettings {
  return {
    now: options.now ?? systemClock,
    clientId: options.clientId ?? DEMO_HUE_CLIENT_ID,
    clientSecret: options.clientSecret ?? DEMO_HUE_CLIENT_SECRET,
    redirectUri: options.redirectUri,
    appOrigins: [...(options.appOrigins ?? []), ...(options.redirectUri ? [options.redirectUri] : [])],
    lightCount: options.lightCount ?? HUE_DEMO_LIGHT_COUNT,
    accessTokenTtlSeconds: options.accessTokenTtlSeconds ?? HUE_ACCESS_TOKEN_TTL_S,
    initialKeys: options.applicationKeys ?? [DEMO_HUE_APPLICATION_KEY],
  };
}

export function createHueState(settings: HueSettings): HueState {
  return {
    lights: createHueLights(settings.lightCount, settings.now()),
    appKeys: new Set(settings.initialKeys),
    linkPressedAt: -Infinity,
    remoteLinkAt: -Infinity,
    offline: false,
    added: 0,
    codes: new Map(),
    accessTokens: new Map(),
    refreshTokens: new Set(),
    log: [],
    faults: new Faults(),
  };
}

export function resetHueState(state: HueState, settings: HueSettings): void {
  state.lights = createHueLights(settings.lightCount, settings.now());
  state.appKeys = new Set(settings.initialKeys);
  state.linkPressedAt = -Infinity;
  state.remoteLinkAt = -Infinity;
  state.offline = false;
  state.added = 0;
  state.codes = new Map();
  state.accessTokens = new Map();
  state.refreshTokens = new Set();
  state.log = [];
  state.faults.clear();
}

type Body = Record<string, unknown>;

/** A request body as an object, or `{}` when it is not one. */
export function asBody(body: unknown): Body {
  return body && typeof body === 'object' && !Array.isArray(body) ? (body as Body) : {};
}
