import type { Page } from '@playwright/test';
import { expect, signInAs, screenTest as test, USERS } from '../fixtures';
import { DelayPanel } from '../page-models/delay-panel';
import { LightControlPanel, LightSettings } from '../page-models/light-control';
import type { Session } from '../support/accounts';

/**
 * A change the account did not take is never silent: when the server refuses or drops the write,
 * the page says so where the change was made, in plain words, keeps the change, and Retry saves it
 * once the server answers again.
 */

// The refused and dropped writes below are provoked on purpose; the browser logs each one.
test.use({ expectedConsoleErrors: /Failed to load resource|status of (400|503)/ });

async function savedDelay(page: Page, session: Session): Promise<number> {
  const response = await page.request.get('/api/me/preferences', {
    headers: { authorization: `Bearer ${session.token}` },
  });
  return ((await response.json()) as { preferences: { delay: { seconds: number } } }).preferences.delay
    .seconds;
}

test('a dropped save is shown beside the delay with Retry, and Retry saves it when the server answers', async ({
  page,
}) => {
  const session = await signInAs(page, USERS.lifetime);
  await page.goto('/#/dashboard');
  const delay = new DelayPanel(page);
  await expect(delay.panel).toBeVisible();
  await expect.poll(() => savedDelay(page, session)).toBe(5);

  // The network drops every write.
  await page.route('**/api/me/preferences', (route) =>
    route.request().method() === 'PUT' ? route.abort('internetdisconnected') : route.fallback(),
  );
  await delay.preset('Streaming Service').click();
  const notice = delay.panel.getByRole('alert');
  await expect(notice).toContainText('Your broadcast delay is not saved yet');
  await expect(notice).toContainText('Flaglight cannot reach its server');
  await expect(notice).toContainText('It stays on this device');
  // The change stays on screen.
  await delay.expectDelay(20);
  expect(await savedDelay(page, session)).toBe(5);

  // The server answers 503 now: still shown, in other words.
  await page.unroute('**/api/me/preferences');
  await page.route('**/api/me/preferences', (route) =>
    route.request().method() === 'PUT'
      ? route.fulfill({ status: 503, contentType: 'application/json', body: '{"error":"down"}' })
      : route.fallback(),
  );
  await notice.getByRole('button', { name: 'Retry' }).click();
  await expect(notice).toContainText("Flaglight's server had a problem.");

  // The server is back: Retry saves it, and the notice goes.
  await page.unroute('**/api/me/preferences');
  await notice.getByRole('button', { name: 'Retry' }).click();
  await expect(notice).toBeHidden();
  await expect.poll(() => savedDelay(page, session)).toBe(20);

  // And after a reload the saved value is what shows.
  await page.reload();
  await delay.expectDelay(20);
});

test('a refused light choice says why beside Light Control, and keeps the tick', async ({ page }) => {
  await signInAs(page, USERS.lifetime);
  await page.goto('/#/settings');
  const settings = new LightSettings(page);
  await settings.setAutoConnect(false);
  await settings.connectLifx('demo-token');
  await expect(page.getByText(/LIFX connected: \d+ lights/)).toBeVisible();
  await page.route('**/api/me/preferences', (route) =>
    route.request().method() === 'PUT'
      ? route.fulfill({
          status: 400,
          contentType: 'application/json',
          body: JSON.stringify({
            error: 'preferences.selectedLights: at most 8 providers',
            code: 'invalid_input',
          }),
        })
      : route.fallback(),
  );
  await page.goto('/#/dashboard');
  const lights = new LightControlPanel(page);
  await lights.tab('LIFX').click();
  await lights.device('Lamp').check();
  const notice = lights.panel.getByRole('alert');
  await expect(notice).toContainText('Your light choice is not saved yet');
  await expect(notice).toContainText(
    'The server refused it: preferences.selectedLights: at most 8 providers',
  );
  await expect(lights.device('Lamp')).toBeChecked();
  await notice.getByRole('button', { name: 'Retry' }).click();
  await expect(notice).toContainText('The server refused it');
  await expect(lights.device('Lamp')).toBeChecked();
});
