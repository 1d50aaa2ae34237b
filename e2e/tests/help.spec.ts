import { expect, signInAs, screenTest as test, USERS } from '../fixtures';

for (const viewport of [
  { width: 390, height: 844 },
  { width: 1440, height: 900 },
]) {
  test.describe(`help at ${viewport.width} px`, () => {
    test.use({ viewport });

    test('search filters the help centre on question and answer text', async ({ page }) => {
      await signInAs(page, USERS.trial);
      await page.goto('/#/help');
      const search = page.getByRole('searchbox', { name: 'Search help' });
      await expect(page.getByRole('heading', { level: 2, name: 'Getting Started' })).toBeVisible();
      // Only in an answer, not a question.
      await search.fill('personal access token');
      await expect(page.getByText('1 result for “personal access token”')).toBeVisible();
      await expect(
        page.getByRole('heading', { level: 3, name: 'How do I connect LIFX lights?' }),
      ).toBeVisible();
      await expect(page.getByRole('heading', { level: 2, name: 'Getting Started' })).toBeHidden();

      await search.fill('nothing like this anywhere');
      await expect(page.getByText('No articles match your search.')).toBeVisible();
      await search.fill('');
      for (const title of [
        'Getting Started',
        'Smart Light Setup',
        'Broadcast Delay',
        'Live Sessions',
        'Troubleshooting',
        'Account & Pricing',
      ]) {
        await expect(page.getByRole('heading', { level: 2, name: title, exact: true })).toBeVisible();
      }
    });

    test('FAQ tabs show their counts; questions open on their own', async ({ page }) => {
      await signInAs(page, USERS.trial);
      await page.goto('/#/help');
      const tabs = page.getByRole('tablist', { name: 'Question categories' }).getByRole('tab');
      await expect(tabs).toHaveText([
        /All Questions\s*19/,
        /General\s*4/,
        /Technical\s*7/,
        /Billing\s*4/,
        /Compatibility\s*4/,
      ]);
      const panel = page.getByRole('tabpanel');
      await expect(panel.getByRole('listitem')).toHaveCount(19);
      await page.getByRole('tab', { name: /Billing/ }).click();
      await expect(page.getByRole('tabpanel').getByRole('listitem')).toHaveCount(4);

      const cost = page.getByRole('button', { name: 'How much does Flaglight cost?' });
      const refund = page.getByRole('button', { name: 'Is there a money-back guarantee?' });
      await cost.click();
      await refund.click();
      await expect(page.getByText('Lifetime access costs A$20, paid once.', { exact: false })).toBeVisible();
      await expect(page.getByText(/30-day money-back guarantee/).first()).toBeVisible();
      await cost.click();
      await expect(cost).toHaveAttribute('aria-expanded', 'false');
      await expect(refund).toHaveAttribute('aria-expanded', 'true');
    });

    test('links to settings, dashboard, support and the Windows download', async ({ page }) => {
      await signInAs(page, USERS.trial);
      await page.goto('/#/help');
      await expect(page.getByRole('link', { name: 'Contact Support' })).toHaveAttribute(
        'href',
        /^mailto:.+@.+/,
      );
      await expect(page.getByRole('link', { name: 'Download for Windows' }).first()).toHaveAttribute(
        'href',
        '/api/downloads/flaglight-setup',
      );
      // Chromium on Linux: the desktop panel's first button is the Linux build.
      const desktop = page.getByRole('complementary', { name: 'Desktop app' });
      await expect(desktop.getByRole('link').first()).toHaveAccessibleName('Download for Linux');
      await expect(desktop.getByRole('link', { name: 'Download for Linux' })).toHaveAttribute(
        'href',
        '/api/downloads/flaglight-linux',
      );
      await page.getByRole('link', { name: 'Open Settings' }).first().click();
      await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
    });
  });
}
