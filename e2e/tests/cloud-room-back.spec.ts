import { paced } from '../../scripts/test-pace.mjs';
import { expect, seedSession, test } from '../fixtures';
import { connectCloudLights, hueSimLights, lifxBulbs, LightControlPanel } from '../page-models/light-control';
import { signUpViaApi } from '../support/accounts';
import { goveeLooks, goveeRoom, hueRoom, lifxRoom, savePreferences } from '../support/cloud-room';

/**
 * "As it was" on the cloud lights the browser drives: each virtual light starts in its own look (some
 * off, some dimmed); a test with no session followed gives the LIFX bulbs back after its hold, and a
 * replayed race that ends (its chequered flag) gives every Hue light and Govee device back, each
 * within 5 s.
 */

test.describe('the room given back as it was', () => {
  // CI's one retry (decision 008) runs it again in a new worker, after afterAll ended this one's.
  test.describe.configure({ mode: 'serial' });

  test('a test and a replayed race end with every cloud light back as it was', async ({ page }) => {
    test.setTimeout(paced(90_000));
    for (const sim of ['hue', 'lifx', 'govee']) await page.request.post(`/sims/${sim}/_control/reset`);
    const session = await signUpViaApi(page.request);
    const bulbs = (await lifxBulbs(page.request)).slice(0, 4);
    const hueLights = await hueSimLights(page.request);
    const govee = await goveeLooks(page.request);
    await savePreferences(page.request, session.token, {
      autoConnect: false,
      delay: { enabled: false, seconds: 0 },
      lightFollow: {
        sessions: ['practice', 'qualifying', 'sprint_qualifying', 'sprint', 'race'],
        afterGreen: { action: 'keep', afterSeconds: 60 },
        sessionEnd: 'as-it-was',
      },
      selectedLights: { lifx: bulbs.map((b) => b.id) },
    });
    const before = {
      lifx: await lifxRoom(page.request),
      hue: await hueRoom(page.request),
      govee: await goveeRoom(page.request),
    };
    // Each light its own look: some off, some dimmed.
    for (const room of Object.values(before)) {
      expect(new Set(room).size).toBe(room.length);
      expect(room.some((look) => look.endsWith(': off'))).toBe(true);
    }

    await seedSession(page, session);
    await connectCloudLights(page, { all: true });
    await page.getByRole('navigation').getByRole('link', { name: 'Dashboard' }).first().click();
    const lights = new LightControlPanel(page);
    const race = page.getByRole('region', { name: 'Race Control' });
    await lights.tab('LIFX').click();
    for (const bulb of bulbs) await expect(lights.device(bulb.label)).toBeChecked();

    // A test with no session followed: the bulbs show red, then are given back after its hold.
    await race.getByRole('button', { name: 'Red flag', exact: true }).click();
    await expect
      .poll(async () => (await lifxRoom(page.request)).every((look) => / 0 1\.00 /.test(`${look} `)), {
        timeout: paced(10_000),
      })
      .toBe(true);
    const tested = Date.now();
    await expect.poll(() => lifxRoom(page.request), { timeout: paced(12_000) }).toEqual(before.lifx);
    // Red's effect (1.5 s) and the test's hold (3 s), then back within 5 s.
    expect(Date.now() - tested).toBeLessThan(4_500 + 5_000);

    // Hue (then driven) and Govee beside it follow a replayed race to its chequered flag.
    await lights.panel.getByRole('button', { name: 'Deselect all', exact: true }).click();
    await lights.tab('Philips Hue').click();
    await lights.panel.getByRole('button', { name: 'Select all', exact: true }).click();
    for (const light of hueLights) await expect(lights.device(light.label)).toBeChecked();
    await lights.panel.getByRole('tab', { name: 'Govee' }).click();
    for (const device of govee) await lights.device(device.deviceName).check();

    await race.getByRole('button', { name: 'Watch a replay' }).click();
    const dialog = page.getByRole('dialog', { name: 'Watch a replay' });
    await dialog
      .getByRole('combobox', { name: 'Recording' })
      .selectOption({ label: '2025 Mexico City Grand Prix – Race' });
    await dialog.getByRole('spinbutton', { name: /Speed/ }).fill('10');
    // 141.22: the chequered flag.
    await dialog.getByRole('spinbutton', { name: 'Start at minute' }).fill('141');
    await dialog.getByRole('button', { name: 'Start replay' }).click();
    await expect(race.getByRole('status', { name: 'Connection' })).toHaveText(/Connected · Replay/, {
      timeout: paced(20_000),
    });
    // The session changed the lights (every Hue light is on now)…
    await expect
      .poll(async () => (await hueSimLights(page.request)).every((l) => l.on), { timeout: paced(10_000) })
      .toBe(true);
    await expect(race.getByRole('status', { name: 'Current flag' })).toContainText('CHEQUERED FLAG', {
      timeout: paced(20_000),
    });
    const chequered = Date.now();
    // …and 3.5 s after the chequered flag (its flash) the session is over: each light back within 5 s.
    await expect.poll(() => hueRoom(page.request), { timeout: paced(12_000) }).toEqual(before.hue);
    await expect.poll(() => goveeRoom(page.request), { timeout: paced(12_000) }).toEqual(before.govee);
    expect(Date.now() - chequered).toBeLessThan(3_500 + 5_000);
    await race.getByRole('button', { name: 'Disconnect' }).click();
  });

  test('a reload mid-session: the session followed again and a replay that stopped with the page both give the room back as it was', async ({
    page,
  }) => {
    test.setTimeout(paced(90_000));
    await page.request.post('/sims/lifx/_control/reset');
    const session = await signUpViaApi(page.request);
    const bulbs = (await lifxBulbs(page.request)).slice(0, 4);
    // Auto-connect: the page loaded again reconnects the lights, and on the dashboard the live race.
    await savePreferences(page.request, session.token, {
      autoConnect: true,
      delay: { enabled: false, seconds: 0 },
      lightFollow: {
        sessions: ['practice', 'qualifying', 'sprint_qualifying', 'sprint', 'race'],
        afterGreen: { action: 'keep', afterSeconds: 60 },
        sessionEnd: 'as-it-was',
      },
      selectedLights: { lifx: bulbs.map((b) => b.id) },
    });
    const before = await lifxRoom(page.request);
    const changed = async () => (await lifxRoom(page.request)).every((look, i) => look !== before[i]);
    await seedSession(page, session);
    await connectCloudLights(page, { all: false });
    const nav = page.getByRole('navigation');
    const race = page.getByRole('region', { name: 'Race Control' });
    const connection = race.getByRole('status', { name: 'Connection' });

    // The live race, followed again after a reload: what was read before its first flag is kept.
    await nav.getByRole('link', { name: 'Dashboard' }).first().click();
    await expect(connection).toHaveText(/Connected · Live/, { timeout: paced(20_000) });
    await expect.poll(changed, { timeout: paced(10_000) }).toBe(true);
    await page.reload();
    await expect(connection).toHaveText(/Connected · Live/, { timeout: paced(20_000) });
    await expect.poll(changed, { timeout: paced(10_000) }).toBe(true);
    await race.getByRole('button', { name: 'Disconnect' }).click();
    await expect.poll(() => lifxRoom(page.request), { timeout: paced(10_000) }).toEqual(before);

    // A replay stops with the page: loaded again (on Settings, nothing followed), the lights are given
    // back once they are connected. The fourth bulb, ticked mid-replay, is read before the replay's
    // flag reaches it and given back with the others.
    const lights = new LightControlPanel(page);
    await lights.tab('LIFX').click();
    const ticked = bulbs[3]!;
    await lights.device(ticked.label).uncheck();
    await race.getByRole('button', { name: 'Watch a replay' }).click();
    const dialog = page.getByRole('dialog', { name: 'Watch a replay' });
    await dialog
      .getByRole('combobox', { name: 'Recording' })
      .selectOption({ label: '2025 Mexico City Grand Prix – Race' });
    // Minute 137: green for a while.
    await dialog.getByRole('spinbutton', { name: 'Start at minute' }).fill('137');
    await dialog.getByRole('button', { name: 'Start replay' }).click();
    await expect(connection).toHaveText(/Connected · Replay/, { timeout: paced(20_000) });
    const changedBut = async (last: boolean) =>
      (await lifxRoom(page.request)).every((look, i) => (look !== before[i]) === (i < 3 || last));
    await expect.poll(() => changedBut(false), { timeout: paced(10_000) }).toBe(true);
    await lights.device(ticked.label).check();
    await expect.poll(() => changedBut(true), { timeout: paced(10_000) }).toBe(true);
    await nav.getByRole('link', { name: 'Settings' }).first().click();
    await page.reload();
    await expect.poll(() => lifxRoom(page.request), { timeout: paced(15_000) }).toEqual(before);
  });
});
