import { paced } from '../../scripts/test-pace.mjs';
import { expect, test } from '../fixtures';

test('the API reference renders offline from the server, with the product routes and no simulators', async ({
  page,
}) => {
  const outside: string[] = [];
  page.on('request', (request) => {
    if (!request.url().startsWith('http://127.0.0.1')) outside.push(request.url());
  });
  await page.goto('/api/docs/');
  // The reference is drawn in the page from the whole OpenAPI document: over 5 s once on a CI
  // machine whose lanes kept both cores busy.
  await expect(page.getByRole('heading', { name: /Flaglight API/ })).toBeVisible({ timeout: paced(15_000) });
  await expect(page.getByText('/api/live/events', { exact: true })).toBeVisible();
  await expect(page.getByText('/admin/users/{id}/plan', { exact: true })).toBeVisible();
  await expect(page.getByText(/^\/sims\//)).toHaveCount(0);
  expect(outside).toEqual([]);
});
