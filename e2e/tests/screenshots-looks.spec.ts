import { paced } from '../../scripts/test-pace.mjs';
import { expect, screenTest as test } from '../fixtures';
import { auditScreen } from '../support/audit';
import { openLooks } from '../support/looks-screen';
import { SHOT_STYLES, SHOT_TIMEOUT_MS } from '../support/screens';

// Settings → Flags & effects at a phone's and a desktop's size: compared with its committed
// baselines (settings-looks-390.png, settings-looks-1440.png) and audited (overflow, tap targets,
// font size, axe, focus), as the other screens are in screenshots.spec.ts.
// The docs' pictures of each preset are made apart: e2e/docs-pictures/ (docs/flags-and-effects.md).

// axe is injected as an inline script, which the server's CSP rightly forbids to pages.
test.use({ bypassCSP: true });
// A tall full-page picture, then the audit: as long as screenshots.spec.ts gives each screen.
test.describe.configure({ timeout: paced(60_000) });

const WIDTHS = [
  { width: 390, height: 844 },
  { width: 1440, height: 900 },
];

for (const viewport of WIDTHS) {
  test.describe(`Flags & effects at ${viewport.width} px`, () => {
    test.use({ viewport, reducedMotion: 'reduce' });

    test('settings-looks', async ({ page }, testInfo) => {
      await openLooks(page, `settings-looks-${viewport.width}-r${testInfo.retry}`);
      await expect.soft(page).toHaveScreenshot(`settings-looks-${viewport.width}.png`, {
        fullPage: true,
        animations: 'disabled',
        caret: 'hide',
        mask: [page.getByText(/@example\.com/), page.getByTestId('looks-screen-preview')],
        stylePath: SHOT_STYLES,
        maxDiffPixelRatio: 0.001,
        maxDiffPixels: 100,
        timeout: SHOT_TIMEOUT_MS,
      });
      expect.soft(await auditScreen(page, { width: viewport.width }), 'the screen audit').toEqual([]);
    });
  });
}
