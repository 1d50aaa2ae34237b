import { expect, signInAs, screenTest as test, USERS } from '../fixtures';
import { DelayPanel } from '../page-models/delay-panel';

const FAN = USERS.lifetime;

for (const viewport of [
  { width: 390, height: 844 },
  { width: 1440, height: 900 },
]) {
  test.describe(`broadcast delay at ${viewport.width} px`, () => {
    test.use({ viewport });

    test('starts on at 5 s; a preset raises it without asking and survives a reload', async ({ page }) => {
      await signInAs(page, FAN);
      await page.goto('/#/dashboard');
      const delay = new DelayPanel(page);
      await expect(delay.toggle).toBeChecked();
      await delay.expectDelay(5);
      await expect(delay.preset('Cable/Satellite')).toHaveAttribute('aria-pressed', 'true');

      await delay.preset('F1 TV').click();
      await expect(delay.confirmation).toBeHidden();
      await delay.expectDelay(30);
      expect(await delay.storedDelay()).toBe(30);

      await page.reload();
      await new DelayPanel(page).expectDelay(30);
    });

    test('reducing asks first: Cancel keeps it, Yes, Reduce Delay lowers it', async ({ page }) => {
      await signInAs(page, FAN);
      await page.goto('/#/dashboard');
      const delay = new DelayPanel(page);
      await delay.preset('Streaming Service').click();
      await delay.expectDelay(20);

      await delay.preset('Cable/Satellite').click();
      await expect(delay.confirmation).toBeVisible();
      await expect(delay.confirmation).toContainText('From 20 s to 5 s');
      await delay.confirmation.getByRole('button', { name: 'Cancel' }).click();
      await expect(delay.confirmation).toBeHidden();
      await delay.expectDelay(20);

      await delay.typeDelay(8);
      await expect(delay.confirmation).toBeVisible();
      await delay.confirmation.getByRole('button', { name: 'Yes, Reduce Delay' }).click();
      await expect(delay.confirmation).toBeHidden();
      await delay.expectDelay(8);
      expect(await delay.storedDelay()).toBe(8);
    });

    test('the slider works from the keyboard and asks before going down', async ({ page }) => {
      await signInAs(page, FAN);
      await page.goto('/#/dashboard');
      const delay = new DelayPanel(page);
      await delay.slider.focus();
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('ArrowRight');
      await delay.expectDelay(7);
      await page.keyboard.press('ArrowLeft');
      await expect(delay.confirmation).toBeVisible();
      await page.keyboard.press('Escape');
      await delay.expectDelay(7);
    });

    test('calibration: seconds between Start and Mark become the delay, with a toast', async ({ page }) => {
      await signInAs(page, FAN);
      await page.goto('/#/dashboard');
      const delay = new DelayPanel(page);
      // Date.now stands still (timers keep running) until the test moves it.
      await page.clock.setFixedTime(new Date('2026-03-08T04:00:00Z'));
      await delay.panel.getByRole('button', { name: 'Start' }).click();
      await page.clock.setFixedTime(new Date('2026-03-08T04:00:12.400Z'));
      await expect(delay.panel.getByTestId('calibration-elapsed')).toHaveText('12.4 s');
      await delay.panel.getByRole('button', { name: 'Mark' }).click();
      await delay.expectDelay(12);
      await expect(delay.panel.getByText('Measured 12 s')).toBeVisible();
      await expect(
        page.getByRole('region', { name: 'Notifications' }).getByText('Broadcast delay calibrated to 12 s'),
      ).toBeVisible();
    });

    test('the switch turns the delay off', async ({ page }) => {
      await signInAs(page, FAN);
      await page.goto('/#/dashboard');
      const delay = new DelayPanel(page);
      await delay.toggle.click();
      await expect(delay.toggle).not.toBeChecked();
      await expect(delay.panel.getByText(/Delay off/)).toBeVisible();
    });
  });
}

test('the dashboard shows every panel of SPEC §2 with its heading', async ({ page }) => {
  await signInAs(page, USERS.trial);
  await page.goto('/#/dashboard');
  for (const name of ['Race Control', 'Broadcast Delay', 'Formula 1 Calendar', 'Light Control']) {
    await expect(page.getByRole('heading', { level: 2, name })).toBeVisible();
  }
});
