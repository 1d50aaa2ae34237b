import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { paced } from '../../scripts/test-pace.mjs';
import { expect, seedSession, screenTest as test, USERS, createSession } from '../fixtures';
import type { Session } from '../support/accounts';

/**
 * Settings → Flags & effects: a fan's looks are kept by the account (a reload, a fresh browser),
 * a looks file goes out and comes back, and every control is reached with the keyboard.
 */

async function openLooks(page: Page): Promise<Locator> {
  await page.goto('/#/settings?section=looks');
  const section = page.getByRole('region', { name: 'Flags & effects' });
  await expect(section.getByRole('heading', { name: 'Red flag', exact: true })).toBeVisible();
  return section;
}

const card = (section: Locator, name: string) => section.getByRole('region', { name, exact: true });

/** What the account keeps, read from the API as another browser would. */
async function storedLooks(request: APIRequestContext, session: Session): Promise<unknown> {
  const response = await request.get('/api/me/preferences', {
    headers: { authorization: `Bearer ${session.token}` },
  });
  expect(response.ok()).toBe(true);
  return ((await response.json()) as { preferences: { looks?: unknown } }).preferences.looks;
}

test('red in a chosen blue at 40 % steady and fastest lap left alone are kept across a reload', async ({
  page,
  request,
}) => {
  const session = await createSession(request, USERS.trial);
  await seedSession(page, session);
  const section = await openLooks(page);

  const red = card(section, 'Red flag');
  await red.getByLabel('Red flag: Pick a colour').fill('#1e50ff');
  await red.getByRole('spinbutton', { name: 'Red flag brightness in percent' }).fill('40');
  await red.getByRole('combobox', { name: 'Red flag effect' }).selectOption('steady');
  await red.getByRole('spinbutton', { name: 'Red flag settle brightness in percent' }).fill('40');
  await card(section, 'Fastest lap')
    .getByRole('checkbox', { name: 'Fastest lap: Leave the lights as they are' })
    .check();

  await expect
    .poll(() => storedLooks(request, session), { timeout: paced(10_000) })
    .toMatchObject({
      flags: {
        red: {
          kind: 'show',
          settleBrightness: 40,
          color: { name: 'blue', hue: 227, saturation: 0.88 },
          brightness: 40,
          effect: { kind: 'steady' },
        },
        fastest_lap: { kind: 'leave' },
      },
    });

  // Try plays it now on the on-screen light (no smart lights picked: it says so).
  await red.getByRole('button', { name: 'Try Red flag' }).click();
  await expect(section.getByTestId('looks-screen-preview')).toHaveAttribute(
    'aria-label',
    'On-screen light: blue, 40%',
  );
  await expect(red.getByRole('status')).toContainText('Played on the on-screen light only');

  await page.reload();
  const again = await openLooks(page);
  const redAgain = card(again, 'Red flag');
  await expect(redAgain.getByLabel('Red flag: Pick a colour')).toHaveValue('#1f4fff');
  await expect(redAgain.getByRole('spinbutton', { name: 'Red flag brightness in percent' })).toHaveValue(
    '40',
  );
  await expect(redAgain.getByRole('combobox', { name: 'Red flag effect' })).toHaveValue('steady');
  await expect(
    card(again, 'Fastest lap').getByRole('checkbox', { name: 'Fastest lap: Leave the lights as they are' }),
  ).toBeChecked();
  // The Trackside flags the fan did not touch are as they were.
  await expect(card(again, 'Yellow flag').getByRole('combobox', { name: 'Yellow flag effect' })).toHaveValue(
    'strobe',
  );
});

