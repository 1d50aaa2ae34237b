import { expect, test } from 'vitest';
import { preloadScreenFor } from './lazy-screens';

test('the signed-in screen a hash route opens on is loaded ahead, whatever its query', async () => {
  await expect(preloadScreenFor('#/dashboard?replay=1')).resolves.toBe(true);
  await expect(preloadScreenFor('#/settings')).resolves.toBe(true);
  await expect(preloadScreenFor('#/help')).resolves.toBe(true);
  await expect(preloadScreenFor('#/admin')).resolves.toBe(true);
});

test('other routes load nothing ahead: the landing, the legal pages, an unknown path, no hash', async () => {
  for (const hash of ['#/', '#/privacy', '#/dashboard/extra', '#/nope', '']) {
    await expect(preloadScreenFor(hash)).resolves.toBe(false);
  }
});
