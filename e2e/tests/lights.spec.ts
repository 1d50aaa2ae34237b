import { paced } from '../../scripts/test-pace.mjs';
import { expect, signInAs, test, USERS } from '../fixtures';
import { LightControlPanel, LightSettings, lifxBulbs, type SimBulb } from '../page-models/light-control';

/** Real lights obey from the browser (demo mode: the LIFX simulator on the app's origin). */

const FAN = USERS.lifetime;
const PICKED = ['Lamp', 'Ceiling'];

/** The look each test flag settles on: hue in degrees and saturation (SPEC §4 Light effects). */
const FLAGS = [
  { button: 'Green flag', screen: 'green', hue: 120, saturation: 1 },
  { button: 'Red flag', screen: 'red', hue: 0, saturation: 1 },
  { button: 'Yellow flag', screen: 'yellow', hue: 60, saturation: 1 },
  { button: 'Chequered flag', screen: 'white', hue: 0, saturation: 0 },
  { button: 'Safety car', screen: 'yellow', hue: 60, saturation: 1 },
  { button: 'Virtual safety car', screen: 'orange', hue: 30, saturation: 1 },
  { button: 'VSC ending', screen: 'orange', hue: 30, saturation: 1 },
] as const;

const close = (a: number, b: number) => Math.abs(a - b) < 2;
const looksLike = (bulb: SimBulb | undefined, hue: number, saturation: number) =>
  bulb !== undefined &&
  bulb.power === 'on' &&
  close(bulb.hue, hue) &&
  Math.abs(bulb.saturation - saturation) < 0.02;

test.beforeEach(async ({ request }) => {
  await request.post('/sims/lifx/_control/reset');
});

test('connect LIFX in Settings, pick two bulbs, and every test flag drives them and the screen', async ({
  page,
}) => {
  test.setTimeout(paced(120_000));
  await signInAs(page, FAN);
  await page.goto('/#/settings');
  const settings = new LightSettings(page);
  // Demo mode replays a live race: without auto-connect, only the test flags drive the lights here.
  await settings.setAutoConnect(false);
  await expect(settings.connect).toBeDisabled();
  await settings.connectLifx('demo-token');
  await expect(page.getByText(/LIFX connected: 12 lights found, 12 online/)).toBeVisible();

  // A route change keeps the connection (the provider sits above the routes).
  await page.getByRole('navigation').getByRole('link', { name: 'Dashboard' }).first().click();
  const lights = new LightControlPanel(page);
  await expect(lights.list('LIFX')).toBeVisible();
  await expect(lights.panel.getByRole('searchbox', { name: 'Search LIFX lights' })).toBeVisible();
  for (const label of PICKED) await lights.device(label).check();
  await expect(lights.panel.getByText('2 of 12 selected')).toBeVisible();

  const ids = (await lifxBulbs(page.request)).filter((b) => PICKED.includes(b.label)).map((b) => b.id);
  expect(ids).toHaveLength(2);
  const picked = async () => (await lifxBulbs(page.request)).filter((b) => ids.includes(b.id));
  const others = async () => (await lifxBulbs(page.request)).filter((b) => !ids.includes(b.id));

  // The bulbs not picked, each in its own start look (some off, some dimmed): never changed.
  const othersBefore = await others();
  const raceControl = page.getByRole('region', { name: 'Race Control' });
  for (const flag of FLAGS) {
    await raceControl.getByRole('button', { name: flag.button, exact: true }).click();
    await lights.expectScreenColor(flag.screen);
    await expect
      .poll(async () => (await picked()).every((b) => looksLike(b, flag.hue, flag.saturation)), {
        message: `${flag.button}: both bulbs show hue ${flag.hue}, saturation ${flag.saturation}`,
        timeout: paced(10_000),
      })
      .toBe(true);
  }

  // Fastest lap: purple. These are tests with no race followed, so there is no race look to go
  // back to after them (during a race they give the room back: test-flags.spec.ts).
  await raceControl.getByRole('button', { name: 'Fastest lap', exact: true }).click();
  await expect
    .poll(async () => (await picked()).every((b) => looksLike(b, 280, 1)), { timeout: paced(5_000) })
    .toBe(true);
  await lights.expectScreenColor('purple');

  expect(await others()).toEqual(othersBefore);
});

