import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, signInAs, test, USERS } from '../fixtures';
import { DelayPanel } from '../page-models/delay-panel';

const SCREENSHOT_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../artifacts/screenshots');

// States of the screens beyond the first view of each route (screenshots.spec.ts).
for (const viewport of [
  { width: 390, height: 844 },
  { width: 1440, height: 900 },
]) {
  test.describe(`state screenshots at ${viewport.width} px`, () => {
    test.use({ viewport, reducedMotion: 'reduce' });
    const shot = (name: string) => path.join(SCREENSHOT_DIR, `${name}-${viewport.width}.png`);

    test('reduce-delay confirmation', async ({ page }) => {
      await signInAs(page, USERS.lifetime);
      await page.goto('/#/dashboard');
      const delay = new DelayPanel(page);
      await delay.preset('Streaming Service').click();
      await delay.preset('Cable/Satellite').click();
      await expect(delay.confirmation).toBeVisible();
      await page.screenshot({ path: shot('dashboard-reduce-delay'), animations: 'disabled' });
    });

    test('help search and an open answer', async ({ page }) => {
      await signInAs(page, USERS.trial);
      await page.goto('/#/help');
      await page.getByRole('searchbox', { name: 'Search help' }).fill('hue');
      await page.getByRole('tab', { name: /Compatibility/ }).click();
      await page.getByRole('button', { name: 'Do I need a Hue Bridge?' }).click();
      await page.screenshot({ path: shot('help-search-faq'), fullPage: true, animations: 'disabled' });
    });

    test('toasts', async ({ page }) => {
      await signInAs(page, USERS.lifetime);
      await page.goto('/#/dashboard');
      const delay = new DelayPanel(page);
      // Date.now stands still (timers keep running) until the test moves it.
      await page.clock.setFixedTime(new Date('2026-03-08T04:00:00Z'));
      await delay.panel.getByRole('button', { name: 'Start' }).click();
      await page.clock.setFixedTime(new Date('2026-03-08T04:00:09.600Z'));
      await delay.panel.getByRole('button', { name: 'Mark' }).click();
      await expect(page.getByRole('region', { name: 'Notifications' }).getByRole('status')).toBeVisible();
      await page.screenshot({ path: shot('dashboard-toast'), animations: 'disabled' });
    });
  });
}
