import type { Browser, Page } from '@playwright/test';
import { paced } from '../../scripts/test-pace.mjs';
import { createSession, expect, seedSession, test, USERS } from '../fixtures';
import { DelayPanel } from '../page-models/delay-panel';
import { LightControlPanel, LightSettings } from '../page-models/light-control';
import type { Session } from '../support/accounts';

/**
 * The account's preferences follow the fan across browsers: two browsers (separate storage, like a
 * laptop and a TV box) signed in to one account; a change in one reaches the other on its event
 * stream, and a fresh browser reads it from the server.
 */
const FAN = USERS.lifetime;

async function openBrowser(browser: Browser, session: Session): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await seedSession(page, session);
  return page;
}

test.beforeEach(async ({ request }) => {
  await request.post('/sims/lifx/_control/reset');
});

test('a delay changed in one browser shows in another without a reload, and after one', async ({
  browser,
  request,
}) => {
  test.setTimeout(paced(90_000));
  const session = await createSession(request, FAN);

  // The second browser follows the live session (its stream carries the account's changes).
  const follower = await openBrowser(browser, session);
  await follower.goto('/#/settings');
  await new LightSettings(follower).connectLifx('demo-token');
  await expect(follower.getByText(/LIFX connected: 12 lights/)).toBeVisible();
  await follower.goto('/#/dashboard');
  await new LightControlPanel(follower).device('Lamp').check();
  await expect(
    follower.getByRole('region', { name: 'Race Control' }).getByRole('status', { name: 'Connection' }),
  ).toHaveText(/Connected · Live/, { timeout: paced(15_000) });
  const followerDelay = new DelayPanel(follower);
  await followerDelay.expectDelay(5);

  // The first browser changes the delay.
  const laptop = await openBrowser(browser, session);
  await laptop.goto('/#/dashboard');
  const laptopDelay = new DelayPanel(laptop);
  await laptopDelay.expectDelay(5);
  await laptopDelay.preset('F1 TV').click();
  await laptopDelay.expectDelay(30);

  // Pushed to the other browser's open page.
  await followerDelay.expectDelay(30);
  expect(await followerDelay.storedDelay()).toBe(30);

  // A reload, and a browser that never saw it, read it from the server.
  await laptop.reload();
  await new DelayPanel(laptop).expectDelay(30);
  const fresh = await openBrowser(browser, session);
  await fresh.goto('/#/dashboard');
  await new DelayPanel(fresh).expectDelay(30);

  for (const page of [follower, laptop, fresh]) await page.context().close();
});

test("a browser's own settings move to the account on the first sign-in after the change", async ({
  browser,
  request,
}) => {
  const session = await createSession(request, FAN);
  const old = await openBrowser(browser, session);
  // What an earlier version left in this browser (SPEC §3 `settings_<email>`).
  await old.addInitScript((email) => {
    if (window.sessionStorage.getItem('flaglight-e2e-legacy')) return;
    window.sessionStorage.setItem('flaglight-e2e-legacy', '1');
    window.localStorage.setItem(
      `settings_${email}`,
      JSON.stringify({ delaySeconds: 20, delayEnabled: true }),
    );
  }, session.user.email);
  await old.goto('/#/dashboard');
  await new DelayPanel(old).expectDelay(20);

  const other = await openBrowser(browser, session);
  await other.goto('/#/dashboard');
  await new DelayPanel(other).expectDelay(20);
  for (const page of [old, other]) await page.context().close();
});
