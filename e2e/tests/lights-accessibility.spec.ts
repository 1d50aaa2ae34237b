import { expect, signInAs, test, USERS } from '../fixtures';
import { LightControlPanel } from '../page-models/light-control';
import { seriousViolations } from '../support/axe';

// axe is injected as an inline script, which the server's CSP rightly forbids to pages.
test.use({ bypassCSP: true });

for (const width of [390, 1440]) {
  test.describe(`lights screens, axe at ${width} px`, () => {
    test.use({ viewport: { width, height: 900 }, reducedMotion: 'reduce' });

    test.beforeEach(async ({ page }) => {
      const { user } = await signInAs(page, USERS.lifetime);
      // A LIFX token saved earlier: auto-connect brings the provider back on start-up.
      await page.addInitScript(
        (email) => window.localStorage.setItem(`lifx_token_${email}`, 'demo-token'),
        user.email,
      );
    });

    test('/settings with LIFX connected and every light section open', async ({ page }) => {
      await page.goto('/#/settings');
      await expect(page.getByText(/LIFX connected: 12 lights found/)).toBeVisible();
      await page.getByRole('button', { name: 'Philips Hue Remote API' }).click();
      await page.getByRole('button', { name: 'App Preferences' }).click();
      await expect(page.getByRole('switch', { name: 'Auto-connect on startup' })).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
    });

    test('/dashboard with LIFX connected, a bulb picked and the screen light on', async ({ page }) => {
      await page.goto('/#/dashboard');
      const lights = new LightControlPanel(page);
      await expect(lights.list('LIFX')).toBeVisible();
      await lights.device('Lamp').check();
      await lights.panel.getByRole('button', { name: 'Hide Desk' }).click();
      await lights.panel.getByRole('button', { name: 'Test lights' }).click();
      await lights.expectScreenColor('green');
      expect(await seriousViolations(page)).toEqual([]);
      await lights.tab('Philips Hue').click();
      expect(await seriousViolations(page)).toEqual([]);
    });
  });
}
