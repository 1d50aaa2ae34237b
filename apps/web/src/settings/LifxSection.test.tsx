import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { stubApi } from '../../test/fetch-stub';
import { baseRoutes, FAN_EMAIL, lifxBulbs, renderWithLights } from '../../test/lights';
import { buildUser, seedSession } from '../../test/users';
import { readLocalSettings, updateLocalSettings } from './local-settings';
import { SettingsPage } from './SettingsPage';

const fan = buildUser({ email: FAN_EMAIL });
const LIST = 'GET /sims/lifx/v1/lights/all';

beforeEach(() => seedSession(fan));
afterEach(() => vi.restoreAllMocks());

async function openSettings() {
  const view = await renderWithLights(<SettingsPage />);
  const field = await screen.findByLabelText<HTMLInputElement>('LIFX API token');
  const connect = () => screen.getByRole('button', { name: 'Connect' });
  await waitFor(() => expect(screen.queryByRole('button', { name: 'Checking…' })).not.toBeInTheDocument());
  return { ...view, field, connect };
}

test('section 1 is open with instructions; Connect is disabled while the token is blank', async () => {
  stubApi(baseRoutes(fan));
  const { field, connect } = await openSettings();
  expect(field).toHaveAttribute('type', 'password');
  expect(screen.getByRole('link', { name: /cloud\.lifx\.com/ })).toHaveAttribute(
    'href',
    'https://cloud.lifx.com/settings',
  );
  expect(screen.getByText(/Personal access tokens/)).toBeInTheDocument();
  await waitFor(() => expect(connect()).toBeDisabled());
  fireEvent.change(field, { target: { value: '   ' } });
  expect(connect()).toBeDisabled();
  fireEvent.change(field, { target: { value: 'abc' } });
  // Connect waits for the lazily loaded lights engine too.
  await waitFor(() => expect(connect()).toBeEnabled());
});

test('a good token lists the devices, is stored for the user, and shows connected + Disconnect', async () => {
  const api = stubApi({ ...baseRoutes(fan), [LIST]: { body: lifxBulbs(3, [2]) } });
  const { field, connect } = await openSettings();
  fireEvent.change(field, { target: { value: '  demo-token  ' } });
  fireEvent.click(connect());
  expect(await screen.findByText(/LIFX connected: 3 lights found, 2 online/)).toBeInTheDocument();
  const call = api.calls.find((c) => c.route === LIST);
  expect(call?.headers.Authorization).toBe('Bearer demo-token');
  expect(window.localStorage.getItem(`lifx_token_${FAN_EMAIL}`)).toBe('demo-token');

  fireEvent.click(screen.getByRole('button', { name: 'Disconnect' }));
  expect(await screen.findByLabelText('LIFX API token')).toHaveValue('');
  expect(window.localStorage.getItem(`lifx_token_${FAN_EMAIL}`)).toBeNull();
});

test('a 401 shows the Connection Error box with SPEC §8 text and keeps no token', async () => {
  stubApi({ ...baseRoutes(fan), [LIST]: { status: 401, body: { error: 'Bad token' } } });
  const { field, connect } = await openSettings();
  fireEvent.change(field, { target: { value: 'wrong' } });
  fireEvent.click(connect());
  const box = await screen.findByRole('alert');
  expect(within(box).getByText('Connection Error')).toBeInTheDocument();
  expect(within(box).getByText('Invalid LIFX API token')).toBeInTheDocument();
  expect(window.localStorage.getItem(`lifx_token_${FAN_EMAIL}`)).toBeNull();
});

test('auto-connect on: a saved token reconnects at start-up without a click', async () => {
  window.localStorage.setItem(`lifx_token_${FAN_EMAIL}`, 'demo-token');
  const api = stubApi({ ...baseRoutes(fan), [LIST]: { body: lifxBulbs(2) } });
  await renderWithLights(<SettingsPage />);
  expect(await screen.findByText(/LIFX connected: 2 lights found/)).toBeInTheDocument();
  expect(api.calls.filter((c) => c.route === LIST)).toHaveLength(1);
});

test('auto-connect off (App Preferences, kept per user): the saved token waits for Connect', async () => {
  window.localStorage.setItem(`lifx_token_${FAN_EMAIL}`, 'demo-token');
  updateLocalSettings(FAN_EMAIL, { autoConnect: false });
  const api = stubApi({ ...baseRoutes(fan), [LIST]: { body: lifxBulbs(2) } });
  const { field, connect } = await openSettings();
  expect(field).toHaveValue('demo-token');
  expect(api.calls.some((c) => c.route === LIST)).toBe(false);

  fireEvent.click(screen.getByRole('button', { name: 'App Preferences' }));
  const toggle = screen.getByRole('switch', { name: 'Auto-connect on startup' });
  expect(toggle).not.toBeChecked();
  fireEvent.click(toggle);
  expect(toggle).toBeChecked();
  expect(readLocalSettings(FAN_EMAIL).autoConnect).toBe(true);

  fireEvent.click(connect());
  expect(await screen.findByText(/LIFX connected: 2 lights found/)).toBeInTheDocument();
});
