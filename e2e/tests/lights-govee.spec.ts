import { paced } from '../../scripts/test-pace.mjs';
import { expect, signInAs, test, USERS } from '../fixtures';
import { goveeDevices, LightControlPanel, LightSettings } from '../page-models/light-control';

/**
 * Govee's cloud through the server, in demo mode against the Govee simulator: connect
 * with the demo key, pick a light in Light Control, and the test flags land on it as solid colours
 * (Govee's cloud cannot strobe); a wrong key gets a clear message and keeps nothing.
 */
const rgb = (hex: string): number[] => [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16));
const isRed = (hex: string) => {
  const [r, g, b] = rgb(hex);
  return r! > 0x80 && g! < 0x40 && b! < 0x40;
};
const isGreen = (hex: string) => {
  const [r, g, b] = rgb(hex);
  return g! > 0x80 && r! < 0x40 && b! < 0x40;
};

test.beforeEach(async ({ request }) => {
  await request.post('/sims/govee/_control/reset');
});

// The wrong key is refused with a 400, which the browser logs.
test.use({ expectedConsoleErrors: /status of 400/ });

test('connect Govee with an API key, pick a light, and the test flags reach it through the server', async ({
  page,
}) => {
  test.setTimeout(paced(120_000));
  await signInAs(page, USERS.lifetime);
  await page.goto('/#/settings');
  // Demo mode replays a live race: without auto-connect, only the test flags drive the lights here.
  await new LightSettings(page).setAutoConnect(false);
  await page.getByRole('button', { name: 'Govee Cloud' }).click();
  const section = page.getByRole('region', { name: 'Govee Cloud' });

  await section.getByLabel('Govee API key').fill('not-a-real-key');
  await section.getByRole('button', { name: 'Connect Govee' }).click();
  await expect(section.getByRole('alert')).toBeVisible();
  await expect(section.getByText(/Govee connected/)).toBeHidden();

  await section.getByLabel('Govee API key').fill('demo-govee-key');
  await section.getByRole('button', { name: 'Connect Govee' }).click();
  await expect(section.getByText(/Govee connected: \d+ lights found/)).toBeVisible({
    timeout: paced(15_000),
  });

  await page.getByRole('navigation').getByRole('link', { name: 'Dashboard' }).first().click();
  const lights = new LightControlPanel(page);
  await lights.panel.getByRole('tab', { name: 'Govee' }).click();
  const [first, second] = await goveeDevices(page.request);
  await lights.device(first!.deviceName).check();

  const raceControl = page.getByRole('region', { name: 'Race Control' });
  const picked = async () => (await goveeDevices(page.request)).find((d) => d.device === first!.device)!;
  await raceControl.getByRole('button', { name: 'Red flag', exact: true }).click();
  // A strobe on Govee's cloud is its colour, held (the red flag settles on red).
  await expect.poll(async () => isRed((await picked()).hex), { timeout: paced(15_000) }).toBe(true);
  await raceControl.getByRole('button', { name: 'Green flag', exact: true }).click();
  await expect.poll(async () => isGreen((await picked()).hex), { timeout: paced(15_000) }).toBe(true);

  // The light not picked never changed.
  const other = (await goveeDevices(page.request)).find((d) => d.device === second!.device)!;
  expect(isRed(other.hex) || isGreen(other.hex)).toBe(false);
});
