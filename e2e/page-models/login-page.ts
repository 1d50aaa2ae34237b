import { expect, type Locator, type Page } from '@playwright/test';

/** The sign in / sign up screen (SPEC §2 Login) with the demo bot check. */
export class LoginPage {
  readonly email: Locator;
  readonly password: Locator;
  readonly humanCheck: Locator;
  readonly error: Locator;

  constructor(readonly page: Page) {
    this.email = page.getByLabel('Email', { exact: true });
    this.password = page.getByLabel('Password', { exact: true });
    this.humanCheck = page.getByRole('checkbox', { name: 'Verify you are human' });
    this.error = page.getByRole('alert');
  }

  async open(mode: 'signin' | 'signup' = 'signin'): Promise<void> {
    await this.page.goto(mode === 'signup' ? '/#/login?mode=signup' : '/#/login');
    await expect(
      this.page.getByRole('heading', { level: 1, name: mode === 'signup' ? 'Sign Up' : 'Sign In' }),
    ).toBeVisible();
  }

  async verifyHuman(): Promise<void> {
    await this.humanCheck.check();
    await expect(this.humanCheck).toBeChecked();
    await expect(this.humanCheck).toBeEnabled();
  }

  async fill(email: string, password: string): Promise<void> {
    await this.email.fill(email);
    await this.password.fill(password);
  }

  async signUp(email: string, password: string): Promise<void> {
    await this.fill(email, password);
    await this.verifyHuman();
    await this.page.getByRole('button', { name: 'Create Account' }).click();
  }

  async signIn(email: string, password: string): Promise<void> {
    await this.fill(email, password);
    if (!(await this.humanCheck.isChecked())) await this.verifyHuman();
    // A checked box fetches a fresh token after a failed try; wait until it is usable again.
    await expect(this.humanCheck).toBeEnabled();
    await this.page.getByRole('button', { name: 'Sign In', exact: true }).click();
  }
}
