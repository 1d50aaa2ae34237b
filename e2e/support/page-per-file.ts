import type { Browser, BrowserContext, BrowserContextOptions, Page, ViewportSize } from '@playwright/test';

// A new browser context and a first load of the app cost Chromium about 1.5 CPU s on the 2-core CI
// machine; a fresh load of the app in a page that is already open costs about 0.45 (measured with
// bench-like loops of 20 loads, decision 052). The screens' short checks therefore take turns on
// one page per spec file and worker: each test still starts on a freshly loaded app with empty
// storage and no cookies, but the browser keeps its renderer and HTTP cache between them.

/** The page a spec file's tests take turns on; seeding storage works differently on it. */
const reused = new WeakSet<Page>();

export const isReusedPage = (page: Page): boolean => reused.has(page);

/**
 * A document of the app's origin that runs no script: where a test's page waits between tests,
 * and where its storage is cleared and seeded. Leaving the app for it ends the last test's app
 * (its streams, timers and pending saves) before the storage is touched.
 */
const BETWEEN_TESTS = '/favicon.svg';

export interface CleanStart {
  viewport: ViewportSize | null;
  reducedMotion: 'reduce' | 'no-preference' | null | undefined;
  colorScheme: 'light' | 'dark' | 'no-preference' | null | undefined;
  /**
   * The time the page's clock stands at (`page.clock.setFixedTime`), for every test of a key that
   * asks for it; null for the page's own clock. Part of the key, so such a page keeps its clock.
   */
  fixedTime: number | null;
}

export interface PagePool {
  /**
   * The page for this key (a spec file and its context options), readied as a new page would
   * start. Made on first use, and made again when a test left a fake clock on a page that was
   * not asked for one.
   */
  take(key: string, options: BrowserContextOptions, start: CleanStart): Promise<Page>;
  close(): Promise<void>;
}

/** One page at a time: a worker runs a file's tests together, so a new key closes the last one. */
export function createPagePool(browser: Browser): PagePool {
  let current: { key: string; context: BrowserContext; page: Page } | null = null;
  const close = async () => {
    await current?.context.close();
    current = null;
  };
  const open = async (key: string, options: BrowserContextOptions) => {
    if (current?.key === key) return current.page;
    await close();
    const context = await browser.newContext(options);
    const page = await context.newPage();
    reused.add(page);
    current = { key, context, page };
    return page;
  };
  /** Readies the page; says whether it must be swapped for a new one (a fake clock left on it). */
  const ready = async (page: Page, start: CleanStart) => {
    const fakeClock = await startClean(page, start);
    if (start.fixedTime === null) return fakeClock;
    // Asked for: the clock stands at the key's time again, whatever the last test moved it to.
    await page.clock.setFixedTime(start.fixedTime);
    return false;
  };
  return {
    async take(key, options, start) {
      const page = await open(key, options);
      // page.clock lives in the context, and no call takes it out again: a page that kept one is
      // swapped for a new page, so a test never reads the time an earlier test set.
      if (!(await ready(page, start))) return page;
      await close();
      const fresh = await open(key, options);
      await ready(fresh, start);
      return fresh;
    },
    close,
  };
}

/**
 * Readies a reused page as a new one would start: no routes, cookies, storage or emulation left.
 * Says whether the page still runs Playwright's fake clock.
 */
async function startClean(
  page: Page,
  { viewport, reducedMotion, colorScheme }: Omit<CleanStart, 'fixedTime'>,
): Promise<boolean> {
  await page.unrouteAll({ behavior: 'ignoreErrors' });
  await page.context().clearCookies();
  await page.context().clearPermissions();
  await page.goto(BETWEEN_TESTS);
  const fakeClock = await page.evaluate(() => {
    window.localStorage.clear();
    window.sessionStorage.clear();
    return '__pwClock' in globalThis;
  });
  if (viewport) await page.setViewportSize(viewport);
  await page.emulateMedia({
    reducedMotion: reducedMotion ?? null,
    colorScheme: colorScheme ?? null,
    media: null,
  });
  return fakeClock;
}

/**
 * Puts these items in the page's local storage before the app next starts. A new page gets them
 * from an init script that runs once (a sign-out inside the test then survives reloads); a reused
 * page, whose init scripts would outlive the test, gets them written at once, between tests.
 */
export async function seedStorage(page: Page, items: Record<string, string>): Promise<void> {
  if (isReusedPage(page)) {
    if (new URL(page.url()).pathname !== BETWEEN_TESTS) await page.goto(BETWEEN_TESTS);
    await page.evaluate((items) => {
      for (const [key, value] of Object.entries(items)) window.localStorage.setItem(key, value);
    }, items);
    return;
  }
  await page.addInitScript((items) => {
    if (window.sessionStorage.getItem('flaglight-e2e-seeded')) return;
    window.sessionStorage.setItem('flaglight-e2e-seeded', '1');
    for (const [key, value] of Object.entries(items)) window.localStorage.setItem(key, value);
  }, items);
}
