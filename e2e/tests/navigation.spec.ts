import { createSession, expect, hashPath, signInAs, screenTest as test, USERS } from '../fixtures';
import { AppShell } from '../page-models/app-shell';
import { seedStorage } from '../support/page-per-file';

test.describe('signed out', () => {
  test('the landing renders its hero with Start Free Trial and no top bar', async ({ page }) => {
    await page.goto('/');
    await expect(page).toHaveTitle('Flaglight');
    await expect(page.getByRole('heading', { level: 1 })).toContainText('When the flag flies');
    const trial = page.getByRole('link', { name: 'Start Free Trial' });
    await expect(trial).toBeVisible();
    await expect(trial).toHaveAttribute('href', '#/login?mode=signup');
    await expect(page.getByRole('contentinfo')).toContainText('not affiliated with Formula 1');
    await expect(new AppShell(page).topBar).toHaveCount(0);

    await trial.click();
    await expect(page).toHaveURL(/#\/login\?mode=signup$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Sign Up' })).toBeVisible();
  });

  test('/#/dashboard lands on /#/login', async ({ page }) => {
    await page.goto('/#/dashboard');
    await expect(page.getByRole('heading', { level: 1, name: 'Sign In' })).toBeVisible();
    expect(hashPath(page)).toBe('/login');
  });

  test('an unknown path lands on /', async ({ page }) => {
    await page.goto('/#/nope');
    await expect(page.getByRole('link', { name: 'Start Free Trial' })).toBeVisible();
    expect(hashPath(page)).toBe('/');
  });

  test('the top bar offers Login and Get Started, both to /login', async ({ page }) => {
    await page.goto('/#/privacy');
    const shell = new AppShell(page);
    await expect(page.getByRole('heading', { level: 1, name: 'Privacy Policy' })).toBeVisible();
    expect(await shell.topBarLinkNames()).toEqual(['Login', 'Get Started']);
    await expect(shell.topBar.getByRole('link', { name: 'Get Started' })).toHaveAttribute('href', '#/login');
  });
});

test.describe('signed in', () => {
  test('a member sees Dashboard, Settings, Help and the Lifetime badge, and no Admin', async ({ page }) => {
    await signInAs(page, USERS.lifetime);
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
    expect(hashPath(page)).toBe('/dashboard');
    const shell = new AppShell(page);
    expect(await shell.topBarLinkNames()).toEqual(['Dashboard', 'Settings', 'Help']);
    await expect(page.getByRole('banner').getByText('Lifetime', { exact: true })).toBeVisible();
  });

  test('a non-admin on /#/admin lands on /#/dashboard', async ({ page }) => {
    await signInAs(page, USERS.trial);
    await page.goto('/#/admin');
    await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
    expect(hashPath(page)).toBe('/dashboard');
  });

  test('an admin sees Admin in the top bar and reaches the admin screen', async ({ page }) => {
    await signInAs(page, USERS.admin);
    await page.goto('/#/dashboard');
    const shell = new AppShell(page);
    await expect(shell.topBar.getByRole('link', { name: 'Admin' })).toBeVisible();
    await shell.topBar.getByRole('link', { name: 'Admin' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Admin' })).toBeVisible();
    expect(hashPath(page)).toBe('/admin');
  });

  test('Sign Out in Settings forgets the session and returns to the landing', async ({ page }) => {
    await signInAs(page, USERS.lifetime);
    await page.goto('/#/settings');
    await page.getByRole('button', { name: 'Sign Out' }).click();
    await expect(page.getByRole('link', { name: 'Start Free Trial' })).toBeVisible();
    expect(hashPath(page)).toBe('/');
    expect(
      await page.evaluate(() => [localStorage.getItem('auth_token'), localStorage.getItem('user')]),
    ).toEqual([null, null]);
  });

  test('a token under the old `token` key still signs the user in', async ({ page }) => {
    const { token, user } = await createSession(page.request, USERS.lifetime);
    await seedStorage(page, { token, user: JSON.stringify(user) });
    await page.goto('/#/dashboard');
    await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
    expect(
      await page.evaluate(() => [localStorage.getItem('auth_token'), localStorage.getItem('token')]),
    ).toEqual([token, null]);
  });
});

test.describe('route fade', () => {
  test('each screen fades in over 200 ms', async ({ page }) => {
    await page.goto('/#/terms');
    const view = page.getByTestId('route-view');
    await expect(view).toHaveCSS('animation-name', 'route-fade');
    await expect(view).toHaveCSS('animation-duration', '0.2s');
  });

  test('there is no fade under prefers-reduced-motion', async ({ page }) => {
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.goto('/#/terms');
    await expect(page.getByTestId('route-view')).toHaveCSS('animation-name', 'none');
  });
});

test.describe('console guard', () => {
  // The fixture must fail a test whose page logs an error; this test proves it does.
  test.fail();
  test('a page console.error fails the test', async ({ page }) => {
    await page.goto('/#/aboutme');
    await page.evaluate(() => console.error('deliberate error from the guard test'));
  });
});
