import { test as base, expect, type APIRequestContext, type Page } from '@playwright/test';
import { adminSession, signUpViaApi, uniqueEmail, upgradeViaAdmin, type Session } from './support/accounts';

export { expect };

/** The kind of account a journey needs; `signInAs` makes a real one on the e2e server. */
export interface TestUser {
  plan: 'trial' | 'lifetime';
  isAdmin: boolean;
}

export const USERS = {
  trial: { plan: 'trial', isAdmin: false },
  lifetime: { plan: 'lifetime', isAdmin: false },
  /** The demo admin that demo mode creates on first start. */
  admin: { plan: 'lifetime', isAdmin: true },
} satisfies Record<string, TestUser>;

/** Makes (or, for the admin, signs in) a real account of this kind through the API. */
export async function createSession(request: APIRequestContext, kind: TestUser): Promise<Session> {
  if (kind.isAdmin) return adminSession(request);
  const session = await signUpViaApi(request, uniqueEmail(kind.plan));
  if (kind.plan === 'lifetime') {
    await upgradeViaAdmin(request, session.user.id);
    return { ...session, user: { ...session.user, plan: 'lifetime', trialExpires: null } };
  }
  return session;
}

/**
 * Signs in as a real account of this kind: the account is made through the API and its
 * session put in storage before the app starts, as the login form leaves it (SPEC §3). For
 * journeys about the screens behind the login; journeys about accounts use the login form.
 * Seeds once per page, so a sign-out inside the test survives reloads.
 */
export async function signInAs(page: Page, kind: TestUser): Promise<Session> {
  const session = await createSession(page.request, kind);
  await seedSession(page, session);
  return session;
}

export async function seedSession(page: Page, { token, user }: Session): Promise<void> {
  await page.addInitScript(
    ({ token, user }) => {
      if (window.sessionStorage.getItem('flaglight-e2e-seeded')) return;
      window.sessionStorage.setItem('flaglight-e2e-seeded', '1');
      window.localStorage.setItem('auth_token', token);
      window.localStorage.setItem('user', JSON.stringify(user));
      window.localStorage.setItem('current_user_id', user.email);
    },
    { token, user },
  );
}

/** The path part of the hash route the page is on ('/#/login?mode=signup' gives '/login'). */
export function hashPath(page: Page): string {
  const hash = new URL(page.url()).hash.replace(/^#/, '') || '/';
  return hash.split('?')[0] ?? '/';
}

interface Fixtures {
  /** Console errors a test provokes on purpose; anything else fails it. */
  expectedConsoleErrors: RegExp | null;
  failOnPageErrors: void;
}

export const test = base.extend<Fixtures>({
  // Not an array: test.use() would read an array as a [value, options] pair.
  expectedConsoleErrors: [null, { option: true }],
  failOnPageErrors: [
    async ({ page, expectedConsoleErrors }, use) => {
      const problems: string[] = [];
      const expected = (text: string) => expectedConsoleErrors?.test(text) ?? false;
      page.on('console', (message) => {
        if (message.type() === 'error' && !expected(message.text())) {
          problems.push(`console.error: ${message.text()}`);
        }
      });
      page.on('pageerror', (error) => {
        if (!expected(error.message)) problems.push(`uncaught: ${error.message}`);
      });
      await use();
      expect(problems, 'the page reported errors').toEqual([]);
    },
    { auto: true },
  ],
});
