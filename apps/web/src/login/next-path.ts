/**
 * Where the sign-in form goes after signing in. `/login?next=…` is honoured only for the in-app
 * paths listed here (an e-mail confirmation link and a companion's link, which need an account
 * signed in); anything else, another origin (`//evil.example`) or any other page included, goes
 * to the dashboard, so a crafted sign-in link cannot send anyone elsewhere.
 */
const ALLOWED_NEXT_PATHS = [
  /^\/verify-email\?token=[A-Za-z0-9_-]{1,512}$/,
  // A desktop companion's link: its code is 8 letters, shown XXXX-XXXX.
  /^\/link(\?code=[A-Za-z]{4}-?[A-Za-z]{4})?$/,
];

export const DEFAULT_PATH_AFTER_SIGN_IN = '/dashboard';

export function pathAfterSignIn(next: string | null | undefined): string {
  if (typeof next !== 'string') return DEFAULT_PATH_AFTER_SIGN_IN;
  return ALLOWED_NEXT_PATHS.some((allowed) => allowed.test(next)) ? next : DEFAULT_PATH_AFTER_SIGN_IN;
}

/** The sign-in page, coming back to `next` afterwards. */
export function signInPath(next: string): string {
  return `/login?next=${encodeURIComponent(next)}`;
}
