import { expect, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { paced } from '../../scripts/test-pace.mjs';

/** The dashboard's Light Control panel (SPEC §2) with its on-screen light. */
export class LightControlPanel {
  readonly panel: Locator;
  readonly screenLight: Locator;

  constructor(readonly page: Page) {
    this.panel = page.getByRole('region', { name: 'Light Control' });
    this.screenLight = this.panel.getByTestId('screen-light');
  }

  tab(name: 'LIFX' | 'Philips Hue'): Locator {
    return this.panel.getByRole('tab', { name });
  }

  list(provider: 'LIFX' | 'Philips Hue'): Locator {
    return this.panel.getByRole('list', { name: `${provider} lights` });
  }

  device(label: string): Locator {
    return this.panel.getByRole('checkbox', { name: new RegExp(`^${label}\\b`) });
  }

  async expectScreenColor(name: string): Promise<void> {
    await expect(this.screenLight).toHaveAttribute('data-color', name);
  }
}

/** The Settings page's light sections (SPEC §2 Settings 1-3). */
export class LightSettings {
  readonly tokenInput: Locator;
  readonly connect: Locator;

  constructor(readonly page: Page) {
    this.tokenInput = page.getByLabel('LIFX API token');
    this.connect = page.getByRole('button', { name: 'Connect', exact: true });
  }

  /** Settings 3: auto-connect (on by default). Off keeps Race Control from joining the demo's live replay. */
  async setAutoConnect(on: boolean): Promise<void> {
    const toggle = this.page.getByRole('switch', { name: 'Auto-connect on startup' });
    if (!(await toggle.isVisible())) await this.page.getByRole('button', { name: 'App Preferences' }).click();
    if ((await toggle.getAttribute('aria-checked')) !== String(on)) await toggle.click();
    await expect(toggle).toHaveAttribute('aria-checked', String(on));
  }

  async connectLifx(token: string): Promise<void> {
    await this.tokenInput.fill(token);
    await this.connect.click();
  }
}

export interface SimBulb {
  id: string;
  label: string;
  power: 'on' | 'off';
  /** Degrees, 0-360. */
  hue: number;
  /** 0-1. */
  saturation: number;
  brightness: number;
}

/** The LIFX simulator's bulbs as its control route reports them (demo mode, same origin), colour flattened. */
export async function lifxBulbs(request: APIRequestContext): Promise<SimBulb[]> {
  const response = await request.get('/sims/lifx/_control/bulbs');
  const { bulbs } = (await response.json()) as {
    bulbs: (Omit<SimBulb, 'hue' | 'saturation'> & { color: { hue: number; saturation: number } })[];
  };
  return bulbs.map(({ id, label, power, brightness, color }) => ({
    id,
    label,
    power,
    brightness,
    hue: color.hue,
    saturation: color.saturation,
  }));
}

export interface SimHueLight {
  id: string;
  label: string;
  on: boolean;
  /** 0-1. */
  brightness: number;
  xy: { x: number; y: number };
  durationMs: number;
}

/** The Hue simulator's lights (demo mode, same origin). */
export async function hueSimLights(request: APIRequestContext): Promise<SimHueLight[]> {
  const response = await request.get('/sims/hue/_control/lights');
  return ((await response.json()) as { lights: SimHueLight[] }).lights;
}

export interface SimGoveeDevice {
  device: string;
  deviceName: string;
  on: boolean;
  hex: string;
}

/** The Govee cloud simulator's devices (demo mode, same origin). */
export async function goveeDevices(request: APIRequestContext): Promise<SimGoveeDevice[]> {
  const response = await request.get('/sims/govee/_control/devices');
  expect(response.ok()).toBe(true);
  return ((await response.json()) as { devices: SimGoveeDevice[] }).devices;
}

/**
 * Connects the demo's cloud lights in Settings: LIFX with its token (kept in this browser), and with
 * `all`, Philips Hue through the OAuth popup and its stored key, and Govee with its key (both kept
 * on the server). Auto-connect stays as it is: it is what reconnects them after a reload.
 */
export async function connectCloudLights(page: Page, options: { all: boolean }): Promise<void> {
  await page.goto('/#/settings');
  await new LightSettings(page).connectLifx('demo-token');
  await expect(page.getByText(/LIFX connected: \d+ lights/)).toBeVisible();
  if (!options.all) return;
  await page.getByRole('button', { name: 'Philips Hue Remote API' }).click();
  const hue = page.getByRole('region', { name: 'Philips Hue Remote API' });
  const popupOpened = page.waitForEvent('popup');
  await hue.getByRole('button', { name: 'Connect Philips Hue' }).click();
  const popup = await popupOpened;
  await popup.getByRole('button', { name: 'Allow' }).click();
  await expect.poll(() => popup.isClosed()).toBe(true);
  const key = await hue.getByLabel('Your new application key').inputValue();
  await hue.getByLabel('Application key', { exact: true }).fill(key);
  await hue.getByRole('button', { name: 'Store key' }).click();
  await expect(hue.getByText('Application key stored.')).toBeVisible();
  await page.getByRole('button', { name: 'Govee Cloud' }).click();
  const govee = page.getByRole('region', { name: 'Govee Cloud' });
  await govee.getByLabel('Govee API key').fill('demo-govee-key');
  await govee.getByRole('button', { name: 'Connect Govee' }).click();
  await expect(govee.getByText(/Govee connected: \d+ lights found/)).toBeVisible({ timeout: paced(15_000) });
}
