import { expect, signInAs, screenTest as test, USERS } from '../fixtures';

for (const signedIn of [false, true]) {
  test.describe(signedIn ? 'legal pages signed in' : 'legal pages signed out', () => {
    test.beforeEach(async ({ page }) => {
      if (signedIn) await signInAs(page, USERS.trial);
    });

    test('privacy names the minimum age and parental consent', async ({ page }) => {
      await page.goto('/#/privacy');
      await expect(page.getByRole('heading', { level: 1, name: 'Privacy Policy' })).toBeVisible();
      await expect(page.getByText(/at least 13/)).toBeVisible();
      await expect(page.getByText(/under 18, you\s+need the consent of a parent/)).toBeVisible();
    });

    test('terms hold the 7-day trial, the refund wording and the non-affiliation', async ({ page }) => {
      await page.goto('/#/terms');
      await expect(page.getByRole('heading', { level: 1, name: 'Terms of Service' })).toBeVisible();
      await expect(page.getByText(/free 7-day trial/)).toBeVisible();
      await expect(page.getByText('Refunds are generally not given.', { exact: false })).toBeVisible();
      await expect(page.getByText(/investigate every billing error reported in that time/)).toBeVisible();
      await expect(
        page.getByText(/not\s+affiliated with, endorsed by or connected to Formula 1/),
      ).toBeVisible();
      await expect(page.getByText(/at least 13 years old/)).toBeVisible();
    });

    test('about says what Flaglight is and that it is independent', async ({ page }) => {
      await page.goto('/#/aboutme');
      await expect(page.getByRole('heading', { level: 1, name: 'About' })).toBeVisible();
      await expect(page.getByText(/independent and is not affiliated with Formula 1/)).toBeVisible();
    });
  });
}
