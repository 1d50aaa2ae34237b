import { expect, screenTest as test } from '../fixtures';
import { isReusedPage } from '../support/page-per-file';

// The screens' checks take turns on one page per spec file (support/page-per-file.ts). These prove
// that a test on such a page starts as it would on a new one: nothing an earlier test left stays.
// The tests run in this order on one worker.

const LEFT_BEHIND = { storage: 'left-behind', cookie: 'flaglight-left=1' };

// The file's own first test opens the page, so the next one is on a reused page even when this file
// is the first a worker runs (Playwright starts a fresh worker after any failure).
test('the first test of a file opens its page', async ({ page }) => {
  await page.goto('/#/terms');
  await expect(page.getByRole('heading', { level: 1, name: 'Terms of Service' })).toBeVisible();
});

test.describe(() => {
  // The app asks for its configuration as it starts, and the browser logs the routed 500: on a slow
  // host within the test (it failed so), on a fast one mostly after it.
  test.use({ expectedConsoleErrors: /status of 500/ });

  test('a test leaves storage, a cookie, a route, an emulation and a fake clock behind', async ({
    page,
  }, testInfo) => {
    // A retry runs on a new page of its own (screenTest), with nothing to leave for the next test.
    expect(isReusedPage(page)).toBe(testInfo.retry === 0);
    await page.route('**/api/config', (route) => route.fulfill({ status: 500, body: 'routed' }));
    await page.clock.setFixedTime(new Date('2020-01-01T00:00:00Z'));
    await page.emulateMedia({ reducedMotion: 'reduce', colorScheme: 'dark' });
    await page.setViewportSize({ width: 500, height: 500 });
    await page.goto('/#/terms');
    await page.evaluate(({ storage, cookie }) => {
      window.localStorage.setItem('left', storage);
      window.sessionStorage.setItem('left', storage);
      document.cookie = cookie;
    }, LEFT_BEHIND);
    expect(await page.evaluate(() => new Date().getFullYear())).toBe(2020);
  });
});

test("the next test on the file's page finds none of it", async ({ page, viewport }) => {
  await page.goto('/#/terms');
  await expect(page.getByRole('heading', { level: 1, name: 'Terms of Service' })).toBeVisible();
  const found = await page.evaluate(async () => ({
    local: window.localStorage.getItem('left'),
    session: window.sessionStorage.getItem('left'),
    cookie: document.cookie,
    year: new Date().getFullYear(),
    config: (await fetch('/api/config')).status,
    reduce: window.matchMedia('(prefers-reduced-motion: reduce)').matches,
    dark: window.matchMedia('(prefers-color-scheme: dark)').matches,
    width: window.innerWidth,
  }));
  expect(found).toEqual({
    local: null,
    session: null,
    cookie: '',
    year: new Date().getFullYear(),
    config: 200,
    reduce: false,
    dark: false,
    width: viewport?.width,
  });
});

test.describe('with a context option of its own', () => {
  const userAgent = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) Flaglight-e2e';
  test.use({ userAgent });

  test('the page is made with it', async ({ page }) => {
    await page.goto('/#/terms');
    expect(await page.evaluate(() => navigator.userAgent)).toBe(userAgent);
  });
});

test.describe('with a fixed time asked for', () => {
  const FIXED = Date.parse('2026-03-08T04:00:00Z');
  test.use({ fixedTime: FIXED });
  /** The page's object, kept across this describe's tests to show they share it. */
  let first: unknown = null;

  test('the clock stands at it from the first load; the test moves it on', async ({ page }) => {
    first = page;
    await page.goto('/#/terms');
    expect(await page.evaluate(() => Date.now())).toBe(FIXED);
    await page.clock.setFixedTime(FIXED + 86_400_000);
    expect(await page.evaluate(() => Date.now())).toBe(FIXED + 86_400_000);
  });

  test('the next test shares the page, and finds the clock at the asked time again', async ({ page }) => {
    // A retry has a context of its own; the first run shares the page.
    if (test.info().retry === 0) expect(page).toBe(first);
    await page.goto('/#/terms');
    expect(await page.evaluate(() => Date.now())).toBe(FIXED);
  });
});
