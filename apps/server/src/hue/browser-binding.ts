import crypto from 'node:crypto';

/**
 * Binds a Hue OAuth flow to the browser that started it (DESIGN §9, docs/decisions/009). The
 * start answer sets a short-lived signed cookie naming the flow's state; the callback accepts the
 * state only from a browser that holds that cookie. Without it, whoever finishes an authorize URL
 * (a victim sent the attacker's link, or an attacker holding the user's) would attach their Hue
 * account to the starter's Flaglight account.
 *
 * The cookie is HttpOnly, SameSite=Lax (sent on the top-level navigation back from Hue's page),
 * Secure when the callback is https, scoped to the callback's path, and lives as long as the state.
 * One flow at a time per browser: a new start replaces it, and the callback clears it.
 */
export const HUE_OAUTH_COOKIE = 'flaglight_hue_oauth';
export const HUE_OAUTH_COOKIE_PATH = '/auth/hue/callback';

const HKDF_SALT = 'flaglight';
// Its own key: a value signed here means nothing to the token encryption, and the reverse.
const HKDF_INFO = 'hue-oauth-browser-binding-v1';

export type BindingCheck = 'ok' | 'missing' | 'mismatch' | 'expired';

export interface BrowserBinding {
  /** The cookie value that lets this browser finish the flow of `state` until `expiresAt`. */
  issue(state: string, expiresAt: Date): string;
  /** Whether one of the cookies the callback received was issued for `state` and is still fresh. */
  check(cookieValues: readonly string[], state: string, now: Date): BindingCheck;
}

/** HMAC-SHA256 with a key derived from APP_SECRET (HKDF, as for the Hue token encryption). */
export function createBrowserBinding(appSecret: string): BrowserBinding {
  const key = Buffer.from(crypto.hkdfSync('sha256', appSecret, HKDF_SALT, HKDF_INFO, 32));
  const mac = (expires: string, state: string) =>
    crypto.createHmac('sha256', key).update(`${expires}.${state}`).digest();
  return {
    issue(state, expiresAt) {
      const expires = String(Math.floor(expiresAt.getTime() / 1000));
      return `${expires}.${mac(expires, state).toString('base64url')}`;
    },
    check(cookieValues, state, now) {
      if (cookieValues.length === 0) return 'missing';
      let outcome: BindingCheck = 'mismatch';
      for (const value of cookieValues) {
        const [expires, signature, extra] = value.split('.');
        if (!expires || !signature || extra !== undefined || !/^\d{1,12}$/.test(expires)) continue;
        const given = Buffer.from(signature, 'base64url');
        const expected = mac(expires, state);
        if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) continue;
        if (Number(expires) * 1000 > now.getTime()) return 'ok';
        outcome = 'expired';
      }
      return outcome;
    },
  };
}

/** The `Set-Cookie` value carrying `value` for `maxAgeS` seconds (0 clears it). */
export function bindingCookie(
  value: string,
  { maxAgeS, secure }: { maxAgeS: number; secure: boolean },
): string {
  return [
    `${HUE_OAUTH_COOKIE}=${value}`,
    `Path=${HUE_OAUTH_COOKIE_PATH}`,
    `Max-Age=${Math.max(0, Math.floor(maxAgeS))}`,
    'HttpOnly',
    'SameSite=Lax',
    ...(secure ? ['Secure'] : []),
  ].join('; ');
}

/**
 * The binding cookie's values in a `Cookie` header: normally one, but a browser may hold another
 * under a parent path or domain, so each is checked (none can be forged without the key).
 */
export function readBindingCookies(header: string | undefined): string[] {
  if (!header) return [];
  const values: string[] = [];
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === HUE_OAUTH_COOKIE) values.push(part.slice(eq + 1).trim());
  }
  return values;
}
