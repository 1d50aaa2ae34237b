import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, signInAs, test, USERS, type TestUser } from '../fixtures';
import { AppShell } from '../page-models/app-shell';

const SCREENSHOT_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../artifacts/screenshots');

interface Shot {
  name: string;
  route: string;
  heading: string | RegExp;
  user?: TestUser;
}

const SHOTS: Shot[] = [
  { name: 'landing', route: '/', heading: /When the flag flies/ },
  { name: 'login', route: '/login', heading: 'Sign In' },
  { name: 'signup', route: '/login?mode=signup', heading: 'Sign Up' },
  { name: 'forgot-password', route: '/forgot-password', heading: 'Forgot Password' },
  { name: 'reset-password', route: '/reset-password?token=abc', heading: 'Reset Password' },
  { name: 'simple-login', route: '/simple-login', heading: 'Test Login' },
  { name: 'minimal-dashboard', route: '/minimal-dashboard', heading: 'Minimal Dashboard', user: USERS.trial },
  { name: 'privacy', route: '/privacy', heading: 'Privacy Policy' },
  { name: 'terms', route: '/terms', heading: 'Terms of Service' },
  { name: 'aboutme', route: '/aboutme', heading: 'About' },
  { name: 'dashboard-trial', route: '/dashboard', heading: 'Dashboard', user: USERS.trial },
  { name: 'dashboard-lifetime', route: '/dashboard', heading: 'Dashboard', user: USERS.lifetime },
  { name: 'settings', route: '/settings', heading: 'Settings', user: USERS.lifetime },
  { name: 'help', route: '/help', heading: 'Help', user: USERS.lifetime },
  { name: 'admin', route: '/admin', heading: 'Admin', user: USERS.admin },
];

const WIDTHS = [
  { width: 390, height: 844 },
  { width: 1440, height: 900 },
];

for (const viewport of WIDTHS) {
  test.describe(`screenshots at ${viewport.width} px`, () => {
    test.use({ viewport, reducedMotion: 'reduce' });

    for (const shot of SHOTS) {
      test(shot.name, async ({ page }) => {
        if (shot.user) await signInAs(page, shot.user);
        await page.goto(`/#${shot.route}`);
        await expect(page.getByRole('heading', { level: 1, name: shot.heading })).toBeVisible();
        // Nothing may push the page sideways on a phone.
        const overflow = await page.evaluate((width) => {
          if (document.documentElement.scrollWidth <= width) return [];
          // Name the culprits, so a failure says what to fix.
          return Array.from(document.querySelectorAll('body *'))
            .filter((el) => el.getBoundingClientRect().right > width + 0.5)
            .map((el) => `${el.tagName.toLowerCase()} "${(el.textContent ?? '').trim().slice(0, 40)}"`)
            .slice(0, 10);
        }, viewport.width);
        expect(overflow, 'elements wider than the viewport').toEqual([]);
        await page.screenshot({
          path: path.join(SCREENSHOT_DIR, `${shot.name}-${viewport.width}.png`),
          fullPage: true,
          animations: 'disabled',
        });
      });
    }
  });
}

test.describe('screenshots of the mobile menu', () => {
  test.use({ viewport: { width: 390, height: 844 }, reducedMotion: 'reduce' });

  test('signed out', async ({ page }) => {
    await page.goto('/#/privacy');
    await new AppShell(page).openMenu();
    await page.screenshot({
      path: path.join(SCREENSHOT_DIR, 'menu-signed-out-390.png'),
      animations: 'disabled',
    });
  });

  test('signed in', async ({ page }) => {
    await signInAs(page, USERS.lifetime);
    await page.goto('/#/dashboard');
    await new AppShell(page).openMenu();
    await page.screenshot({
      path: path.join(SCREENSHOT_DIR, 'menu-signed-in-390.png'),
      animations: 'disabled',
    });
  });
});
