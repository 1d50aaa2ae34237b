import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '../fixtures';
import { openLooks } from '../support/looks-screen';

// Renders each preset's card into docs/images/flags-and-effects/ for docs/flags-and-effects.md. Not
// a test of the suite: run it with e2e/docs-pictures.config.ts when the presets or their card change.

test.use({ bypassCSP: true });

const DOCS_PICTURES = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../docs/images/flags-and-effects',
);

test.describe('the presets, pictured for the docs', () => {
  test.use({ viewport: { width: 1440, height: 900 }, reducedMotion: 'reduce' });

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
