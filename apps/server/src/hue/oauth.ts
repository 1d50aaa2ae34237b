import crypto from 'node:crypto';
import type { Logger } from 'pino';
import type { BrowserBinding } from './browser-binding.js';
import { buildAuthorizeUrl, type HueRemoteClient } from './client.js';
import type { HueConnectionStore } from './connection-store.js';
import { HUE_OAUTH_REASONS, requireHueClient } from './errors.js';
import type { HueRepository } from './repository.js';

/** An OAuth state is good for this long (the popup itself times out after 60 s, SPEC §9). */
export const HUE_STATE_TTL_MS = 10 * 60_000;

export type HueCallbackOutcome =
  { ok: true; redirectUri: string | null } | { ok: false; reason: string; redirectUri: string | null };

export interface HueOAuthDeps {
  repo: HueRepository;
  connection: HueConnectionStore;
  client: HueRemoteClient | undefined;
  clientId: string | undefined;
  /** Signs the cookie that ties a flow to the browser that started it (browser-binding.ts). */
  binding: BrowserBinding;
  /** The origin the browser opens the authorize page on, given the app's origin (demo: the app itself). */
  authorizeBase: (appOrigin: string) => string;
  logger: Logger;
  now: () => Date;
}

const hashState = (state: string) => crypto.createHash('sha256').update(state).digest('base64url');

/**
 * Hue's OAuth (reference §3.6 steps 2-3): a state bound to the user who started and to their
 * browser (a signed cookie), good for 10 minutes, used once.
 */
export function createHueOAuth(deps: HueOAuthDeps) {
  const { repo } = deps;
  return {
    /**
     * SPEC §7 `GET /auth/hue/start`: the authorize URL, its state bound to this user, and the value
     * of the cookie that binds it to this browser (`browserCookie`, for `maxAgeS` seconds).
     */
    start: async (
      userId: string,
      appOrigin: string,
    ): Promise<{ authUrl: string; browserCookie: string; maxAgeS: number; secure: boolean }> => {
      requireHueClient(deps.client);
      const state = crypto.randomBytes(32).toString('base64url');
      const redirectUri = `${appOrigin}/auth/hue/callback`;
      const now = deps.now();
      const expiresAt = new Date(now.getTime() + HUE_STATE_TTL_MS);
      await repo.insertState({ stateHash: hashState(state), userId, redirectUri, now, expiresAt });
      return {
        browserCookie: deps.binding.issue(state, expiresAt),
        maxAgeS: HUE_STATE_TTL_MS / 1000,
        secure: redirectUri.startsWith('https:'),
        authUrl: buildAuthorizeUrl({
          authorizeBase: deps.authorizeBase(appOrigin),
          clientId: deps.clientId ?? '',
          state,
          redirectUri,
        }),
      };
    },

    /**
     * The OAuth callback: never throws; every fault is a reason for the popup. `browserCookies` are
     * the binding cookie's values the browser sent. Any use of a state ends it, so a refused
     * attempt cannot be retried with the same link.
     */
    completeAuth: async (
      query: { code?: string | undefined; state?: string | undefined; error?: string | undefined },
      browserCookies: readonly string[],
    ): Promise<HueCallbackOutcome> => {
      if (!query.state) return { ok: false, reason: HUE_OAUTH_REASONS.missingState, redirectUri: null };
      const now = deps.now();
      const pending = await repo.takeState(hashState(query.state));
      if (!pending || Date.parse(pending.expiresAt) <= now.getTime())
        return { ok: false, reason: HUE_OAUTH_REASONS.badState, redirectUri: pending?.redirectUri ?? null };
      const redirectUri = pending.redirectUri;
      const binding = deps.binding.check(browserCookies, query.state, now);
      if (binding !== 'ok') {
        // Another browser finished this user's flow: nothing is exchanged or stored.
        deps.logger.warn(
          { userId: pending.userId, binding },
          'Hue sign-in finished outside the browser that started it',
        );
        return {
          ok: false,
          reason: binding === 'expired' ? HUE_OAUTH_REASONS.badState : HUE_OAUTH_REASONS.otherBrowser,
          redirectUri,
        };
      }
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
        deps.logger.warn({ kind: tokens.kind, detail: tokens.detail }, 'Hue code exchange failed');
        const reason =
          tokens.kind === 'invalid-grant'
            ? HUE_OAUTH_REASONS.codeRefused
            : tokens.kind === 'invalid-client'
              ? HUE_OAUTH_REASONS.notConfigured
              : HUE_OAUTH_REASONS.unreachable;
        return { ok: false, reason, redirectUri };
      }
      await deps.connection.saveTokens(pending.userId, tokens.value);
      return { ok: true, redirectUri };
    },
  };
}
