import { TOKEN_CACHE_MARGIN_MS } from '@flaglight/core';
import type { Logger } from 'pino';
import type { HueRemoteClient, HueResult, HueTokens } from './client.js';
import type { SecretBox } from './crypto.js';
import { HUE_MESSAGES, requireHueClient, toHueHttpError, hueHttpError } from './errors.js';
import type { HueConnectionRow, HueRepository } from './repository.js';

/** The `devicetype` of the whitelist entry the remote pairing creates (reference §3.6 step 4). */
export const HUE_DEVICE_TYPE = 'flaglight#server';

export interface HueConnectionStoreDeps {
  repo: HueRepository;
  box: SecretBox;
  /** Undefined when the server has no Hue client credentials. */
  client: HueRemoteClient | undefined;
  logger: Logger;
  now: () => Date;
}

/** Told the user whose connection changed (tokens, key, expiry, removal): what was derived from it is stale. */
export type HueConnectionListener = (userId: string) => void;

/**
 * Each user's stored Hue connection: tokens sealed at rest, the application key, and the one path
 * by which an access token is refreshed, whoever needs it (routes, diagnostics, the flag player).
 */
export function createHueConnectionStore(deps: HueConnectionStoreDeps) {
  const { repo, box, logger } = deps;
  const refreshing = new Map<string, Promise<string>>();
  const listeners = new Set<HueConnectionListener>();

  const seal = (userId: string, field: string, value: string) => box.seal(value, `${userId}:${field}`);
  const open = (userId: string, field: string, value: string) => box.open(value, `${userId}:${field}`);
  const changed = (userId: string) => {
    for (const listener of [...listeners]) listener(userId);
  };
  const isFresh = (row: HueConnectionRow) =>
    Date.parse(row.access_expires_at ?? '') - TOKEN_CACHE_MARGIN_MS > deps.now().getTime();

  async function connection(userId: string): Promise<HueConnectionRow> {
    const row = await repo.find(userId);
    if (!row) throw hueHttpError(403, 'notConnected');
    if (row.status !== 'connected' || !row.access_token || !row.refresh_token)
      throw hueHttpError(403, 'expired');
    return row;
  }

  async function expire(userId: string): Promise<never> {
    await repo.markExpired(userId, deps.now());
    changed(userId);
    throw hueHttpError(403, 'expired');
  }

  /**
   * The one refresh: one at a time per user, since a refresh token is single use. The row is read
   * again inside, so a caller that saw the old row while another refresh ran uses the new token
   * rather than spending a refresh token that is already gone.
   */
  function refresh(userId: string, rejected: string | null): Promise<string> {
    const running = refreshing.get(userId);
    if (running) return running;
    const task = (async () => {
      const row = await connection(userId);
      const current = open(userId, 'access', row.access_token!);
      if (current !== rejected && isFresh(row)) return current;
      const client = requireHueClient(deps.client);
      const result = await client.refresh(open(userId, 'refresh', row.refresh_token!));
      if (!result.ok) {
        if (result.kind === 'invalid-grant' || result.kind === 'token') {
          logger.info({ userId, detail: result.detail }, 'Hue refresh refused: connection expired');
          return expire(userId);
        }
        throw toHueHttpError(result.kind, result.detail, HUE_MESSAGES.unreachable);
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
      if (!stored) throw hueHttpError(403, 'notConnected');
      return result.value.accessToken;
    })().finally(() => refreshing.delete(userId));
    refreshing.set(userId, task);
    return task;
  }

  /**
   * A usable access token: the stored one, or a fresh one when it expires within the 5-minute
   * margin (SPEC §9) or is the token Hue just `rejected`.
   */
  async function accessToken(userId: string, rejected: string | null = null): Promise<string> {
    const row = await connection(userId);
    const token = open(userId, 'access', row.access_token!);
    if (token !== rejected && isFresh(row)) return token;
    return refresh(userId, rejected);
  }

  /**
   * Runs a remote call with a current token; a token refused early is refreshed once and the call
   * retried. Refused again, the connection is marked expired.
   */
  async function withToken<T>(
    userId: string,
    call: (token: string) => Promise<HueResult<T>>,
  ): Promise<HueResult<T>> {
    const token = await accessToken(userId);
    const result = await call(token);
    if (result.ok || result.kind !== 'token') return result;
    const retried = await call(await accessToken(userId, token));
    if (!retried.ok && retried.kind === 'token') return expire(userId);
    return retried;
  }

  /** The stored application key, sealed (to forget it by) and open (to use). */
  async function applicationKey(userId: string): Promise<{ sealed: string; key: string }> {
    const row = await connection(userId);
    if (!row.application_key) throw hueHttpError(409, 'noApplicationKey');
    return { sealed: row.application_key, key: open(userId, 'application-key', row.application_key) };
  }

  return {
    /** Listens for changed connections; returns the unsubscribe. */
    onChange: (listener: HueConnectionListener): (() => void) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },

    find: (userId: string) => repo.find(userId),
    accessToken,
    withToken,
    applicationKey,

    status: async (userId: string): Promise<{ connected: boolean; hasApplicationKey: boolean }> => {
      const row = await repo.find(userId);
      return {
        connected: row?.status === 'connected',
        hasApplicationKey: Boolean(row?.status === 'connected' && row.application_key),
      };
    },

    /** Fresh tokens from the OAuth code (a new connection, or a reconnection that keeps the key). */
    saveTokens: async (userId: string, tokens: HueTokens): Promise<void> => {
      const now = deps.now();
      await repo.saveTokens({
        userId,
        accessToken: seal(userId, 'access', tokens.accessToken),
        refreshToken: seal(userId, 'refresh', tokens.refreshToken),
        accessExpiresAt: new Date(now.getTime() + tokens.expiresIn * 1000),
        now,
      });
      changed(userId);
    },

    /**
     * A key the bridge refused (removed in the Hue app, bridge reset) is forgotten, so the status
     * says a new one is needed (SPEC §8: 'unauthorized' disconnects).
     */
    forgetApplicationKey: async (userId: string, sealed: string, detail: string): Promise<void> => {
      logger.info({ userId, detail }, 'Hue bridge refused the application key: forgotten');
      await repo.forgetApplicationKey(userId, sealed, deps.now());
      changed(userId);
    },

    /** Reference §3.6 step 4. The new key is stored at once, and returned to be shown (SPEC §4). */
    createApplicationKey: async (userId: string): Promise<{ success: true; applicationKey: string }> => {
      const client = requireHueClient(deps.client);
      const result = await withToken(userId, (token) => client.createApplicationKey(token, HUE_DEVICE_TYPE));
      if (!result.ok) {
        if (result.kind === 'link-button') throw hueHttpError(502, 'linkButton');
        throw toHueHttpError(result.kind, result.detail, HUE_MESSAGES.createKeyFailed);
      }
      await repo.saveApplicationKey(userId, seal(userId, 'application-key', result.value), deps.now());
      changed(userId);
      return { success: true, applicationKey: result.value };
    },

    /** Stores a pasted key after the bridge accepted it. */
    storeApplicationKey: async (userId: string, key: string): Promise<{ success: true }> => {
      const client = requireHueClient(deps.client);
      const check = await withToken(userId, (token) => client.clip(token, key, 'GET', 'light'));
      if (!check.ok) {
        if (check.kind === 'app-key') throw hueHttpError(400, 'applicationKeyInvalid');
        throw toHueHttpError(check.kind, check.detail, HUE_MESSAGES.unreachable);
      }
      if (!(await repo.saveApplicationKey(userId, seal(userId, 'application-key', key), deps.now())))
        throw hueHttpError(403, 'notConnected');
      changed(userId);
      return { success: true };
    },

    /** Removes the tokens and the application key (and any pending OAuth state). */
    remove: async (userId: string): Promise<void> => {
      changed(userId);
      await repo.remove(userId);
    },
  };
}

export type HueConnectionStore = ReturnType<typeof createHueConnectionStore>;
