import { paced } from '../../scripts/test-pace.mjs';
import { expect, signInAs, test, USERS } from '../fixtures';

/**
 * Linking a desktop companion (RFC 8628), end to end. The test itself plays the companion over
 * HTTP, as the real one will: it asks for a code, polls for its token, opens the event stream
 * with it; the fan approves in the browser and later unlinks it in Settings.
 */

const GRANT_TYPE = 'urn:ietf:params:oauth:grant-type:device_code';

interface Companion {
  base: string;
  post(
    path: string,
    body: unknown,
    token?: string,
  ): Promise<{ status: number; body: Record<string, unknown> }>;
}

function companionAt(base: string): Companion {
  return {
    base,
    async post(path, body, token) {
      const res = await fetch(`${base}${path}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        body: JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    },
  };
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls as RFC 8628 says: every `interval` seconds while pending, longer after slow_down. */
async function pollForToken(companion: Companion, deviceCode: string, interval: number) {
  let gap = interval;
  for (;;) {
    const res = await companion.post('/api/device/token', {
      grant_type: GRANT_TYPE,
      device_code: deviceCode,
    });
    if (res.status === 200) return res.body as { access_token: string; device: { id: string; name: string } };
    if (res.body.code === 'slow_down') gap += 5;
    else if (res.body.code !== 'authorization_pending')
      throw new Error(`token refused: ${JSON.stringify(res.body)}`);
    await wait(gap * 1000);
  }
}

test('a companion is linked from its link, shows online in Settings, and Unlink ends its stream', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(paced(90_000));
  const companion = companionAt(baseURL!);
  await signInAs(page, USERS.trial);

  const code = await companion.post('/api/device/code', {
    name: 'E2E Living-room PC',
    platform: 'linux-x64',
    version: '0.9.0',
  });
  expect(code.status).toBe(200);
  const userCode = String(code.body.user_code);
  const first = await companion.post('/api/device/token', {
    grant_type: GRANT_TYPE,
    device_code: code.body.device_code,
  });
  expect(first.body).toMatchObject({ error: 'authorization_pending', code: 'authorization_pending' });

  // The fan opens the link the companion prints.
  await page.goto(String(code.body.verification_uri_complete));
  await expect(page.getByText('Link this companion to your account?')).toBeVisible();
  await expect(page.getByText('E2E Living-room PC')).toBeVisible();
  await expect(page.getByText('linux-x64')).toBeVisible();
  await expect(page.getByText(userCode)).toBeVisible();
  await page.getByRole('button', { name: 'Link' }).click();
  await expect(page.getByRole('status')).toContainText('Linked.');

  const granted = await pollForToken(companion, String(code.body.device_code), Number(code.body.interval));
  expect(granted.device.name).toBe('E2E Living-room PC');

  // The companion follows the live session with its own token.
  const ticket = await companion.post('/api/live/ticket', {}, granted.access_token);
  expect(ticket.status).toBe(200);
  const controller = new AbortController();
  const stream = await fetch(`${companion.base}/api/live/events?ticket=${String(ticket.body.ticket)}`, {
    headers: { accept: 'text/event-stream' },
    signal: controller.signal,
  });
  expect(stream.status).toBe(200);
  let received = '';
  const reader = stream.body!.getReader();
  const ended = (async () => {
    const decoder = new TextDecoder();
    for (;;) {
      const chunk = await reader.read().catch(() => ({ done: true as const, value: undefined }));
      if (chunk.done) return;
      received += decoder.decode(chunk.value, { stream: true });
    }
  })();

  try {
    await page.goto('/#/settings');
    await page.getByRole('button', { name: 'Devices' }).click();
    const item = page.getByRole('listitem', { name: 'E2E Living-room PC' });
    await expect(item.getByText('Online now')).toBeVisible();
    await expect(item.getByText('0.9.0')).toBeVisible();

    await item.getByRole('button', { name: 'Unlink E2E Living-room PC' }).click();
    const dialog = page.getByRole('dialog', { name: 'Unlink companion' });
    await dialog.getByRole('button', { name: 'Unlink' }).click();
    await expect(page.getByText('E2E Living-room PC was unlinked.')).toBeVisible();
    await expect(page.getByRole('listitem', { name: 'E2E Living-room PC' })).toHaveCount(0);

    // The stream ends, saying why, and the token is refused from now on.
    await ended;
    expect(received).toContain('event: unlinked');
    const refused = await companion.post('/api/live/ticket', {}, granted.access_token);
    expect(refused.status).toBe(401);
  } finally {
    controller.abort();
  }
});
