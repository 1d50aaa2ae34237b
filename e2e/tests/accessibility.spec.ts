import { expect, screenTest as test, USERS } from '../fixtures';
import { AppShell } from '../page-models/app-shell';
import { openForAxe, seriousViolations, type AxeRoute } from '../support/axe';
import { connectLive } from '../support/screens';

const ROUTES: AxeRoute[] = [
  { route: '/', heading: /When the flag flies/ },
  { route: '/login', heading: 'Sign In' },
  { route: '/privacy', heading: 'Privacy Policy' },
  { route: '/aboutme', heading: 'About' },
  { route: '/minimal-dashboard', heading: 'Minimal Dashboard' },
  { route: '/dashboard', heading: 'Dashboard', user: USERS.trial, settle: connectLive },
  { route: '/settings', heading: 'Settings', user: USERS.lifetime },
  { route: '/admin', heading: 'Admin', user: USERS.admin },
];

// axe is injected as an inline script, which the server's CSP rightly forbids to pages.
test.use({ bypassCSP: true });

for (const width of [390, 1440]) {
  test.describe(`axe at ${width} px`, () => {
    test.use({ viewport: { width, height: 900 }, reducedMotion: 'reduce' });

    for (const screen of ROUTES) {
      const { route, user } = screen;
      test(`${route}${user ? ` as ${user.plan}${user.isAdmin ? ' admin' : ''}` : ''}`, async ({ page }) => {
        await openForAxe(page, screen);
        expect(await seriousViolations(page)).toEqual([]);
      });
    }
  });
}

test('the open mobile menu', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/#/terms');
  await new AppShell(page).openMenu();
  expect(await seriousViolations(page)).toEqual([]);
});
