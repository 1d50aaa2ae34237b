import type { APIRequestContext } from '@playwright/test';
import { expect, signInAs, test, USERS } from '../fixtures';

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
