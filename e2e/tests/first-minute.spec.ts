import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { paced } from '../../scripts/test-pace.mjs';
import { expect, test } from '../fixtures';
import { LoginPage } from '../page-models/login-page';
import { STRONG_PASSWORD } from '../support/accounts';
import { endProcess, startDemoServer, type DemoServer } from '../support/companion-process';
import { freePort } from '../support/ports';

/**
 * A newcomer's first minute, on a demo server of its own started as `npm start` starts it (the
 * looping demo race, DEMO_RACE unset): sign up, open the dashboard with no light provider, follow
 * the live race with the on-screen light alone, and see the flag change within 60 s; then open a
 * replay, jump to its next flag change and see that flag on the on-screen light.
 */

// Its jump to the next flag change failed on loaded machines, with no trace to read at first (only a
// retry records one, decision 008): this journey keeps the trace of any failed try. The trace of
// one found the cause (a yellow shown for under 2 s, see the replay's speed below).
test.use({ trace: 'retain-on-failure' });

test.describe('the first minute', () => {
  // CI's one retry (decision 008) runs it again in a new worker, after afterAll ended this one's.
  test.describe.configure({ mode: 'serial' });

  let server: DemoServer | null = null;
  let dataDir = '';
  let base = '';

  test.beforeAll(async () => {
    // A port can be taken between the probe and the listen on a busy machine: then the server
    // exits at once (startDemoServer says so, with what it printed) and a second port is tried.
    test.setTimeout(paced(250_000));
    dataDir = mkdtempSync(path.join(tmpdir(), 'flaglight-first-minute-'));
    const why: string[] = [];
    for (let attempt = 0; attempt < 2 && !server; attempt += 1) {
      try {
        // As `npm start` starts it: the looping demo race (DEMO_RACE unset).
        server = await startDemoServer({ port: await freePort(), dataDir, env: { DEMO_RACE: '' } });
      } catch (error) {
        why.push(error instanceof Error ? error.message : String(error));
      }
    }
    if (!server) throw new Error(`the demo server did not start:\n${why.join('\n---\n')}`);
    base = server.base;
  });

  test.afterAll(async () => {
    await endProcess(server?.process ?? null, 'SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('sign up, no smart lights: the on-screen light changes flag within 60 s; a replay jumps to its next flag change', async ({
    browser,
  }) => {
    test.setTimeout(paced(120_000));
    const context = await browser.newContext({ baseURL: base });
    const page = await context.newPage();
    const login = new LoginPage(page);
    await login.open('signup');
    await login.signUp(`newcomer-${Date.now()}@example.com`, STRONG_PASSWORD);
    await page.waitForURL(/#\/dashboard/);

    const raceControl = page.getByRole('region', { name: 'Race Control' });
    // The dashboard says the race is a recording, never pretending it is live.
    await expect(raceControl.getByText('Demo: recorded 2021 Saudi Arabian GP')).toBeVisible();
    const opened = Date.now();

    // No provider is connected; the on-screen light counts as a light, so Connect is not
    // "Setup Required" (auto-connect, on by default, may already have pressed it).
    const lightControl = page.getByRole('region', { name: 'Light Control' });
    await expect(lightControl.getByRole('checkbox', { name: 'Use this screen as a light' })).toBeChecked();
    await expect(raceControl.getByRole('button', { name: 'Setup Required' })).toHaveCount(0);
    const connect = raceControl.getByRole('button', { name: 'Connect', exact: true });
    const disconnect = raceControl.getByRole('button', { name: 'Disconnect' });
    await expect(connect.or(disconnect)).toBeVisible();
    if (await connect.isVisible()) await connect.click();
    // A connect that fails on a busy machine is tried again by auto-connect within 5 s; what the
    // page said is in the error when it never connects.
    await expect(disconnect)
      .toBeVisible({ timeout: paced(15_000) })
      .catch(async (error: Error) => {
        throw new Error(`${error.message}\nRace Control said: ${await raceControl.innerText()}`);
      });

    const light = page.getByTestId('screen-light');
    await expect(light).toHaveAttribute('data-color', 'green');
    await expect(page).toHaveTitle(/Green/);
    // The looping demo joins 27 s before a double yellow; with the default 5 s delay it shows well
    // within a minute of opening the dashboard.
    await expect(light).not.toHaveAttribute('data-color', 'green', { timeout: 60_000 });
    await expect(page).not.toHaveTitle(/Green/, { timeout: paced(5_000) });
    expect(Date.now() - opened).toBeLessThan(60_000);

    // A replay gives the whole session in one picture; "Jump to next flag change" moves it to the
    // race's first yellow (a double yellow 92.5 minutes in), and the screen light follows. That
    // yellow is cleared 18 s later in the recording: at the picker's 10× it showed for under 2 s,
    // which a slow host's checks missed (twice in one run), so this replay plays in real time.
    await raceControl.getByRole('button', { name: 'Watch a replay' }).click();
    const dialog = page.getByRole('dialog', { name: 'Watch a replay' });
    await dialog.getByRole('combobox', { name: 'Recording' }).selectOption({
      label: '2021 Saudi Arabian Grand Prix – Race',
    });
    await dialog.getByRole('spinbutton', { name: /^Speed/ }).fill('1');
    await dialog.getByRole('spinbutton', { name: 'Start at minute' }).fill('0');
    await dialog.getByRole('button', { name: 'Start replay' }).click();
    await expect(raceControl.getByText('Connected · Replay')).toBeVisible();
    const timeline = raceControl.getByRole('region', { name: 'Session timeline' });
    await expect(timeline).toBeVisible();
    await expect(light).toHaveAttribute('data-color', 'green', { timeout: paced(15_000) });
    await timeline.getByRole('button', { name: 'Jump to next flag change' }).click();
    await expect(light).toHaveAttribute('data-color', 'yellow', { timeout: paced(20_000) });
    await expect(page).toHaveTitle(/Yellow/);
    await context.close();
  });
});
