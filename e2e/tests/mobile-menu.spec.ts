import { expect, hashPath, signInAs, screenTest as test, USERS } from '../fixtures';
import { AppShell } from '../page-models/app-shell';

test.use({ viewport: { width: 390, height: 844 } });

test.describe('mobile menu at 390 px', () => {
  test('signed out: opens with Home, Help, Sign In, Sign Up and the disclaimer; closes on the toggle', async ({
    page,
  }) => {
    await page.goto('/#/privacy');
    const shell = new AppShell(page);
    await expect(shell.topBar).toBeHidden();
    await shell.openMenu();
    expect(await shell.menuLinkNames()).toEqual(['Home', 'Help', 'Sign In', 'Sign Up']);
    await expect(shell.menu.getByRole('link', { name: 'Sign Up' })).toHaveAttribute(
      'href',
      '#/login?mode=signup',
    );
    await expect(shell.menu.getByRole('img', { name: 'Flaglight' })).toBeVisible();
    await expect(shell.menu.getByText('Not affiliated with Formula 1')).toBeVisible();

    const box = await shell.menu.boundingBox();
    expect(box).toMatchObject({ x: 0, width: 320 });

    await shell.closeMenuByToggle();
    await expect(shell.menuToggle).toBeFocused();
  });

  test('is never wider than 85% of a narrow viewport', async ({ page }) => {
    await page.setViewportSize({ width: 360, height: 740 });
    await page.goto('/#/terms');
    const shell = new AppShell(page);
    await shell.openMenu();
    expect((await shell.menu.boundingBox())?.width).toBeCloseTo(360 * 0.85, 0);
  });

  test('closes on a backdrop click and on Escape', async ({ page }) => {
    await page.goto('/#/terms');
    const shell = new AppShell(page);
    await shell.openMenu();
    await shell.closeMenuByBackdrop();
    await shell.openMenu();
    await page.keyboard.press('Escape');
    await expect(shell.menu).toBeHidden();
  });

  test('closes on navigation', async ({ page }) => {
    await page.goto('/#/aboutme');
    const shell = new AppShell(page);
    await shell.openMenu();
    await shell.menu.getByRole('link', { name: 'Sign In' }).click();
    await expect(shell.menu).toBeHidden();
    await expect(page.getByRole('heading', { level: 1, name: 'Sign In' })).toBeVisible();
    expect(hashPath(page)).toBe('/login');
  });

  test('signed in: Home, Settings, Help, and navigation closes it', async ({ page }) => {
    await signInAs(page, USERS.lifetime);
    await page.goto('/#/dashboard');
    const shell = new AppShell(page);
    await shell.openMenu();
    expect(await shell.menuLinkNames()).toEqual(['Home', 'Settings', 'Help']);
    await shell.menu.getByRole('link', { name: 'Settings' }).click();
    await expect(shell.menu).toBeHidden();
    await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
  });
});
