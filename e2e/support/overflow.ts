import type { Page } from '@playwright/test';

/**
 * The elements that stick out past the right edge of a viewport this wide, at most ten, so a
 * failure says what to fix; empty when nothing pushes the page sideways.
 */
export async function sidewaysOverflow(page: Page, width: number): Promise<string[]> {
  return page.evaluate((width) => {
    if (document.documentElement.scrollWidth <= width) return [];
    return Array.from(document.querySelectorAll('body *'))
      .filter((el) => el.getBoundingClientRect().right > width + 0.5)
      .map((el) => `${el.tagName.toLowerCase()} "${(el.textContent ?? '').trim().slice(0, 40)}"`)
      .slice(0, 10);
  }, width);
}
