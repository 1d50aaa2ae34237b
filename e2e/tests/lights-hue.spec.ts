import { expect, signInAs, test, USERS } from '../fixtures';
import {
  hueSimLights,
  LightControlPanel,
  LightSettings,
  type SimHueLight,
} from '../page-models/light-control';

/** Issue 6, Hue remote: OAuth popup, application key, test pulse, and flags through the server (demo sims). */

const isGreen = (l: SimHueLight | undefined) => l !== undefined && l.on && l.xy.y > 0.5 && l.xy.x < 0.35;
const isRed = (l: SimHueLight | undefined) => l !== undefined && l.on && l.xy.x > 0.6;

test.beforeEach(async ({ request }) => {
  await request.post('/sims/hue/_control/reset');
});

test('connect Hue in a popup, store the key, pulse a light, and drive two lights from the dashboard', async ({
  page,
}) => {
  test.setTimeout(90_000);
  await signInAs(page, USERS.lifetime);
  await page.goto('/#/settings');
  // Demo mode replays a live race: without auto-connect, only the test flags drive the lights here.
  await new LightSettings(page).setAutoConnect(false);
  const section = page.getByRole('region', { name: 'Philips Hue Remote API' });
  await page.getByRole('button', { name: 'Philips Hue Remote API' }).click();

  const popupOpened = page.waitForEvent('popup');
  await section.getByRole('button', { name: 'Connect Philips Hue' }).click();
  const popup = await popupOpened;
  await popup.getByRole('button', { name: 'Allow' }).click();
  await popup.waitForEvent('close');

  await expect(section.getByText(/Philips Hue connected: 4 lights found/)).toBeVisible();
  const createdKey = await section.getByLabel('Your new application key').inputValue();
  expect(createdKey).not.toBe('');
  await section.getByRole('button', { name: 'Store key' }).click();
  await expect(section.getByText('Please enter an application key.')).toBeVisible();
  await section.getByLabel('Application key', { exact: true }).fill(createdKey);
  await section.getByRole('button', { name: 'Store key' }).click();
  await expect(section.getByText('Application key stored.')).toBeVisible();

  const [first] = await hueSimLights(page.request);
  await section.getByRole('button', { name: `Test pulse on ${first!.label}` }).click();
  await expect
    .poll(async () => (await hueSimLights(page.request)).find((l) => l.id === first!.id), { timeout: 5_000 })
    .toMatchObject({ on: true, brightness: 1, durationMs: 1000, xy: { x: 0.3, y: 0.6 } });

  await page.getByRole('navigation').getByRole('link', { name: 'Dashboard' }).first().click();
  const lights = new LightControlPanel(page);
  await lights.tab('Philips Hue').click();
  await expect(lights.list('Philips Hue')).toBeVisible();
  const all = await hueSimLights(page.request);
  const picked = all.slice(1, 3);
  for (const light of picked) await lights.device(light.label).check();
  await expect(lights.panel.getByText('Flags drive your Philips Hue lights and this screen.')).toBeVisible();

  await lights.panel.getByRole('button', { name: 'Test lights' }).click();
  await lights.expectScreenColor('green');
  const pickedNow = async () =>
    (await hueSimLights(page.request)).filter((l) => picked.some((p) => p.id === l.id));
  await expect.poll(async () => (await pickedNow()).every(isGreen), { timeout: 10_000 }).toBe(true);

  // Race Control's test flags go to Hue, the driven provider.
  await page
    .getByRole('region', { name: 'Race Control' })
    .getByRole('button', { name: 'Red flag', exact: true })
    .click();
  await lights.expectScreenColor('red');
  await expect.poll(async () => (await pickedNow()).every(isRed), { timeout: 10_000 }).toBe(true);

  // Disconnect in Settings: the Hue tab then links back to Settings.
  await page.getByRole('navigation').getByRole('link', { name: 'Settings' }).first().click();
  await page.getByRole('button', { name: 'Philips Hue Remote API' }).click();
  await section.getByRole('button', { name: 'Disconnect' }).click();
  await expect(section.getByRole('button', { name: 'Connect Philips Hue' })).toBeVisible();
});

test('denying access shows Hue authorization failed', async ({ page }) => {
  await signInAs(page, USERS.lifetime);
  await page.goto('/#/settings');
  const section = page.getByRole('region', { name: 'Philips Hue Remote API' });
  await page.getByRole('button', { name: 'Philips Hue Remote API' }).click();
  const popupOpened = page.waitForEvent('popup');
  await section.getByRole('button', { name: 'Connect Philips Hue' }).click();
  const popup = await popupOpened;
  await popup.getByRole('button', { name: 'Deny' }).click();
  await popup.waitForEvent('close');
  await expect(section.getByRole('alert')).toContainText(/Hue authorization failed: \S+/);
});
