import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { paced } from '../../../../scripts/test-pace.mjs';
import { stubApi } from '../../test/fetch-stub';
import { baseRoutes, FAN_EMAIL, goveeLights, renderWithLights } from '../../test/lights';
import { buildUser, seedSession } from '../../test/users';
import { SettingsPage } from './SettingsPage';

const fan = buildUser({ email: FAN_EMAIL });

const DIAGNOSTICS = {
  connected: true,
  reason: null,
  message: 'Govee connected with 3 lights',
  instructions: null,
  lights: 3,
  budget: {
    dailyLimit: 10_000,
    dailyRemaining: 9_412,
    dailyResetsAt: '2026-11-28T00:00:00.000Z',
    perDeviceMinuteLimit: 10,
    sentToday: 588,
    mode: 'normal',
  },
  pendingLights: 0,
  pausedUntil: null,
  lastError: null,
};

beforeEach(() => seedSession(fan));
afterEach(() => vi.restoreAllMocks());

async function openGovee(routes: Parameters<typeof stubApi>[0] = {}) {
  const api = stubApi({
    ...baseRoutes(fan),
    'GET /api/govee/status': { body: { connected: false } },
    ...routes,
  });
  await renderWithLights(<SettingsPage />);
  const trigger = await screen.findByRole('button', { name: 'Govee Cloud' });
  if (trigger.getAttribute('aria-expanded') !== 'true') fireEvent.click(trigger);
  return api;
}

const keyField = () => screen.findByLabelText('Govee API key');

test('says how to get a key; Connect is disabled while the key is blank', async () => {
  await openGovee();
  expect(await screen.findByText(/Profile → Settings → Apply for API Key/)).toBeInTheDocument();
  expect(await keyField()).toHaveAttribute('type', 'password');
  expect(screen.getByRole('button', { name: 'Connect Govee' })).toBeDisabled();
  fireEvent.change(await keyField(), { target: { value: '   ' } });
  expect(screen.getByRole('button', { name: 'Connect Govee' })).toBeDisabled();
});

test('connects with the trimmed key, then lists the lights; the key leaves the page', async () => {
  let connected = false;
  const api = await openGovee({
    'GET /api/govee/status': () => ({ body: { connected } }),
    'POST /api/govee/connect': () => {
      connected = true;
      return { body: { success: true, lights: 3 } };
    },
    'GET /api/govee/lights': { body: { lights: goveeLights(3) } },
  });
  fireEvent.change(await keyField(), { target: { value: '  my-govee-key  ' } });
  await waitFor(() => expect(screen.getByRole('button', { name: 'Connect Govee' })).toBeEnabled());
  fireEvent.click(screen.getByRole('button', { name: 'Connect Govee' }));
  await waitFor(() => expect(document.body.textContent).toContain('Govee connected: 3 lights found'), {
    timeout: paced(3000),
  });
  expect(api.calls.find((c) => c.route === 'POST /api/govee/connect')?.body).toEqual({
    apiKey: 'my-govee-key',
  });
  expect(screen.queryByDisplayValue('my-govee-key')).not.toBeInTheDocument();
  expect(screen.getAllByText(/solid colours only/).length).toBeGreaterThan(0);
});

test('a refused key shows the server’s words as a Connection Error', async () => {
  await openGovee({
    'POST /api/govee/connect': {
      status: 400,
      body: { error: 'Govee did not accept that API key.', code: 'govee_key_refused' },
    },
  });
  fireEvent.change(await keyField(), { target: { value: 'wrong' } });
  await waitFor(() => expect(screen.getByRole('button', { name: 'Connect Govee' })).toBeEnabled());
  fireEvent.click(screen.getByRole('button', { name: 'Connect Govee' }));
  const box = await screen.findByText('Connection Error');
  expect(
    within(box.closest('div')!.parentElement!).getByText('Govee did not accept that API key.'),
  ).toBeInTheDocument();
  expect(screen.getByRole('button', { name: 'Connect Govee' })).toBeEnabled();
});

test('diagnostics show the remaining daily budget and the pacing', async () => {
  await openGovee({
    'GET /api/govee/status': { body: { connected: true } },
    'GET /api/govee/lights': { body: { lights: goveeLights(3) } },
    'GET /api/govee/diagnostics': { body: DIAGNOSTICS },
  });
  fireEvent.click(await screen.findByRole('button', { name: 'Govee diagnostics' }));
  const report = await screen.findByRole('status', { name: 'Govee diagnostics report' });
  expect(within(report).getByText(/9,412 of 10,000 requests left/)).toBeInTheDocument();
  expect(within(report).getByText(/at most 10 requests per light per minute/)).toBeInTheDocument();
});

test('disconnect forgets the key on the server and shows the key field again', async () => {
  let connected = true;
  const api = await openGovee({
    'GET /api/govee/status': () => ({ body: { connected } }),
    'GET /api/govee/lights': { body: { lights: goveeLights(2) } },
    'POST /api/govee/disconnect': () => {
      connected = false;
      return { body: { success: true } };
    },
  });
  fireEvent.click(await screen.findByRole('button', { name: 'Disconnect Govee' }));
  await waitFor(() => expect(api.calls.some((c) => c.route === 'POST /api/govee/disconnect')).toBe(true));
  expect(await keyField()).toBeInTheDocument();
});
