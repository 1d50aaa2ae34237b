import { expect, type Locator, type Page } from '@playwright/test';

/** The frame around every screen: top bar and mobile slide-in menu (SPEC §2 Navigation). */
export class AppShell {
  readonly topBar: Locator;
  readonly menuToggle: Locator;
  readonly menu: Locator;

  constructor(readonly page: Page) {
    this.topBar = page.getByRole('navigation', { name: 'Main' });
    this.menuToggle = page.getByRole('button', { name: 'Open menu' });
    this.menu = page.getByRole('dialog', { name: 'Menu' });
  }

  async openMenu(): Promise<void> {
    await this.menuToggle.click();
    await expect(this.menu).toBeVisible();
    // Let the slide-in finish so positions and screenshots are final.
    await this.menu.evaluate((panel) => Promise.all(panel.getAnimations().map((a) => a.finished)));
  }

  async menuLinkNames(): Promise<string[]> {
    return (await this.menu.getByRole('link').allInnerTexts()).map((text) => text.trim());
  }

  async topBarLinkNames(): Promise<string[]> {
    return (await this.topBar.getByRole('link').allInnerTexts()).map((text) => text.trim());
  }

  /** Clicks the dimmed page beside the panel. */
  async closeMenuByBackdrop(): Promise<void> {
    const viewport = this.page.viewportSize();
    if (!viewport) throw new Error('no viewport');
    await this.page.mouse.click(viewport.width - 8, viewport.height / 2);
    await expect(this.menu).toBeHidden();
  }

  async closeMenuByToggle(): Promise<void> {
    await this.menu.getByRole('button', { name: 'Close menu' }).click();
    await expect(this.menu).toBeHidden();
  }
}
