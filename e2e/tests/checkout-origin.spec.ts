import { expect, signInAs, test, USERS } from '../fixtures';

// The e2e server's PUBLIC_URL is http://127.0.0.1:PORT. Here the fan opens the app under its other
// name, localhost: the checkout page's CSP (form-action 'self') lets its Pay button redirect only to
// the origin the page is on. localhost is mapped to 127.0.0.1, so no other address
// (::1) is ever tried.
test.use({
  launchOptions: async ({ launchOptions }, use) => {
    await use({
      ...launchOptions,
      args: [...(launchOptions.args ?? []), '--host-resolver-rules=MAP localhost 127.0.0.1'],
    });
  },
  // The checkout simulator's page has no icon, so the browser's /favicon.ico request gets a 404.
  expectedConsoleErrors: /status of 404/,
});

test('a fan who opened the app at localhost pays and comes back to localhost with Lifetime Access', async ({
  page,
  baseURL,
}) => {
  const app = new URL(baseURL!);
  app.hostname = 'localhost';
  await signInAs(page, USERS.trial);
  await page.goto(`${app.origin}/#/settings`);
  await page.getByRole('button', { name: 'Upgrade for A$20' }).click();
  await expect(page).toHaveURL(new RegExp(`^${app.origin}/sims/checkout/pay/`));
  await page.getByRole('button', { name: 'Pay A$20.00' }).click();
  await expect(page.getByText('Lifetime Access', { exact: true })).toBeVisible();
  await expect(page).toHaveURL(`${app.origin}/#/dashboard`);
  expect(await page.evaluate(() => JSON.parse(localStorage.getItem('user') ?? '{}').plan)).toBe('lifetime');
});
