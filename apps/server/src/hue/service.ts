import crypto from 'node:crypto';
import { TOKEN_CACHE_MARGIN_MS, type EffectFlag } from '@flaglight/core';
import {
  createEffectPlayer,
  createHueBridgeTransport,
  createHueDriver,
  type EffectPlayer,
  type HueDriver,
} from '@flaglight/lights';
import type { Logger } from 'pino';
import type { Db } from '../db/database.js';
import { HttpError } from '../http/errors.js';
import { buildAuthorizeUrl, type HueFailureKind, type HueRemoteClient, type HueResult } from './client.js';
import type { SecretBox } from './crypto.js';
import { createHueRepository, type HueConnectionRow } from './repository.js';

/** An OAuth state is good for this long (the popup itself times out after 60 s, SPEC §9). */
export const HUE_STATE_TTL_MS = 10 * 60_000;
/** The `devicetype` of the whitelist entry the remote pairing creates (reference §3.6 step 4). */
export const HUE_DEVICE_TYPE = 'flaglight#server';

/**
 * Server texts. Those that mean "connect again" contain 'not connected' or 'unauthorized', which
 * make the client mark the bridge provider disconnected (SPEC §8).
 */
export const HUE_MESSAGES = {
  notConfigured:
    'Hue is not configured on this server: set HUE_CLIENT_ID and HUE_CLIENT_SECRET (developers.meethue.com)',
  clientRefused: 'Hue is not configured correctly on this server: the Hue client id or secret was refused',
  notConnected: 'Hue is not connected. Connect your Hue account in Settings.',
  expired: 'Hue is not connected: the Hue authorization expired. Connect your Hue account again in Settings.',
  noApplicationKey: 'No Hue application key yet. Create one in Settings.',
  applicationKeyRefused:
    'Hue bridge unauthorized: the application key was not accepted. Create a new one in Settings.',
  applicationKeyInvalid: 'That application key was not accepted by your Hue bridge.',
  unreachable: 'Hue bridge unreachable. Check that it is powered and online, then try again.',
  busy: 'Hue is busy: too many light commands at once. Wait a moment and try again.',
  linkButton: 'Failed to create application key: the Hue bridge did not accept the pairing. Try again.',
  createKeyFailed: 'Failed to create application key',
  lightNotFound: 'Hue light not found',
  commandRefused: 'The Hue bridge refused the light command',
} as const;

/** `hue_error` reasons of the OAuth callback (shown as 'Hue authorization failed: {reason}'). */
export const HUE_OAUTH_REASONS = {
  missingState: 'the sign-in answer carried no state',
  badState: 'the sign-in link expired or was already used. Please try again',
  denied: 'access was denied',
  missingCode: 'Hue sent no authorization code',
  codeRefused: 'Hue refused the authorization code. Please try again',
  notConfigured: 'Hue is not configured on this server',
  unreachable: 'Hue could not be reached. Please try again',
} as const;

export type HueDiagnosticsReason =
  | 'not_configured'
  | 'not_connected'
  | 'token_expired'
  | 'no_application_key'
  | 'application_key_rejected'
  | 'bridge_busy'
  | 'bridge_unreachable';

export interface HueDiagnostics {
  connected: boolean;
  bridges: number;
  lights: number;
  reason: HueDiagnosticsReason | null;
  message: string;
  instructions: string | null;
  error?: string;
  details?: string | null;
}

/** A light as `GET /hue/lights` lists it: what packages/lights' remote transport reads, plus its state. */
export interface HueLightView {
  id: string;
  name: string;
  label: string;
  type: string;
  archetype: string | null;
  on: boolean;
  /** 0-100 %. */
  brightness: number | null;
  color: { xy: { x: number; y: number } } | null;
  gamut?: { red: XY; green: XY; blue: XY };
  reachable: boolean;
  connected: boolean;
}

interface XY {
  x: number;
  y: number;
}

