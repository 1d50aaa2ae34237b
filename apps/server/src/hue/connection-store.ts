import type { HueTokens } from './client.js';
import { connectionSeals, createHueTokenKeeper, type HueConnectionStoreDeps } from './connection-tokens.js';
import { HUE_MESSAGES, requireHueClient, toHueHttpError, hueHttpError } from './errors.js';

/** The `devicetype` of the whitelist entry the remote pairing creates (reference §3.6 step 4). */
export const HUE_DEVICE_TYPE = 'flaglight#server';

export type { HueConnectionStoreDeps } from './connection-tokens.js';

/** Told the user whose connection changed (tokens, key, expiry, removal): what was derived from it is stale. */
export type HueConnectionListener = (userId: string) => void;

/**
 * Each user's stored Hue connection: tokens sealed at rest, the application key, and the one path
 * by which an access token is refreshed, whoever needs it (routes, diagnostics, the flag player).
 */
export function createHueConnectionStore(deps: HueConnectionStoreDeps) {
  const { repo, logger } = deps;
  const { seal, open } = connectionSeals(deps.box);
  const listeners = new Set<HueConnectionListener>();
  const changed = (userId: string) => {
    for (const listener of [...listeners]) listener(userId);
  };
  const { connection, accessToken, withToken } = createHueTokenKeeper(deps, changed);

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
