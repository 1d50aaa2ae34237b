import type { Page } from '@playwright/test';
import { seriousViolations } from './axe';
import { sidewaysOverflow } from './overflow';

/** The smallest tap target on a phone (WCAG 2.5.5, SPEC's 390 px run): 44 × 44 CSS px. */
export const MIN_TAP_TARGET_PX = 44;
/** The smallest computed font size for visible text. */
export const MIN_FONT_SIZE_PX = 12;
/** How many focusables the focus check tabs through. */
const FOCUS_STEPS = 6;

export interface AuditOptions {
  /** The viewport width; tap targets are checked only on the phone (below 768 px). */
  width: number;
}

/**
 * Everything the screen audit finds, one line per problem, grouped by check; empty when the screen
 * passes. Exemptions (WCAG 2.5.8 allows the first): links inside running text (a link whose
 * paragraph, list item or cell holds other text), and an input whose own label is the target
 * (checkboxes and radios count the label around or beside them), and the session timeline's
 * segments, as wide as their share of the session, whose equivalent is "Jump to next flag change"
 * and the replay's start minute (2.5.8's equivalent exception). Tabs through the page, so take
 * screenshots before auditing.
 */
export async function auditScreen(page: Page, { width }: AuditOptions): Promise<string[]> {
  const problems: string[] = [];
  problems.push(...(await sidewaysOverflow(page, width)).map((p) => `overflow: ${p}`));
  problems.push(...(await inPageChecks(page, width < 768)));
  problems.push(...(await seriousViolations(page)).map((p) => `axe: ${p}`));
  problems.push(...(await focusInvisible(page)));
  return problems;
}

function inPageChecks(page: Page, phone: boolean): Promise<string[]> {
  return page.evaluate(
    ({ phone, minTap, minFont }) => {
      const out: string[] = [];
      const describe = (el: Element) => {
        const text = (el.getAttribute('aria-label') ?? el.textContent ?? '').trim().replace(/\s+/g, ' ');
        const id = el.id ? `#${el.id}` : '';
        return `${el.tagName.toLowerCase()}${id} "${text.slice(0, 40)}"`;
      };
      const shown = (el: Element) => {
        const style = getComputedStyle(el);
        if (style.visibility === 'hidden' || style.display === 'none') return false;
        const rect = el.getBoundingClientRect();
        // sr-only text is clipped away on purpose (the skip link until it has focus).
        if (style.clip === 'rect(0px, 0px, 0px, 0px)' || style.clipPath === 'inset(50%)') return false;
        return rect.width > 1 && rect.height > 1 && el.closest('[aria-hidden="true"], [inert]') === null;
      };

      for (const img of Array.from(document.querySelectorAll('img'))) {
        if (!img.hasAttribute('alt')) out.push(`alt: img without alt ${img.src.slice(-60)}`);
      }

      const fonts = new Set<Element>();
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const parent = node.parentElement;
        if (!parent || !node.textContent?.trim() || fonts.has(parent)) continue;
        if (['SCRIPT', 'STYLE', 'NOSCRIPT'].includes(parent.tagName) || !shown(parent)) continue;
        const size = Number.parseFloat(getComputedStyle(parent).fontSize);
        if (size < minFont) {
          fonts.add(parent);
          out.push(`font: ${size}px ${describe(parent)}`);
        }
      }

      if (!phone) return out;
      const interactive = document.querySelectorAll(
        'a[href], button, input:not([type="hidden"]), select, textarea, summary, [role="button"], [role="tab"], [role="link"], [role="checkbox"], [role="switch"], [role="slider"], [role="menuitem"], [role="option"]',
      );
      const TIMELINE_SEGMENT = 'button[data-state][aria-label^="Go to "]';
      const inRunningText = (el: Element) => {
        if (el.tagName !== 'A') return false;
        const block = el.parentElement?.closest('p, li, dd, td, small, label');
        if (!block) return false;
        return (block.textContent ?? '').trim().length > (el.textContent ?? '').trim().length + 3;
      };
      for (const el of Array.from(interactive)) {
        if (!shown(el) || inRunningText(el) || el.matches(TIMELINE_SEGMENT)) continue;
        let rect = el.getBoundingClientRect();
        const input = el as HTMLInputElement;
        if (el.tagName === 'INPUT' && (input.type === 'checkbox' || input.type === 'radio')) {
          const label = input.labels?.[0];
          if (label) {
            const l = label.getBoundingClientRect();
            const left = Math.min(rect.left, l.left);
            const top = Math.min(rect.top, l.top);
            rect = new DOMRect(
              left,
              top,
              Math.max(rect.right, l.right) - left,
              Math.max(rect.bottom, l.bottom) - top,
            );
          }
        }
        if (rect.width < minTap - 0.5 || rect.height < minTap - 0.5) {
          out.push(`tap: ${Math.round(rect.width)}×${Math.round(rect.height)} ${describe(el)}`);
        }
      }
      return out;
    },
    { phone, minTap: MIN_TAP_TARGET_PX, minFont: MIN_FONT_SIZE_PX },
  );
}

/** Tabs to the first few focusables; each must draw an outline or a ring (box-shadow). */
async function focusInvisible(page: Page): Promise<string[]> {
  const out: string[] = [];
  await page.evaluate(() => {
    (document.activeElement as HTMLElement | null)?.blur();
    window.scrollTo(0, 0);
  });
  for (let i = 0; i < FOCUS_STEPS; i += 1) {
    await page.keyboard.press('Tab');
    const result = await page.evaluate(() => {
      const el = document.activeElement;
      if (!el || el === document.body) return null;
      const style = getComputedStyle(el);
      const outline = style.outlineStyle !== 'none' && Number.parseFloat(style.outlineWidth) > 0;
      const ring = style.boxShadow !== 'none' && style.boxShadow !== '';
      const text = (el.getAttribute('aria-label') ?? el.textContent ?? '').trim().slice(0, 40);
      return { visible: outline || ring, name: `${el.tagName.toLowerCase()} "${text}"` };
    });
    if (result === null) break;
    if (!result.visible) out.push(`focus: no visible focus on ${result.name}`);
  }
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  return out;
}