test('a looks file goes out and comes back; a broken one is refused where it was imported', async ({
  page,
  request,
}, testInfo) => {
  const session = await createSession(request, USERS.trial);
  await seedSession(page, session);
  const section = await openLooks(page);

  await section.getByRole('button', { name: /^Night race/ }).click();
  await expect(section.getByRole('button', { name: /^Night race/ })).toHaveAttribute('aria-pressed', 'true');
  const downloading = page.waitForEvent('download');
  await section.getByRole('button', { name: 'Export looks' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe('flaglight-looks-night-race.json');
  const file = testInfo.outputPath('night-race.json');
  await download.saveAs(file);
  const exported = JSON.parse(readFileSync(file, 'utf8')) as {
    flaglight: string;
    name: string;
    looks: unknown;
  };
  expect(exported).toMatchObject({ flaglight: 'looks', version: 1, name: 'Night race' });

  await section.getByRole('button', { name: 'Reset to Trackside' }).click();
  await expect(section.getByRole('button', { name: /^Trackside/ })).toHaveAttribute('aria-pressed', 'true');
  await expect.poll(() => storedLooks(request, session)).toMatchObject({ brightnessCap: 100 });

  const choosing = page.waitForEvent('filechooser');
  await section.getByRole('button', { name: 'Import looks' }).click();
  await (await choosing).setFiles(file);
  await expect(section.getByRole('status').filter({ hasText: 'Imported "Night race"' })).toBeVisible();
  await expect(section.getByRole('button', { name: /^Night race/ })).toHaveAttribute('aria-pressed', 'true');
  await expect.poll(() => storedLooks(request, session)).toEqual(exported.looks);

  const broken = testInfo.outputPath('broken.json');
  const bad = structuredClone(exported) as { looks: { brightnessCap: number } };
  bad.looks.brightnessCap = 0;
  writeFileSync(broken, JSON.stringify(bad));
  const again = page.waitForEvent('filechooser');
  await section.getByRole('button', { name: 'Import looks' }).click();
  await (await again).setFiles(broken);
  await expect(section.getByRole('alert')).toHaveText(
    'looks.brightnessCap: must be a whole percent from 1 to 100',
  );
  await expect(section.getByRole('button', { name: /^Night race/ })).toHaveAttribute('aria-pressed', 'true');
  expect(path.basename(file)).toBe('night-race.json');
});

test('every control of Flags & effects is reached with the keyboard', async ({ page, request }) => {
  test.setTimeout(paced(60_000));
  const session = await createSession(request, USERS.trial);
  await seedSession(page, session);
  const section = await openLooks(page);
  // A pulse shows its count box too.
  await card(section, 'Green flag')
    .getByRole('combobox', { name: 'Green flag effect' })
    .selectOption('pulse');

  // Each control gets a number; a radio group is one stop (its arrows move within it).
  const expected = await section.evaluate((root) => {
    const controls = Array.from(root.querySelectorAll<HTMLElement>('button, input, select, a[href]')).filter(
      (element) => element.tabIndex >= 0,
    );
    const stops = new Set<string>();
    controls.forEach((element, index) => {
      const radio = element instanceof HTMLInputElement && element.type === 'radio';
      const key = radio ? `radio:${element.name}` : `control:${index}`;
      element.dataset.keyboardStop = key;
      stops.add(key);
    });
    return Array.from(stops);
  });
  expect(expected.length).toBeGreaterThan(60);

  // The section's own heading button is its first stop; Tab goes on from there.
  await page.getByRole('button', { name: 'Flags & effects' }).focus();
  const reached = new Set<string>(['control:0']);
  for (let press = 0; press < expected.length + 40; press += 1) {
    await page.keyboard.press('Tab');
    const stop = await page.evaluate(
      () => (document.activeElement as HTMLElement | null)?.dataset.keyboardStop ?? null,
    );
    if (stop === null && reached.size > 0) break;
    if (stop) reached.add(stop);
  }
  expect(expected.filter((stop) => !reached.has(stop))).toEqual([]);
});

test("No flashing switched in the on-screen light's panel is the same switch as in Flags & effects", async ({
  page,
  request,
}) => {
  const session = await createSession(request, USERS.trial);
  await seedSession(page, session);
  await page.goto('/#/dashboard');
  const panel = page.getByRole('region', { name: 'Light Control' });
  await panel.getByRole('switch', { name: 'No flashing' }).click();
  await expect(panel.getByRole('switch', { name: 'No flashing' })).toBeChecked();
  await expect
    .poll(() => storedLooks(request, session), { timeout: paced(10_000) })
    .toMatchObject({
      noFlashing: true,
      brightnessCap: 100,
    });
  const section = await openLooks(page);
  await expect(section.getByRole('switch', { name: 'No flashing' })).toBeChecked();
  // Only the switch changed: Trackside is still the preset in use otherwise.
  await expect(card(section, 'Red flag').getByRole('combobox', { name: 'Red flag effect' })).toHaveValue(
    'strobe',
  );
});
