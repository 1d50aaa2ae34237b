import type { APIRequestContext } from '@playwright/test';
import { paced } from '../../scripts/test-pace.mjs';
import { expect, seedSession, signInAs, screenTest as test, USERS } from '../fixtures';
import { DelayPanel } from '../page-models/delay-panel';

/**
 * A room's own delay: a bedroom TV on a streaming service runs behind the living room's cable. The
 * fan links a companion (the test plays it over HTTP), sets its extra delay in Settings → Devices,
 * and the account's preferences carry it for that companion, which adds it to the broadcast delay.
 */

const GRANT_TYPE = 'urn:ietf:params:oauth:grant-type:device_code';

/** Links a companion named `name` to the account of `token` through the device flow (RFC 8628). */
async function linkCompanion(request: APIRequestContext, token: string, name: string) {
  const code = await request.post('/api/device/code', {
    data: { name, platform: 'linux-x64', version: '1.0.0' },
  });
  expect(code.status()).toBe(200);
  const { device_code: deviceCode, user_code: userCode } = (await code.json()) as {
    device_code: string;
    user_code: string;
  };
  const approved = await request.post('/api/device/approve', {
    data: { code: userCode },
    headers: { authorization: `Bearer ${token}` },
  });
  expect(approved.status()).toBe(200);
  const granted = await request.post('/api/device/token', {
    data: { grant_type: GRANT_TYPE, device_code: deviceCode },
  });
  expect(granted.status()).toBe(200);
  return ((await granted.json()) as { device: { id: string } }).device;
}

test('a room set to +2.5 s is stored for that companion in the account preferences', async ({
  page,
  request,
}) => {
  const session = await signInAs(page, USERS.lifetime);
  const device = await linkCompanion(request, session.token, 'E2E Bedroom PC');

  // A phone: the controls stay large enough to tap.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/#/settings?section=devices');
  const item = page.getByRole('listitem', { name: 'E2E Bedroom PC' });
  const room = item.getByRole('form', { name: "This room's extra delay" });
  await expect(room.getByText('This room: 5 s = 5 s broadcast delay + 0 s')).toBeVisible();
  for (const name of [/More extra delay/, /Less extra delay/, /^Save room delay$/]) {
    const box = await room.getByRole('button', { name }).boundingBox();
    expect(box?.height ?? 0).toBeGreaterThanOrEqual(44);
    expect(box?.width ?? 0).toBeGreaterThanOrEqual(44);
  }

  // By keyboard: +2 s a page at a time, then five steps of 0.1 s.
  const slider = room.getByRole('slider', { name: "This room's extra delay" });
  await slider.focus();
  await page.keyboard.press('PageUp');
  await page.keyboard.press('PageUp');
  for (let i = 0; i < 5; i += 1) await page.keyboard.press('ArrowRight');
  await expect(room.getByTestId('room-offset-value')).toHaveText('+2.5 s');
  await expect(room.getByText('This room: 7.5 s = 5 s broadcast delay + 2.5 s')).toBeVisible();
  await room.getByRole('button', { name: 'Save room delay' }).click();
  await expect(room.getByRole('status')).toHaveText('Saved: +2.5 s for E2E Bedroom PC.');

  const stored = await request.get('/api/me/preferences', {
    headers: { authorization: `Bearer ${session.token}` },
  });
  expect(stored.status()).toBe(200);
  const { preferences } = (await stored.json()) as {
    preferences: { delayOffsetsMs: Record<string, number> };
  };
  expect(preferences.delayOffsetsMs).toEqual({ [device.id]: 2500 });

  // After a reload the room shows what was saved.
  await page.reload();
  await expect(
    page
      .getByRole('listitem', { name: 'E2E Bedroom PC' })
      .getByText('This room: 7.5 s = 5 s broadcast delay + 2.5 s'),
  ).toBeVisible();
});

test('a calibration takes off the broadcast delay the account has now, though another browser changed it while Settings was open', async ({
  page,
  browser,
  request,
}) => {
  const session = await signInAs(page, USERS.lifetime);
  const device = await linkCompanion(request, session.token, 'E2E Den PC');

  // Browser B sets the account's delay to the Streaming Service preset (20 s).
  const other = await browser.newContext();
  const browserB = await other.newPage();
  await seedSession(browserB, session);
  await browserB.goto('/#/dashboard');
  const delayB = new DelayPanel(browserB);
  await delayB.preset('Streaming Service').click();
  await delayB.expectDelay(20);

  // A followed the race from the dashboard (auto-connect, the screen as its light), then opened
  // Settings → Devices: the live connection stays, and with it the account's pushed changes.
  await page.goto('/#/dashboard');
  const raceControl = page.getByRole('region', { name: 'Race Control' });
  await expect(raceControl.getByRole('status', { name: 'Connection' })).toHaveText(/Connected · Live/, {
    timeout: paced(15_000),
  });
  await page.getByRole('link', { name: 'Settings' }).first().click();
  await page.getByRole('button', { name: 'Devices' }).click();
  const room = page
    .getByRole('listitem', { name: 'E2E Den PC' })
    .getByRole('form', { name: "This room's extra delay" });
  await expect(room.getByText('This room: 20 s = 20 s broadcast delay + 0 s')).toBeVisible();

  // Browser B lowers the delay to 5 s while A stays open.
  await delayB.preset('Cable/Satellite').click();
  await delayB.confirmation.getByRole('button', { name: 'Yes, Reduce Delay' }).click();
  await delayB.expectDelay(5);
  // B's change reaches the account (its sync writes it a moment later).
  await expect
    .poll(async () => {
      const current = await request.get('/api/me/preferences', {
        headers: { authorization: `Bearer ${session.token}` },
      });
      return ((await current.json()) as { preferences: { delay: { seconds: number } } }).preferences.delay
        .seconds;
    })
    .toBe(5);
  await other.close();

  // A hears of it, and its calibration of 12.1 s saves 12.1 − 5 = +7.1 s (before: 12.1 − 20, refused).
  await expect(room.getByText('This room: 5 s = 5 s broadcast delay + 0 s')).toBeVisible({
    timeout: paced(10_000),
  });
  await page.clock.setFixedTime(new Date('2026-03-08T04:00:00Z'));
  await room.getByRole('button', { name: 'Calibrate this room' }).click();
  const tool = page.getByRole('group', { name: 'Calibrate this room' });
  await tool.getByRole('button', { name: 'Start' }).click();
  await page.clock.setFixedTime(new Date('2026-03-08T04:00:12.100Z'));
  await tool.getByRole('button', { name: 'Mark' }).click();
  await expect(room.getByRole('status')).toHaveText(
    "Measured 12.1 s on this room's TV: its extra delay is now +7.1 s.",
  );

  const stored = await request.get('/api/me/preferences', {
    headers: { authorization: `Bearer ${session.token}` },
  });
  const { preferences } = (await stored.json()) as {
    preferences: { delay: { seconds: number }; delayOffsetsMs: Record<string, number> };
  };
  expect(preferences.delay.seconds).toBe(5);
  expect(preferences.delayOffsetsMs).toEqual({ [device.id]: 7100 });
});
