import {
  test as base,
  expect,
  type APIRequestContext,
  type ConsoleMessage,
  type Page,
} from '@playwright/test';
import { adminSession, signUpViaApi, uniqueEmail, upgradeViaAdmin, type Session } from './support/accounts';
import { createPagePool, seedStorage, type PagePool } from './support/page-per-file';

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
  await seedStorage(page, {
    auth_token: token,
    user: JSON.stringify(user),
    current_user_id: user.email,
  });
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
      const onConsole = (message: ConsoleMessage) => {
        if (message.type() === 'error' && !expected(message.text())) {
          // "Failed to load resource" names no address of its own: the message's location does.
          const { url } = message.location();
          const where = /^Failed to load resource/.test(message.text()) && url ? ` (${url})` : '';
          problems.push(`console.error: ${message.text()}${where}`);
        }
      };
      const onPageError = (error: Error) => {
        if (!expected(error.message)) problems.push(`uncaught: ${error.message}`);
      };
      page.on('console', onConsole);
      page.on('pageerror', onPageError);
      await use();
      // A reused page (screenTest) outlives the test: its listeners must not.
      page.off('console', onConsole);
      page.off('pageerror', onPageError);
      expect(problems, 'the page reported errors').toEqual([]);
    },
    { auto: true },
  ],
});

/**
 * For the screens' short checks: the tests of a spec file take turns on one page per worker
 * (support/page-per-file.ts, decision 052), each starting on a freshly loaded app with clean
 * storage, cookies, routes and emulation; a fake clock left behind gets the next test a new page.
 * Only for files whose tests use `page` alone: not `context`, `page.addInitScript` or `page.on`,
 * which would outlive the test (seed storage with `seedStorage`). A retry gets a context of its own.
 */
export const screenTest = test.extend<{ fixedTime: number | null }, { pagePool: PagePool }>({
  /**
   * `test.use({ fixedTime })`: the page's clock stands at this time (ms since 1970) from the start,
   * as `page.clock.setFixedTime` in each test would; its tests then share one page as the others do.
   */
  fixedTime: [null, { option: true }],
  pagePool: [
    async ({ browser }, use) => {
      const pool = createPagePool(browser);
      await use(pool);
      await pool.close();
    },
    { scope: 'worker' },
  ],
  page: async (
    {
      pagePool,
      browser,
      baseURL,
      viewport,
      reducedMotion,
      bypassCSP,
      hasTouch,
      isMobile,
      userAgent,
      locale,
      timezoneId,
      colorScheme,
      deviceScaleFactor,
      extraHTTPHeaders,
      javaScriptEnabled,
      offline,
      permissions,
      geolocation,
      contextOptions,
      fixedTime,
    },
    use,
    testInfo,
  ) => {
    // Every option a context is made with (test.use may set any of them): they key the page too.
    // Listed twice on purpose: Playwright reads a fixture's dependencies from its parameter's
    // destructuring and refuses a rest property there ("List all used fixtures explicitly").
    const options = {
      ...contextOptions,
      baseURL,
      bypassCSP,
      hasTouch,
      isMobile,
      userAgent,
      locale,
      timezoneId,
      colorScheme,
      deviceScaleFactor,
      extraHTTPHeaders,
      javaScriptEnabled,
      offline,
      permissions,
      geolocation,
    };
    if (testInfo.retry > 0) {
      const context = await browser.newContext({ ...options, viewport, reducedMotion });
      const page = await context.newPage();
      if (fixedTime !== null) await page.clock.setFixedTime(fixedTime);
      await use(page);
      await context.close();
      return;
    }
    const key = `${testInfo.file} ${JSON.stringify({ ...options, fixedTime })}`;
    const start = { viewport, reducedMotion, colorScheme, fixedTime };
    await use(await pagePool.take(key, { ...options, viewport }, start));
  },
});