export interface HueLightStateInput {
  on?: boolean | undefined;
  brightness?: number | undefined;
  color?: { xy: XY } | undefined;
  duration?: number | undefined;
}

export type HueCallbackOutcome =
  { ok: true; redirectUri: string | null } | { ok: false; reason: string; redirectUri: string | null };

export interface HueServiceDeps {
  db: Db;
  box: SecretBox;
  /** Undefined when the server has no Hue client credentials (live mode without HUE_CLIENT_ID). */
  client: HueRemoteClient | undefined;
  clientId: string | undefined;
  /** The origin the browser opens the authorize page on, given the app's origin (demo: the app itself). */
  authorizeBase: (appOrigin: string) => string;
  logger: Logger;
  now: () => Date;
}

const hashState = (state: string) => crypto.createHash('sha256').update(state).digest('base64url');

interface PlayerEntry {
  applicationKey: string;
  driver: HueDriver;
  player: EffectPlayer;
  selection: string[];
}

/**
 * The Hue remote connection of each user: OAuth (state bound to the user, single use), tokens
 * sealed at rest and refreshed before expiry (one refresh at a time per user: refresh tokens are
 * single use), the application key, lights, and flags played server-side.
 */
export function createHueService(deps: HueServiceDeps) {
  const repo = createHueRepository(deps.db);
  const { box, logger } = deps;
  const refreshing = new Map<string, Promise<string>>();
  const players = new Map<string, PlayerEntry>();

  const seal = (userId: string, field: string, value: string) => box.seal(value, `${userId}:${field}`);
  const open = (userId: string, field: string, value: string) => box.open(value, `${userId}:${field}`);

  function requireClient(): HueRemoteClient {
    if (!deps.client) throw new HttpError(503, HUE_MESSAGES.notConfigured);
    return deps.client;
  }

  function failure(kind: HueFailureKind, detail: string, fallback: string): HttpError {
    switch (kind) {
      case 'token':
      case 'invalid-grant':
        return new HttpError(403, HUE_MESSAGES.expired);
      case 'invalid-client':
        return new HttpError(503, HUE_MESSAGES.clientRefused);
      case 'app-key':
        return new HttpError(403, HUE_MESSAGES.applicationKeyRefused);
      case 'not-found':
        return new HttpError(404, HUE_MESSAGES.lightNotFound);
      case 'unreachable':
        return new HttpError(502, HUE_MESSAGES.unreachable, { details: detail });
      case 'busy':
        return new HttpError(429, HUE_MESSAGES.busy, { details: detail });
      default:
        return new HttpError(400, fallback, { details: detail });
    }
  }

  async function connection(userId: string): Promise<HueConnectionRow> {
    const row = await repo.find(userId);
    if (!row) throw new HttpError(403, HUE_MESSAGES.notConnected);
    if (row.status !== 'connected' || !row.access_token || !row.refresh_token)
      throw new HttpError(403, HUE_MESSAGES.expired);
    return row;
  }

  function dropPlayer(userId: string): void {
    const entry = players.get(userId);
    if (!entry) return;
    players.delete(userId);
    entry.player.dispose();
    entry.driver.cancelPending();
  }

  async function expire(userId: string): Promise<never> {
    await repo.markExpired(userId, deps.now());
    dropPlayer(userId);
    throw new HttpError(403, HUE_MESSAGES.expired);
  }

  /** Uses the refresh token once; the same refresh is shared by concurrent callers. */
  function refresh(userId: string, row: HueConnectionRow): Promise<string> {
    const running = refreshing.get(userId);
    if (running) return running;
    const task = (async () => {
      const client = requireClient();
      const result = await client.refresh(open(userId, 'refresh', row.refresh_token!));
      if (!result.ok) {
        if (result.kind === 'invalid-grant' || result.kind === 'token') {
          logger.info({ userId, detail: result.detail }, 'Hue refresh refused: connection expired');
          return expire(userId);
        }
        throw failure(result.kind, result.detail, HUE_MESSAGES.unreachable);
      }
      const now = deps.now();
      const stored = await repo.replaceTokens({
        userId,
        previousRefreshToken: row.refresh_token!,
        accessToken: seal(userId, 'access', result.value.accessToken),
        refreshToken: seal(userId, 'refresh', result.value.refreshToken),
        accessExpiresAt: new Date(now.getTime() + result.value.expiresIn * 1000),
        now,
      });
      // Disconnected while refreshing: the new tokens are not kept.
      if (!stored) throw new HttpError(403, HUE_MESSAGES.notConnected);
      return result.value.accessToken;
    })().finally(() => refreshing.delete(userId));
    refreshing.set(userId, task);
    return task;
  }

  /** A usable access token: the stored one, or a fresh one when it expires within the margin. */
  async function accessToken(userId: string, force = false): Promise<string> {
    const row = await connection(userId);
    const expiresAt = Date.parse(row.access_expires_at ?? '');
    if (force || !(expiresAt - TOKEN_CACHE_MARGIN_MS > deps.now().getTime())) return refresh(userId, row);
    return open(userId, 'access', row.access_token!);
  }

  /** Runs a remote call with a current token; a refused token is refreshed once and the call retried. */
  async function withToken<T>(userId: string, call: (token: string) => Promise<HueResult<T>>) {
    const result = await call(await accessToken(userId));
    if (result.ok || result.kind !== 'token') return result;
    const retried = await call(await accessToken(userId, true));
    if (!retried.ok && retried.kind === 'token') return expire(userId);
    return retried;
  }

  async function sealedApplicationKey(userId: string): Promise<string> {
    const row = await connection(userId);
    if (!row.application_key) throw new HttpError(409, HUE_MESSAGES.noApplicationKey);
    return row.application_key;
  }

  async function applicationKey(userId: string): Promise<string> {
    return open(userId, 'application-key', await sealedApplicationKey(userId));
  }

  /**
   * A CLIP v2 call with the stored key. A key the bridge refuses (removed in the Hue app, bridge
   * reset) is forgotten, so the status says a new one is needed (SPEC §8: 'unauthorized' disconnects).
   */
  async function clip(userId: string, method: 'GET' | 'PUT', resource: string, body?: unknown) {
    const sealed = await sealedApplicationKey(userId);
    const key = open(userId, 'application-key', sealed);
    const client = requireClient();
    const result = await withToken(userId, (token) => client.clip(token, key, method, resource, body));
    if (!result.ok && result.kind === 'app-key') {
      logger.info({ userId, detail: result.detail }, 'Hue bridge refused the application key: forgotten');
      await repo.forgetApplicationKey(userId, sealed, deps.now());
      dropPlayer(userId);
    }
    return result;
  }

  async function listLights(userId: string): Promise<HueLightView[]> {
    const lights = await clip(userId, 'GET', 'light');
    if (!lights.ok) throw failure(lights.kind, lights.detail, HUE_MESSAGES.unreachable);
    // Reachability lives on the device's zigbee_connectivity; a bridge without it counts as reachable.
    const connectivity = await clip(userId, 'GET', 'zigbee_connectivity');
    const status = new Map<string, string>();
    if (connectivity.ok)
      for (const item of connectivity.value as Array<{ owner?: { rid?: string }; status?: string }>)
        if (item.owner?.rid && item.status) status.set(item.owner.rid, item.status);
    return (lights.value as ClipLight[]).map((light) => toLightView(light, status));
  }

  return {
    configured: deps.client !== undefined,

    async status(userId: string): Promise<{ connected: boolean; hasApplicationKey: boolean }> {
      const row = await repo.find(userId);
      return {
        connected: row?.status === 'connected',
        hasApplicationKey: Boolean(row?.status === 'connected' && row.application_key),
      };
    },

    /** SPEC §7 `GET /auth/hue/start`: the authorize URL, its state bound to this user. */
    async start(userId: string, appOrigin: string): Promise<{ authUrl: string }> {
      requireClient();
      const state = crypto.randomBytes(32).toString('base64url');
      const redirectUri = `${appOrigin}/auth/hue/callback`;
      const now = deps.now();
      await repo.insertState({
        stateHash: hashState(state),
        userId,
        redirectUri,
        now,
        expiresAt: new Date(now.getTime() + HUE_STATE_TTL_MS),
      });
      return {
        authUrl: buildAuthorizeUrl({
          authorizeBase: deps.authorizeBase(appOrigin),
          clientId: deps.clientId ?? '',
          state,
          redirectUri,
        }),
      };
    },

    /** The OAuth callback: never throws; every fault is a reason for the popup. */
    async completeAuth(query: {
      code?: string | undefined;
      state?: string | undefined;
      error?: string | undefined;
    }): Promise<HueCallbackOutcome> {
      if (!query.state) return { ok: false, reason: HUE_OAUTH_REASONS.missingState, redirectUri: null };
      const pending = await repo.takeState(hashState(query.state));
      if (!pending || Date.parse(pending.expiresAt) <= deps.now().getTime())
        return { ok: false, reason: HUE_OAUTH_REASONS.badState, redirectUri: pending?.redirectUri ?? null };
      const redirectUri = pending.redirectUri;
      if (query.error)
        return {
          ok: false,
          reason: query.error === 'access_denied' ? HUE_OAUTH_REASONS.denied : query.error.slice(0, 200),
          redirectUri,
        };
      if (!query.code) return { ok: false, reason: HUE_OAUTH_REASONS.missingCode, redirectUri };
      if (!deps.client) return { ok: false, reason: HUE_OAUTH_REASONS.notConfigured, redirectUri };
      const tokens = await deps.client.exchangeCode(query.code);
      if (!tokens.ok) {
        logger.warn({ kind: tokens.kind, detail: tokens.detail }, 'Hue code exchange failed');
        const reason =
          tokens.kind === 'invalid-grant'
            ? HUE_OAUTH_REASONS.codeRefused
            : tokens.kind === 'invalid-client'
              ? HUE_OAUTH_REASONS.notConfigured
              : HUE_OAUTH_REASONS.unreachable;
        return { ok: false, reason, redirectUri };
      }
      const now = deps.now();
      const userId = pending.userId;
      await repo.saveTokens({
        userId,
        accessToken: seal(userId, 'access', tokens.value.accessToken),
        refreshToken: seal(userId, 'refresh', tokens.value.refreshToken),
        accessExpiresAt: new Date(now.getTime() + tokens.value.expiresIn * 1000),
        now,
      });
      dropPlayer(userId);
      return { ok: true, redirectUri };
    },

    /** Removes the tokens and the application key (and any pending OAuth state). */
    async disconnect(userId: string): Promise<void> {
      dropPlayer(userId);
      await repo.remove(userId);
    },

    async diagnostics(userId: string): Promise<HueDiagnostics> {
      const problem = (
        reason: HueDiagnosticsReason,
        message: string,
        instructions: string,
        details: string | null = null,
      ): HueDiagnostics => ({
        // `connected` answers "do the lights work from here": any problem is a diagnostics failure.
        connected: false,
        bridges: 0,
        lights: 0,
        reason,
        message,
        instructions,
        error: message,
        details,
      });
      if (!deps.client)
        return problem(
          'not_configured',
          'Hue is not configured on this server',
          'The server needs HUE_CLIENT_ID and HUE_CLIENT_SECRET from developers.meethue.com.',
        );
      const row = await repo.find(userId);
      if (!row)
        return problem(
          'not_connected',
          'Hue is not connected',
          'Press Connect Hue in Settings and allow Flaglight in the window that opens.',
        );
      const reconnect = 'Press Connect Hue in Settings to sign in to Hue again.';
      if (row.status !== 'connected')
        return problem('token_expired', 'The Hue authorization expired', reconnect);
      if (!row.application_key)
        return problem(
          'no_application_key',
          'No Hue application key yet',
          'Press Create Application Key in Settings, then store the key it shows.',
        );
      try {
        const lights = await listLights(userId);
        const bridges = await clip(userId, 'GET', 'bridge');
        const bridgeCount = bridges.ok ? bridges.value.length : 1;
        return {
          connected: true,
          bridges: bridgeCount,
          lights: lights.length,
          reason: null,
          message: `Found ${bridgeCount} bridge${bridgeCount === 1 ? '' : 's'} with ${lights.length} light${
            lights.length === 1 ? '' : 's'
          }`,
          instructions: null,
        };
      } catch (error) {
        if (!(error instanceof HttpError)) throw error;
        const details = typeof error.extra.details === 'string' ? error.extra.details : null;
        if (error.message === HUE_MESSAGES.expired || error.message === HUE_MESSAGES.notConnected)
          return problem('token_expired', 'The Hue authorization expired', reconnect, details);
        if (error.message === HUE_MESSAGES.applicationKeyRefused)
          return problem(
            'application_key_rejected',
            'The Hue bridge did not accept the application key',
            'Press Create Application Key in Settings to pair again.',
            details,
          );
        if (error.message === HUE_MESSAGES.busy)
          return problem(
            'bridge_busy',
            'The Hue bridge is busy',
            'Too many light commands reached it at once. Wait a few seconds, then run the diagnostics again.',
            details,
          );
        return problem(
          'bridge_unreachable',
          'The Hue bridge could not be reached',
          'Check that the bridge is powered, connected to your router and online in the Hue app, then run the diagnostics again.',
          details,
        );
      }
    },

    /** Reference §3.6 step 4. The new key is stored at once, and returned to be shown (SPEC §4). */
    async createApplicationKey(userId: string): Promise<{ success: true; applicationKey: string }> {
      const client = requireClient();
      const result = await withToken(userId, (token) => client.createApplicationKey(token, HUE_DEVICE_TYPE));
      if (!result.ok) {
        if (result.kind === 'link-button') throw new HttpError(502, HUE_MESSAGES.linkButton);
        throw failure(result.kind, result.detail, HUE_MESSAGES.createKeyFailed);
      }
      await repo.saveApplicationKey(userId, seal(userId, 'application-key', result.value), deps.now());
      dropPlayer(userId);
      return { success: true, applicationKey: result.value };
    },

    /** Stores a pasted key after the bridge accepted it. */
    async storeApplicationKey(userId: string, key: string): Promise<{ success: true }> {
      const client = requireClient();
      const check = await withToken(userId, (token) => client.clip(token, key, 'GET', 'light'));
      if (!check.ok) {
        if (check.kind === 'app-key') throw new HttpError(400, HUE_MESSAGES.applicationKeyInvalid);
        throw failure(check.kind, check.detail, HUE_MESSAGES.unreachable);
      }
      if (!(await repo.saveApplicationKey(userId, seal(userId, 'application-key', key), deps.now())))
        throw new HttpError(403, HUE_MESSAGES.notConnected);
      dropPlayer(userId);
      return { success: true };
    },

    listLights,

    async setLightState(userId: string, lightId: string, input: HueLightStateInput): Promise<void> {
      const body = {
        ...(input.on === undefined ? {} : { on: { on: input.on } }),
        ...(input.brightness === undefined ? {} : { dimming: { brightness: input.brightness } }),
        ...(input.color ? { color: { xy: input.color.xy } } : {}),
        ...(input.duration === undefined ? {} : { dynamics: { duration: input.duration } }),
      };
      const result = await clip(userId, 'PUT', `light/${encodeURIComponent(lightId)}`, body);
      if (!result.ok) throw failure(result.kind, result.detail, HUE_MESSAGES.commandRefused);
    },

    /**
     * SPEC §7 `POST /hue/lights/flag`: plays core's effect for the flag on these lights with the
     * Hue driver (paced ≤ 10 commands/s, reference §3.5) over `/route/clip/v2`. Answers once the
     * lights are checked; the effect then runs for its few seconds. A newer flag replaces it.
     */
    async playFlag(userId: string, lightIds: readonly string[], flag: EffectFlag): Promise<void> {
      const client = requireClient();
      const key = await applicationKey(userId);
      let entry = players.get(userId);
      if (!entry || entry.applicationKey !== key) {
        dropPlayer(userId);
        const transport = createHueBridgeTransport({
          baseUrl: `${client.apiUrl}/route/clip/v2/resource`,
          applicationKey: key,
          timeoutMs: client.timeoutMs,
          fetch: async (input, init) => {
            const headers = new Headers(init?.headers);
            const attempt = async (token: string) => {
              headers.set('authorization', `Bearer ${token}`);
              return fetch(input, { ...init, headers });
            };
            const response = await attempt(await accessToken(userId));
            if (response.status !== 401) return response;
            const body = (await response
              .clone()
              .json()
              .catch(() => null)) as { fault?: unknown } | null;
            if (!body?.fault) return response;
            return attempt(await accessToken(userId, true));
          },
        });
        const driver = createHueDriver({ transport });
        const fresh: PlayerEntry = { applicationKey: key, driver, selection: [], player: undefined! };
        fresh.player = createEffectPlayer({
          driver,
          devices: () => fresh.selection,
          onError: (error) => logger.warn({ userId, error }, 'Hue flag step failed'),
          onWarning: (message) => logger.info({ userId, message }, 'Hue flag warning'),
        });
        entry = fresh;
        players.set(userId, entry);
      }
      let known: Set<string>;
      try {
        known = new Set((await entry.driver.connect()).map((light) => light.id));
      } catch {
        // The transport's errors are generic: ask again directly for the precise one. If the
        // bridge answers now (a passing 429, a blip), its list serves and the flag still plays.
        const lights = await clip(userId, 'GET', 'light');
        if (!lights.ok) throw failure(lights.kind, lights.detail, HUE_MESSAGES.unreachable);
        known = new Set((lights.value as ClipLight[]).map((light) => light.id));
        void entry.driver.connect().catch(() => undefined);
      }
      const unknown = lightIds.find((id) => !known.has(id));
      if (unknown) throw new HttpError(404, `${HUE_MESSAGES.lightNotFound}: ${unknown}`);
      entry.selection = [...new Set(lightIds)];
      entry.player.play(flag);
    },

    close(): void {
      for (const userId of [...players.keys()]) dropPlayer(userId);
    },
  };
}

export type HueService = ReturnType<typeof createHueService>;

interface ClipLight {
  id: string;
  type?: string;
  owner?: { rid?: string };
  metadata?: { name?: string; archetype?: string };
  on?: { on?: boolean };
  dimming?: { brightness?: number };
  color?: { xy?: XY; gamut?: { red: XY; green: XY; blue: XY } };
}

function toLightView(light: ClipLight, connectivity: Map<string, string>): HueLightView {
  const name = light.metadata?.name ?? light.id;
  const status = light.owner?.rid ? connectivity.get(light.owner.rid) : undefined;
  const reachable = status === undefined || status === 'connected';
  return {
    id: light.id,
    name,
    label: name,
    type: light.type ?? 'light',
    archetype: light.metadata?.archetype ?? null,
    on: light.on?.on === true,
    brightness: typeof light.dimming?.brightness === 'number' ? light.dimming.brightness : null,
    color: light.color?.xy ? { xy: { x: light.color.xy.x, y: light.color.xy.y } } : null,
    ...(light.color?.gamut ? { gamut: light.color.gamut } : {}),
    reachable,
    connected: reachable,
  };
}
