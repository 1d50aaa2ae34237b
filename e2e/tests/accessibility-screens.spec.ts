import { expect, signInAs, screenTest as test, USERS } from '../fixtures';
import { DelayPanel } from '../page-models/delay-panel';
import { openForAxe, seriousViolations, type AxeRoute } from '../support/axe';
import { connectLive } from '../support/screens';

// axe is injected as an inline script, which the server's CSP rightly forbids to pages.
test.use({ bypassCSP: true });

// The screens not covered by accessibility.spec.ts, and their open states.
const ROUTES: AxeRoute[] = [
  { route: '/terms', heading: 'Terms of Service' },
  { route: '/forgot-password', heading: 'Forgot Password' },
  { route: '/reset-password?token=abc', heading: 'Reset Password' },
  { route: '/simple-login', heading: 'Test Login' },
  { route: '/help', heading: 'Help', user: USERS.trial },
  { route: '/dashboard', heading: 'Dashboard', user: USERS.lifetime, settle: connectLive },
  { route: '/privacy', heading: 'Privacy Policy', user: USERS.trial },
  { route: '/aboutme', heading: 'About', user: USERS.lifetime },
];

for (const width of [390, 1440]) {
  test.describe(`axe on more screens at ${width} px`, () => {
    test.use({ viewport: { width, height: 900 }, reducedMotion: 'reduce' });

    for (const screen of ROUTES) {
      const { route, user } = screen;
      test(`${route}${user ? ` as ${user.plan}` : ''}`, async ({ page }) => {
        await openForAxe(page, screen);
        expect(await seriousViolations(page)).toEqual([]);
      });
    }

    test('the landing with motion on', async ({ page }) => {
      await page.emulateMedia({ reducedMotion: 'no-preference' });
      await page.goto('/');
      await page.mouse.move(200, 200);
      expect(await seriousViolations(page)).toEqual([]);
    });

    test('the reduce-delay confirmation', async ({ page }) => {
      await signInAs(page, USERS.lifetime);
      await page.goto('/#/dashboard');
      await connectLive(page);
      const delay = new DelayPanel(page);
      await delay.preset('F1 TV').click();
      await delay.preset('Cable/Satellite').click();
      await expect(delay.confirmation).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
    });

    test('the help page with answers open and a search', async ({ page }) => {
      await signInAs(page, USERS.trial);
      await page.goto('/#/help');
      await page.getByRole('button', { name: 'How much does Flaglight cost?' }).click();
      await page.getByRole('tab', { name: /Technical/ }).click();
      await page.getByRole('searchbox', { name: 'Search help' }).fill('delay');
      expect(await seriousViolations(page)).toEqual([]);
    });
  });
}
