import { expect, type Page } from '@playwright/test';
import { FIXED_NOW, signInAsShotUser } from './screens';

/** Settings → Flags & effects, signed in as a shot user at a fixed time, fonts loaded, at the top. */
export async function openLooks(page: Page, tag: string) {
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
