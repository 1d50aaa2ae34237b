import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { paced } from '../../scripts/test-pace.mjs';
import { expect, screenTest as test } from '../fixtures';
import { auditScreen } from '../support/audit';
import { FIXED_NOW, SCREENS, SHOT_STYLES, SHOT_TIMEOUT_MS, signInAsShotUser } from '../support/screens';

// Every screen of SPEC §2 and the dashboard's and settings' states, at a phone's and a desktop's
// size: compared with its committed baseline in e2e/screenshots/ (a changed screen fails until its
// baseline is retaken on purpose) and audited (overflow, tap targets, font size, alt, axe, focus).

// axe is injected as an inline script, which the server's CSP rightly forbids to pages.
test.use({ bypassCSP: true });

test.describe.configure({ timeout: paced(60_000) });

/** AUDIT_CAPTURE=before|after also keeps a copy of each shot for the audit's report (git-ignored). */
const CAPTURE = process.env.AUDIT_CAPTURE;
const CAPTURE_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../artifacts/audit');

const WIDTHS = [
  { width: 390, height: 844 },
  { width: 1440, height: 900 },
];

for (const viewport of WIDTHS) {
  test.describe(`every route at ${viewport.width} px`, () => {
    // Clocks, countdowns and the calendar's "next" read the page's clock; timers keep running.
    test.use({ viewport, reducedMotion: 'reduce', fixedTime: FIXED_NOW.getTime() });

    for (const screen of SCREENS) {
      test.describe(() => {
        test.use({ expectedConsoleErrors: screen.expectedConsoleErrors ?? null });
        test(screen.name, async ({ page }, testInfo) => {
          const tag = `${screen.name}-${viewport.width}-r${testInfo.retry}`;
          if (screen.user) await signInAsShotUser(page, screen.user, tag);
          await page.goto(`/#${screen.route}`);
          await expect(
            screen.ready?.(page) ?? page.getByRole('heading', { level: 1, name: screen.heading }),
          ).toBeVisible();
          await screen.prepare?.(page);
          // Web fonts in place, and the sticky top bar at the top of a full-page picture.
          await page.evaluate(async () => {
            await document.fonts.ready;
            window.scrollTo(0, 0);
          });

          // Each run signs up fresh accounts, each with an address of its own.
          const mask = [page.getByText(/@example\.com/), ...(screen.mask?.(page) ?? [])];
          const styles = [...SHOT_STYLES, ...(screen.stylePaths ?? [])];
          if (CAPTURE) {
            await page.screenshot({
              path: path.join(CAPTURE_DIR, `${screen.name}-${viewport.width}-${CAPTURE}.png`),
              fullPage: true,
              animations: 'disabled',
              mask,
              style: styles.map((file) => readFileSync(file, 'utf8')).join('\n'),
            });
          }
          await expect.soft(page).toHaveScreenshot(`${screen.name}-${viewport.width}.png`, {
            fullPage: true,
            animations: 'disabled',
            caret: 'hide',
            timeout: SHOT_TIMEOUT_MS,
            mask,
            stylePath: styles,
            // Runs on this machine match pixel for pixel; the slack covers a few anti-aliased edges.
            // Playwright takes the smaller of the two. Even a 0.02em letter-spacing on headings
            // moves 198 pixels or more.
            maxDiffPixelRatio: 0.001,
            maxDiffPixels: 100,
          });
          expect.soft(await auditScreen(page, { width: viewport.width }), 'the screen audit').toEqual([]);
        });
      });
    }
  });
}
