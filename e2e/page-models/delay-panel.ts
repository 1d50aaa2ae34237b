import { expect, type Locator, type Page } from '@playwright/test';

/** The dashboard's Broadcast Delay panel (SPEC §2) and its reduce confirmation (SPEC §4). */
export class DelayPanel {
  readonly panel: Locator;
  readonly input: Locator;
  readonly slider: Locator;
  readonly toggle: Locator;
  readonly confirmation: Locator;

  constructor(readonly page: Page) {
    this.panel = page.getByRole('region', { name: 'Broadcast Delay' });
    this.input = this.panel.getByRole('spinbutton', { name: 'Exact delay (seconds)' });
    this.slider = this.panel.getByRole('slider');
    this.toggle = this.panel.getByRole('switch', { name: 'Enable delay' });
    this.confirmation = page.getByRole('alertdialog', { name: 'Reduce Broadcast Delay?' });
  }

  preset(name: 'Cable/Satellite' | 'Streaming Service' | 'F1 TV'): Locator {
    return this.panel.getByRole('button', { name: new RegExp(`^${name.replace('/', '\\/')}`) });
  }

  async expectDelay(seconds: number): Promise<void> {
    await expect(this.input).toHaveValue(String(seconds));
    await expect(this.slider).toHaveAttribute('aria-valuenow', String(Math.min(seconds, 60)));
  }

  async typeDelay(seconds: number): Promise<void> {
    await this.input.fill(String(seconds));
    await this.input.press('Enter');
  }

  /** The delay stored for the signed-in user (`settings_<email>`), as the next page load reads it (SPEC §3). */
  async storedDelay(): Promise<unknown> {
    return this.page.evaluate(() => {
      const email = window.localStorage.getItem('current_user_id');
      const raw = window.localStorage.getItem(`settings_${email}`) ?? '{}';
      return (JSON.parse(raw) as { delaySeconds?: unknown }).delaySeconds;
    });
  }
}
