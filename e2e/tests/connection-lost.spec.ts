import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { request as playwrightRequest } from '@playwright/test';
import { paced } from '../../scripts/test-pace.mjs';
import { expect, seedSession, test } from '../fixtures';
import { signUpViaApi } from '../support/accounts';
import { endProcess, startDemoServer, type DemoServer } from '../support/companion-process';
import { freePort } from '../support/ports';

/**
 * The dashboard follows the live race; the server is killed (kill -9) and started again. Within
 * 10 s of each, the page says so: "Reconnecting…" with why, then "Connected again". A demo server of
 * its own, on ports of its own.
 */

/** What the issue promises: the page tells within 10 s of the server going, and of it answering again. */
const WITHIN_MS = 10_000;

// The killed stream, a request in flight when the server dies (reset), a request sent on a kept-alive
// socket the dead server had held (not connected: seen on a slow host), and each request refused
// while the server is down, are logged by the browser.
test.use({
  expectedConsoleErrors:
    /net::ERR_(CONNECTION_REFUSED|CONNECTION_RESET|EMPTY_RESPONSE|INCOMPLETE_CHUNKED_ENCODING|SOCKET_NOT_CONNECTED)/,
});

test.describe('a server that goes away while the dashboard follows the race', () => {
  let server: DemoServer | null = null;
  let dataDir = '';

  test.afterAll(async () => {
    await endProcess(server?.process ?? null, 'SIGKILL');
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  test('the connection line says Reconnecting… within 10 s of the kill, and Connected again within 10 s of the server answering', async ({
    page,
  }) => {
    test.setTimeout(paced(150_000));
    dataDir = mkdtempSync(path.join(tmpdir(), 'flaglight-connection-lost-'));
    const [port, lifxPort, huePort] = await Promise.all([freePort(), freePort(), freePort()]);
    const start = () =>
      startDemoServer({
        port,
        dataDir,
        env: { DEMO_LIFX_LAN_PORT: String(lifxPort), DEMO_HUE_BRIDGE_PORT: String(huePort) },
      });
    server = await start();
    const api = await playwrightRequest.newContext({ baseURL: server.base });
    const session = await signUpViaApi(api);
    await api.dispose();

    // The fan opens the dashboard; auto-connect follows the demo's live race on this screen.
    await seedSession(page, session);
    await page.goto(`${server.base}/#/dashboard`);
    const race = page.getByRole('region', { name: 'Race Control' });
    const connection = race.getByRole('status', { name: 'Connection' });
    await expect(connection).toHaveText(/Connected · Live/, { timeout: paced(30_000) });
    const lost = race.getByRole('alert').filter({ hasText: "Flaglight's server does not answer" });
    await expect(lost).toHaveCount(0);

    // Tries to reach the server while it is down, counted to see the back-off reach its longest wait.
    let failedTickets = 0;
    page.on('requestfailed', (request) => {
      if (request.url().includes('/api/live/ticket')) failedTickets += 1;
    });

    await endProcess(server.process, 'SIGKILL');
    server = null;
    await expect(connection).toHaveText('Reconnecting…', { timeout: WITHIN_MS });
    await expect(lost).toHaveText(
      "Flaglight's server does not answer. Trying again every few seconds; your lights keep the last flag until it is back.",
    );
    // It keeps trying (1, 2, 4, then 8 s apart) and keeps saying so.
    await expect.poll(() => failedTickets, { timeout: paced(60_000) }).toBeGreaterThanOrEqual(4);
    await expect(connection).toHaveText('Reconnecting…');

    // Started again on the same port and data: startDemoServer returns once /api/health answers.
    server = await start();
    await expect(connection).toHaveText(/Connected · Live/, { timeout: WITHIN_MS });
    await expect(race.getByRole('status', { name: 'Reconnected' })).toHaveText(
      'Connected again: your lights follow the race again.',
    );
    await expect(lost).toHaveCount(0);
  });
});
