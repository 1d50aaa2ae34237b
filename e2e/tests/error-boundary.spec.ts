import { expect, hashPath, signInAs, screenTest as test, USERS } from '../fixtures';

// A screen whose code cannot be downloaded (offline, or replaced by a deploy) is the error a
// real visitor meets; the browser and React both report it, so this file expects those errors.
test.use({ expectedConsoleErrors: /Failed to load resource|dynamically imported module/ });

test('a screen that fails to load shows the error boundary; Try Again recovers', async ({ page }) => {
  await signInAs(page, USERS.lifetime);
  await page.route(/\/assets\/SettingsPage-[\w-]+\.js$/, (route) => route.abort());
  await page.goto('/#/settings');
  await expect(page.getByRole('heading', { name: 'Something went wrong' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Try Again' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Go Home' })).toBeVisible();
  // The top bar stays, so the rest of the app is still reachable.
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();

  await page.unroute(/\/assets\/SettingsPage-[\w-]+\.js$/);
  await page.getByRole('button', { name: 'Try Again' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
});

test('Go Home leaves the broken screen', async ({ page }) => {
  await signInAs(page, USERS.lifetime);
  await page.route(/\/assets\/HelpPage-[\w-]+\.js$/, (route) => route.abort());
  await page.goto('/#/help');
  await expect(page.getByRole('heading', { name: 'Something went wrong' })).toBeVisible();
  await page.getByRole('button', { name: 'Go Home' }).click();
  // Home for a signed-in user is the dashboard.
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  expect(hashPath(page)).toBe('/dashboard');
});
