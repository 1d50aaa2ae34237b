import { expect, signInAs, screenTest as test, USERS } from '../fixtures';
import { DelayPanel } from '../page-models/delay-panel';
import { sidewaysOverflow } from '../support/overflow';

// States of the screens beyond the first view of each route (screenshots.spec.ts): none may push
// the page sideways.
for (const viewport of [
  { width: 390, height: 844 },
  { width: 1440, height: 900 },
]) {
  test.describe(`screen states at ${viewport.width} px`, () => {
    test.use({ viewport, reducedMotion: 'reduce' });

    test('reduce-delay confirmation', async ({ page }) => {
      await signInAs(page, USERS.lifetime);
      await page.goto('/#/dashboard');
      const delay = new DelayPanel(page);
      await delay.preset('Streaming Service').click();
      await delay.preset('Cable/Satellite').click();
      await expect(delay.confirmation).toBeVisible();
      expect(await sidewaysOverflow(page, viewport.width), 'elements wider than the viewport').toEqual([]);
    });

    test('help search and an open answer', async ({ page }) => {
      await signInAs(page, USERS.trial);
      await page.goto('/#/help');
      await page.getByRole('searchbox', { name: 'Search help' }).fill('hue');
      await page.getByRole('tab', { name: /Compatibility/ }).click();
      await page.getByRole('button', { name: 'Do I need a Hue Bridge?' }).click();
      await expect(page.getByRole('button', { name: 'Do I need a Hue Bridge?' })).toHaveAttribute(
        'aria-expanded',
        'true',
      );
      expect(await sidewaysOverflow(page, viewport.width), 'elements wider than the viewport').toEqual([]);
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
      expect(await sidewaysOverflow(page, viewport.width), 'elements wider than the viewport').toEqual([]);
    });
  });
}