test('the Light Control test button, and auto-connect after a reload', async ({ page }) => {
  await signInAs(page, FAN);
  await page.goto('/#/settings');
  await new LightSettings(page).connectLifx('demo-token');
  await expect(page.getByText(/LIFX connected: 12 lights found/)).toBeVisible();

  // Auto-connect is on by default: after a reload the saved token reconnects without a click.
  await page.reload();
  await expect(page.getByText(/LIFX connected: 12 lights found/)).toBeVisible();
  await new LightSettings(page).setAutoConnect(false);

  await page.getByRole('navigation').getByRole('link', { name: 'Dashboard' }).first().click();
  const lights = new LightControlPanel(page);
  await expect(lights.list('LIFX')).toBeVisible();
  await lights.device('Desk').check();
  await lights.panel.getByRole('button', { name: 'Test lights' }).click();
  await lights.expectScreenColor('green');
  await expect
    .poll(
      async () =>
        looksLike(
          (await lifxBulbs(page.request)).find((b) => b.label === 'Desk'),
          120,
          1,
        ),
      {
        timeout: paced(10_000),
      },
    )
    .toBe(true);

  // The Hue tab without a connection sends the user to Settings.
  await lights.tab('Philips Hue').click();
  await lights.panel.getByRole('link', { name: 'Connect Philips Hue in Settings' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();

  // Disconnect forgets the token: after a reload LIFX stays disconnected.
  await page.getByRole('button', { name: 'Disconnect' }).click();
  await expect(page.getByLabel('LIFX API token')).toHaveValue('');
  await page.reload();
  await expect(page.getByLabel('LIFX API token')).toHaveValue('');
  await expect(page.getByRole('button', { name: 'Connect', exact: true })).toBeDisabled();
});

test('a bulb ticked during a race takes up the flag showing at once, not at the next change', async ({
  page,
}) => {
  test.setTimeout(paced(60_000));
  await signInAs(page, FAN);
  await page.goto('/#/settings');
  await new LightSettings(page).connectLifx('demo-token');
  await expect(page.getByText(/LIFX connected: 12 lights found/)).toBeVisible();
  await page.getByRole('navigation').getByRole('link', { name: 'Dashboard' }).first().click();
  const lights = new LightControlPanel(page);
  await lights.device('Desk').check();
  // Auto-connect (on by default) follows the demo race; Desk shows its flag.
  const raceControl = page.getByRole('region', { name: 'Race Control' });
  await expect(raceControl.getByRole('button', { name: 'Disconnect' })).toBeVisible();
  const bulb = async (label: string) => (await lifxBulbs(page.request)).find((b) => b.label === label);
  await expect.poll(async () => !looksLike(await bulb('Desk'), 0, 0), { timeout: paced(10_000) }).toBe(true);
  // Lamp is still the simulator's start look (white at 80 %) until it is ticked mid-race.
  expect(looksLike(await bulb('Lamp'), 0, 0)).toBe(true);

  await lights.device('Lamp').check();
  await expect
    .poll(
      async () => {
        const [desk, lamp] = [await bulb('Desk'), await bulb('Lamp')];
        return (
          desk !== undefined &&
          looksLike(lamp, desk.hue, desk.saturation) &&
          Math.abs((lamp?.brightness ?? -1) - desk.brightness) < 0.02
        );
      },
      { message: 'Lamp shows what Desk shows', timeout: paced(8_000) },
    )
    .toBe(true);
});

test.describe('a wrong token', () => {
  // The simulator answers 401, which the browser logs as a failed resource.
  test.use({ expectedConsoleErrors: /401/ });

  test('shows the Connection Error with SPEC §8 text', async ({ page }) => {
    await signInAs(page, FAN);
    await page.goto('/#/settings');
    await new LightSettings(page).connectLifx('not-the-demo-token');
    const box = page.getByRole('alert').filter({ hasText: 'Connection Error' });
    await expect(box).toContainText('Invalid LIFX API token');
  });
});

test.describe('when LIFX misbehaves', () => {
  // The 429 and 401 answers below are provoked on purpose.
  test.use({ expectedConsoleErrors: /status of (429|401)/ });

  test('a 429 storm only delays a flag; a token revoked mid-session says so and reconnects without a reload', async ({
    page,
  }) => {
    test.setTimeout(paced(90_000));
    await signInAs(page, FAN);
    await page.goto('/#/settings');
    const settings = new LightSettings(page);
    await settings.setAutoConnect(false);
    await settings.connectLifx('demo-token');
    await expect(page.getByText(/LIFX connected: 12 lights found/)).toBeVisible();
    await page.getByRole('navigation').getByRole('link', { name: 'Dashboard' }).first().click();
    const lights = new LightControlPanel(page);
    await lights.device('Desk').check();
    const desk = async () => (await lifxBulbs(page.request)).find((b) => b.label === 'Desk');
    const raceControl = page.getByRole('region', { name: 'Race Control' });

    // LIFX refuses twice with 429: the driver backs off (2 s, 4 s) and the flag still lands.
    await page.request.post('/sims/lifx/_control/fail', { data: { status: 429, times: 2 } });
    await raceControl.getByRole('button', { name: 'Red flag', exact: true }).click();
    await lights.expectScreenColor('red');
    await expect.poll(async () => looksLike(await desk(), 0, 1), { timeout: paced(20_000) }).toBe(true);
    const log = (await (await page.request.get('/sims/lifx/_control/requests')).json()) as {
      requests: { status: number }[];
    };
    expect(log.requests.filter((r) => r.status === 429)).toHaveLength(2);

    // The token is deleted at cloud.lifx.com: the next flag says so and LIFX is disconnected.
    await page.request.post('/sims/lifx/_control/revoke-token', { data: { token: 'demo-token' } });
    await raceControl.getByRole('button', { name: 'Green flag', exact: true }).click();
    await expect(lights.panel.getByRole('alert').filter({ hasText: 'Connection Error' })).toContainText(
      'Invalid LIFX API token',
    );
    await expect(lights.list('LIFX')).toHaveCount(0);

    // A new token (the simulator takes demo-token again) in Settings, no reload: Desk is still picked.
    await page.request.post('/sims/lifx/_control/reset');
    await lights.panel
      .getByRole('link', { name: /settings/i })
      .first()
      .click();
    await settings.connectLifx('demo-token');
    await expect(page.getByText(/LIFX connected: 12 lights found/)).toBeVisible();
    await page.getByRole('navigation').getByRole('link', { name: 'Dashboard' }).first().click();
    await expect(lights.device('Desk')).toBeChecked();
    await raceControl.getByRole('button', { name: 'Green flag', exact: true }).click();
    await expect.poll(async () => looksLike(await desk(), 120, 1), { timeout: paced(10_000) }).toBe(true);
  });
});
