import { expect, screenTest as test } from '../fixtures';

test.describe('landing at 1440 px', () => {
  test.use({ viewport: { width: 1440, height: 900 } });

  test('has how-it-works, features, integrations and the footer of SPEC §2', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 2, name: 'How it works' })).toBeVisible();
    await expect(
      page.getByRole('list').filter({ hasText: 'Connect your lights' }).getByRole('listitem'),
    ).toHaveCount(3);
    await expect(page.getByRole('heading', { level: 2, name: 'Built for race weekends' })).toBeVisible();

    const integrations = page.getByRole('region', { name: 'Works with your lights' });
    for (const name of ['LIFX', 'Philips Hue', 'Nanoleaf', 'Govee']) {
      await expect(integrations.getByRole('img', { name: `${name} logo` })).toBeVisible();
    }
    await expect(integrations.getByText('Coming 2025')).toHaveCount(0);
    await expect(integrations).toContainText('Panels, Shapes and Lines, through the desktop app.');

    const footer = page.getByRole('contentinfo');
    await expect(footer.getByRole('link', { name: 'Privacy' })).toHaveAttribute('href', '#/privacy');
    await expect(footer.getByRole('link', { name: 'Terms' })).toHaveAttribute('href', '#/terms');
    // Chromium on Linux: the Linux build first, the Windows installer still on offer.
    await expect(footer.getByRole('link', { name: 'Download for Linux' })).toHaveAttribute(
      'href',
      '/api/downloads/flaglight-linux',
    );
    await expect(footer.getByText('then chmod +x and run it')).toBeVisible();
    await expect(footer.getByRole('link', { name: 'Download for Windows' })).toHaveAttribute(
      'href',
      '/api/downloads/flaglight-setup',
    );
    await expect(footer).toContainText('not affiliated with Formula 1');

    await page.getByRole('navigation', { name: 'Site' }).getByRole('link', { name: 'About' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'About' })).toBeVisible();
  });

  test('the glowing cursor follows the mouse and grows over links', async ({ page }) => {
    await page.goto('/');
    const glow = page.getByTestId('glow-cursor');
    await expect(glow).toHaveCSS('pointer-events', 'none');
    await expect(glow).toHaveAttribute('aria-hidden', 'true');
    await page.mouse.move(700, 600);
    await expect(glow).toHaveAttribute('data-visible', 'true');
    await expect(glow).toHaveAttribute('data-active', 'false');
    const small = await glow.evaluate((el) => el.getBoundingClientRect().width);
    await page.getByRole('link', { name: 'Start Free Trial' }).hover();
    await expect(glow).toHaveAttribute('data-active', 'true');
    await expect.poll(() => glow.evaluate((el) => el.getBoundingClientRect().width)).toBeGreaterThan(small);
  });

  test('the race track runs, and stands still under reduced motion', async ({ page }) => {
    await page.goto('/');
    const car = page.locator('.race-track-car');
    await expect(car).toHaveCSS('animation-play-state', 'running');
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await expect(car).toHaveCSS('animation-play-state', 'paused');
    await expect(page.getByTestId('glow-cursor')).toHaveCount(0);
  });
});

test.describe('landing visited from Windows', () => {
  test.use({
    userAgent:
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  });

  test('offers the Windows installer only', async ({ page }) => {
    await page.goto('/');
    const footer = page.getByRole('contentinfo');
    await expect(footer.getByRole('link', { name: 'Download for Windows' })).toHaveAttribute(
      'href',
      '/api/downloads/flaglight-setup',
    );
    await expect(footer.getByRole('link', { name: 'Download for Linux' })).toHaveCount(0);
  });
});

test.describe('landing on a touch phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

  test('has no glowing cursor, and the page does not scroll sideways', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByTestId('glow-cursor')).toHaveCount(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  });
});
