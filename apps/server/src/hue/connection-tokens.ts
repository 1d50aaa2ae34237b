import { TOKEN_CACHE_MARGIN_MS } from '@flaglight/core';
import type { Logger } from 'pino';
import type { HueRemoteClient, HueResult } from './client.js';
import type { SecretBox } from './crypto.js';
import { HUE_MESSAGES, requireHueClient, toHueHttpError, hueHttpError } from './errors.js';
import type { HueConnectionRow, HueRepository } from './repository.js';

export interface HueConnectionStoreDeps {
  repo: HueRepository;
  box: SecretBox;
  /** Undefined when the server has no Hue client credentials. */
  client: HueRemoteClient | undefined;
  logger: Logger;
  now: () => Date;
}

/** Seals and opens one user's stored secrets, each bound to the user and the field it is. */
export function connectionSeals(box: SecretBox) {
  return {
    seal: (userId: string, field: string, value: string) => box.seal(value, `${userId}:${field}`),
    open: (userId: string, field: string, value: string) => box.open(value, `${userId}:${field}`),
  };
}

/**
 * The connected row, usable access tokens, and the one path by which an access token is refreshed.
 * `changed` is told of a connection marked expired.
 */
export function createHueTokenKeeper(deps: HueConnectionStoreDeps, changed: (userId: string) => void) {
  const { repo, logger } = deps;
  const { seal, open } = connectionSeals(deps.box);
  const refreshing = new Map<string, Promise<string>>();

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

  return { connection, accessToken, withToken };
}
