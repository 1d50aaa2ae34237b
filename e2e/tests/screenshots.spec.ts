import { expect, signInAs, test, USERS, type TestUser } from '../fixtures';
import { sidewaysOverflow } from '../support/overflow';

interface Shot {
  name: string;
  route: string;
  heading: string | RegExp;
  user?: TestUser;
  /**
   * Compared with the committed baseline in e2e/screenshots/. Only screens that hold still: with
   * reduced motion the landing's lamp stops cycling and `animations: 'disabled'` parks the track's
   * car, and none of these pages shows a time, so nothing needs a mask.
   */
  compare?: true;
}

const SHOTS: Shot[] = [
  { name: 'landing', route: '/', heading: /When the flag flies/, compare: true },
  { name: 'login', route: '/login', heading: 'Sign In', compare: true },
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
  { name: 'help', route: '/help', heading: 'Help', user: USERS.lifetime, compare: true },
  { name: 'admin', route: '/admin', heading: 'Admin', user: USERS.admin },
];

const WIDTHS = [
  { width: 390, height: 844 },
  { width: 1440, height: 900 },
];

for (const viewport of WIDTHS) {
  test.describe(`every route at ${viewport.width} px`, () => {
    test.use({ viewport, reducedMotion: 'reduce' });

    for (const shot of SHOTS) {
      test(shot.name, async ({ page }) => {
        if (shot.user) await signInAs(page, shot.user);
        await page.goto(`/#${shot.route}`);
        await expect(page.getByRole('heading', { level: 1, name: shot.heading })).toBeVisible();
        // Nothing may push the page sideways on a phone.
        const overflow = await sidewaysOverflow(page, viewport.width);
        expect(overflow, 'elements wider than the viewport').toEqual([]);
        if (shot.compare) {
          await expect(page).toHaveScreenshot(`${shot.name}-${viewport.width}.png`, {
            fullPage: true,
            animations: 'disabled',
            caret: 'hide',
            // Runs on this machine match pixel for pixel; the slack covers a few anti-aliased edges.
            // Playwright takes the smaller of the two. Even a 0.02em letter-spacing on headings
            // moves 198 pixels or more.
            maxDiffPixelRatio: 0.001,
            maxDiffPixels: 100,
          });
        }
      });
    }
  });
}
