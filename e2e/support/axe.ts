import { createRequire } from 'node:module';
import type { Page } from '@playwright/test';
import { expect, signInAs, type TestUser } from '../fixtures';

const AXE_PATH = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/**
 * Runs axe-core in the page and lists its serious and critical violations, one line each.
 * axe is injected as an inline script: specs using this set `test.use({ bypassCSP: true })`.
 */
export async function seriousViolations(page: Page): Promise<string[]> {
  // Once per document: a page the screens share (decision 052) keeps it across hash changes.
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: AXE_PATH });
  const violations = await page.evaluate(async () => {
    type Run = (
      context: Document,
      options: { resultTypes: string[] },
    ) => Promise<{ violations: AxeViolation[] }>;
    const axe = (window as unknown as { axe: { run: Run } }).axe;
    // Every rule still runs on every node; only the violations are gathered in full (axe-core's
    // `resultTypes`), not each node that passed.
    return (await axe.run(document, { resultTypes: ['violations'] })).violations;
  });
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** A screen for axe: where it is, the heading that says it loaded, and who sees it. */
export interface AxeRoute {
  route: string;
  heading: string | RegExp;
  user?: TestUser;
  /** What the screen does by itself after it loads, awaited before axe reads it. */
  settle?: (page: Page) => Promise<void>;
}

/** Opens the route as its user, waits for its heading and for it to settle, ready for axe. */
export async function openForAxe(page: Page, { route, heading, user, settle }: AxeRoute): Promise<void> {
  if (user) await signInAs(page, user);
  await page.goto(`/#${route}`);
  await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
  await settle?.(page);
}
