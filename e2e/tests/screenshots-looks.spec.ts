import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { expect, test } from '../fixtures';
import { auditScreen } from '../support/audit';
import { FIXED_NOW, SHOT_STYLES, signInAsShotUser } from '../support/screens';

// Settings → Flags & effects at a phone's and a desktop's size: compared with its committed
// baselines (settings-looks-390.png, settings-looks-1440.png) and audited (overflow, tap targets,
// font size, axe, focus), as the other screens are in screenshots.spec.ts.
// UPDATE_DOCS_PICTURES=1 also renders each preset's flag looks into docs/images/flags-and-effects/.

// axe is injected as an inline script, which the server's CSP rightly forbids to pages.
test.use({ bypassCSP: true });

const DOCS_PICTURES = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../docs/images/flags-and-effects',
);

const WIDTHS = [
  { width: 390, height: 844 },
  { width: 1440, height: 900 },
];

async function openLooks(page: Page, tag: string) {
  await page.clock.setFixedTime(FIXED_NOW);
  await signInAsShotUser(page, 'trial', tag);
  await page.goto('/#/settings?section=looks');
  const section = page.getByRole('region', { name: 'Flags & effects' });
  await expect(section.getByRole('heading', { name: 'Red flag', exact: true })).toBeVisible();
  await page.evaluate(async () => {
    await document.fonts.ready;
    window.scrollTo(0, 0);
  });
  return section;
}

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
      });
      expect.soft(await auditScreen(page, { width: viewport.width }), 'the screen audit').toEqual([]);
    });
  });
}

test.describe('the presets, pictured for the docs', () => {
  test.use({ viewport: { width: 1440, height: 900 }, reducedMotion: 'reduce' });
  test.skip(!process.env.UPDATE_DOCS_PICTURES, 'UPDATE_DOCS_PICTURES=1 renders them');

  test('each preset as its card: its name, a swatch per flag at its brightness, what it is for', async ({
    page,
  }, testInfo) => {
    const section = await openLooks(page, `docs-looks-r${testInfo.retry}`);
    for (const [name, file] of [
      ['Trackside', 'trackside.png'],
      ['Calm', 'calm.png'],
      ['Night race', 'night-race.png'],
    ] as const) {
      // Shown as not chosen, so every card is pictured alike.
      const preset = section.getByRole('button', { name: new RegExp(`^${name}`) });
      await expect(preset).toBeVisible();
      await preset.screenshot({
        path: path.join(DOCS_PICTURES, file),
        animations: 'disabled',
        caret: 'hide',
        style:
          '[aria-pressed] { border-color: var(--color-ink-600) !important; background: var(--color-ink-900) !important; } [aria-pressed] .text-accent { display: none; }',
      });
    }
  });
});
