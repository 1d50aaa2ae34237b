import { paced } from '../../scripts/test-pace.mjs';
import { expect, seedSession, test } from '../fixtures';
import { connectCloudLights, lifxBulbs, LightControlPanel } from '../page-models/light-control';
import { signUpViaApi } from '../support/accounts';
import { savePreferences } from '../support/cloud-room';

/**
 * "Afterwards" (Settings → Flags & effects) on the cloud lights the browser drives: with "when green
 * has held 5 s: dim" the virtual LIFX bulbs are dimmed green once a replayed race's green has held,
 * and with "when the session ends: turn off" they are off after its chequered flag.
 */

/** The shortest "when green has held" the settings allow (AFTER_GREEN_MIN_SECONDS). */
const GREEN_HELD_S = 5;

test('green held dims the LIFX bulbs; the session’s end turns them off', async ({ page }) => {
  test.setTimeout(paced(60_000));
  await page.request.post('/sims/lifx/_control/reset');
  const session = await signUpViaApi(page.request);
  const bulbs = (await lifxBulbs(page.request)).slice(0, 4);
  await savePreferences(page.request, session.token, {
    autoConnect: false,
    delay: { enabled: false, seconds: 0 },
    lightFollow: {
      sessions: ['practice', 'qualifying', 'sprint_qualifying', 'sprint', 'race'],
      afterGreen: { action: 'dim', afterSeconds: GREEN_HELD_S },
      sessionEnd: 'off',
    },
    selectedLights: { lifx: bulbs.map((b) => b.id) },
  });
  await seedSession(page, session);
  await connectCloudLights(page, { all: false });
  await page.getByRole('navigation').getByRole('link', { name: 'Dashboard' }).first().click();
  const lights = new LightControlPanel(page);
  await lights.tab('LIFX').click();
  for (const bulb of bulbs) await expect(lights.device(bulb.label)).toBeChecked();

  const race = page.getByRole('region', { name: 'Race Control' });
  const replay = async (minute: number, speed: number) => {
    await race.getByRole('button', { name: 'Watch a replay' }).click();
    const dialog = page.getByRole('dialog', { name: 'Watch a replay' });
    await dialog
      .getByRole('combobox', { name: 'Recording' })
      .selectOption({ label: '2025 Mexico City Grand Prix – Race' });
    await dialog.getByRole('spinbutton', { name: /Speed/ }).fill(String(speed));
    await dialog.getByRole('spinbutton', { name: 'Start at minute' }).fill(String(minute));
    await dialog.getByRole('button', { name: 'Start replay' }).click();
    await expect(race.getByRole('status', { name: 'Connection' })).toHaveText(/Connected · Replay/, {
      timeout: paced(20_000),
    });
  };
  const ours = async () => {
    const ids = new Set(bulbs.map((b) => b.id));
    return (await lifxBulbs(page.request)).filter((b) => ids.has(b.id));
  };
  const isGreen = (b: { power: string; hue: number; saturation: number }) =>
    b.power === 'on' && Math.abs(b.hue - 120) < 5 && b.saturation > 0.5;

  // Minute 137: green (blue flags only) until a double yellow at 138.23, 37 s away at 2× (at 5× it
  // was 15 s away, and on a loaded machine the yellow came before the green had held 5 s).
  await replay(137, 2);
  await expect.poll(async () => (await ours()).every(isGreen), { timeout: paced(10_000) }).toBe(true);
  const green = Date.now();
  await expect
    .poll(async () => (await ours()).map((b) => isGreen(b) && b.brightness <= 0.1 + 1e-6), {
      timeout: paced(12_000),
    })
    .toEqual(bulbs.map(() => true));
  // Dimmed once green had held, not before.
  expect(Date.now() - green).toBeGreaterThanOrEqual((GREEN_HELD_S - 1) * 1000);

  // The same race from minute 141 at 10×: its chequered flag (141.22) ends the session, lights off.
  await replay(141, 10);
  await expect(race.getByRole('status', { name: 'Current flag' })).toContainText('CHEQUERED FLAG', {
    timeout: paced(20_000),
  });
  const chequered = Date.now();
  await expect
    .poll(async () => (await ours()).map((b) => `${b.label}: ${b.power}`), { timeout: paced(12_000) })
    .toEqual(bulbs.map((b) => `${b.label}: off`));
  // 3.5 s after the chequered flag (its flash), then off within 5 s.
  expect(Date.now() - chequered).toBeLessThan(3_500 + 5_000);
  await race.getByRole('button', { name: 'Disconnect' }).click();
});
