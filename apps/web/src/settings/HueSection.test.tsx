import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { stubApi } from '../../test/fetch-stub';
import { baseRoutes, FAN_EMAIL, hueLights, renderWithLights } from '../../test/lights';
import { buildUser, seedSession } from '../../test/users';
import { SettingsPage } from './SettingsPage';

const fan = buildUser({ email: FAN_EMAIL });
const AUTH_URL = 'https://auth.example/authorize?state=abc';

beforeEach(() => seedSession(fan));
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  window.history.replaceState(null, '', '/');
});

function fakePopup() {
  const popup = { closed: false, close: vi.fn(() => (popup.closed = true)), location: { href: '' } };
  return popup;
}

async function openHue(routes: Parameters<typeof stubApi>[0] = {}) {
  const api = stubApi({
    ...baseRoutes(fan),
    'GET /auth/hue/start': { body: { authUrl: AUTH_URL } },
    ...routes,
  });
  await renderWithLights(<SettingsPage />);
  const trigger = await screen.findByRole('button', { name: 'Philips Hue Remote API' });
  if (trigger.getAttribute('aria-expanded') !== 'true') fireEvent.click(trigger);
  return api;
}

const connectButton = () => screen.findByRole('button', { name: 'Connect Philips Hue' });
const post = (data: unknown, origin = window.location.origin) =>
  act(async () => {
    window.dispatchEvent(new MessageEvent('message', { data, origin }));
  });

test('a blocked popup says so', async () => {
  await openHue();
  vi.spyOn(window, 'open').mockReturnValue(null);
  fireEvent.click(await connectButton());
  expect(await screen.findByText('Popup blocked. Please allow popups for this site.')).toBeInTheDocument();
  expect(screen.getByText('Connection Error')).toBeInTheDocument();
});

test('the popup is 600×700 and goes to the authorisation page; 60 s without an answer times out', async () => {
  await openHue();
  const popup = fakePopup();
  const open = vi.spyOn(window, 'open').mockReturnValue(popup as unknown as Window);
  const button = await connectButton();
  vi.useFakeTimers({ shouldAdvanceTime: true });
  fireEvent.click(button);
  expect(open.mock.calls[0]?.[2]).toMatch(/width=600,height=700/);
  await waitFor(() => expect(popup.location.href).toBe(AUTH_URL));
  expect(screen.getByRole('button', { name: 'Waiting for Hue…' })).toBeDisabled();
  await act(() => vi.advanceTimersByTimeAsync(59_000));
  expect(screen.queryByText('OAuth flow timed out. Please try again.')).not.toBeInTheDocument();
  await act(() => vi.advanceTimersByTimeAsync(1_500));
  expect(screen.getByText('OAuth flow timed out. Please try again.')).toBeInTheDocument();
  expect(popup.close).toHaveBeenCalled();
  expect(screen.getByRole('button', { name: 'Connect Philips Hue' })).toBeEnabled();
});

test('a start failure says Failed to start Hue connection', async () => {
  await openHue({ 'GET /auth/hue/start': { status: 500, body: { error: 'boom' } } });
  const popup = fakePopup();
  vi.spyOn(window, 'open').mockReturnValue(popup as unknown as Window);
  fireEvent.click(await connectButton());
  expect(await screen.findByText('Failed to start Hue connection')).toBeInTheDocument();
  expect(popup.close).toHaveBeenCalled();
});

test('only a message from the app origin counts; success creates and shows the application key', async () => {
  let connected = false;
  const api = await openHue({
    'GET /auth/hue/status': () => ({ body: { connected, hasApplicationKey: connected } }),
    'POST /hue/create-app-key': { body: { success: true, applicationKey: 'key-123' } },
    'GET /hue/lights': { body: { lights: hueLights(2) } },
  });
  const popup = fakePopup();
  vi.spyOn(window, 'open').mockReturnValue(popup as unknown as Window);
  fireEvent.click(await connectButton());
  await waitFor(() => expect(popup.location.href).toBe(AUTH_URL));

  connected = true;
  await post({ type: 'HUE_OAUTH_SUCCESS' }, 'https://evil.example');
  expect(api.calls.some((c) => c.route === 'POST /hue/create-app-key')).toBe(false);
  expect(screen.getByRole('button', { name: 'Waiting for Hue…' })).toBeInTheDocument();

  await post({ type: 'HUE_OAUTH_SUCCESS' });
  expect(await screen.findByLabelText('Your new application key')).toHaveValue('key-123');
  expect(popup.close).toHaveBeenCalled();
  expect(screen.getByText(/Philips Hue connected/)).toBeInTheDocument();
  expect(await screen.findByText('Hue 2')).toBeInTheDocument();
});

test('an error message shows Hue authorization failed: {reason}', async () => {
  await openHue();
  vi.spyOn(window, 'open').mockReturnValue(fakePopup() as unknown as Window);
  fireEvent.click(await connectButton());
  await post({ type: 'HUE_OAUTH_ERROR', error: 'access_denied' });
  expect(await screen.findByText('Hue authorization failed: access_denied')).toBeInTheDocument();
});

test('a popup closed by hand resets and rechecks the status after 1 s', async () => {
  const api = await openHue();
  const popup = fakePopup();
  vi.spyOn(window, 'open').mockReturnValue(popup as unknown as Window);
  const button = await connectButton();
  const statusCalls = () => api.calls.filter((c) => c.route === 'GET /auth/hue/status').length;
  vi.useFakeTimers({ shouldAdvanceTime: true });
  fireEvent.click(button);
  await waitFor(() => expect(popup.location.href).toBe(AUTH_URL));
  const before = statusCalls();
  popup.closed = true;
  await act(() => vi.advanceTimersByTimeAsync(600));
  expect(screen.getByRole('button', { name: 'Connect Philips Hue' })).toBeEnabled();
  expect(statusCalls()).toBe(before);
  await act(() => vi.advanceTimersByTimeAsync(1_000));
  expect(statusCalls()).toBe(before + 1);
});

test('a result that arrives just after the popup closed still counts', async () => {
  let connected = false;
  const api = await openHue({
    'GET /auth/hue/status': () => ({ body: { connected, hasApplicationKey: connected } }),
    'POST /hue/create-app-key': { body: { success: true, applicationKey: 'key-9' } },
    'GET /hue/lights': { body: { lights: hueLights(1) } },
  });
  const popup = fakePopup();
  vi.spyOn(window, 'open').mockReturnValue(popup as unknown as Window);
  const button = await connectButton();
  vi.useFakeTimers({ shouldAdvanceTime: true });
  fireEvent.click(button);
  await waitFor(() => expect(popup.location.href).toBe(AUTH_URL));
  connected = true;
  popup.closed = true;
  await act(() => vi.advanceTimersByTimeAsync(600));
  await post({ type: 'HUE_OAUTH_SUCCESS' });
  // Before the 1 s recheck could have done it.
  expect(await screen.findByLabelText('Your new application key', {}, { timeout: 300 })).toHaveValue('key-9');
  await act(() => vi.advanceTimersByTimeAsync(2_000));
  expect(api.calls.filter((c) => c.route === 'POST /hue/create-app-key')).toHaveLength(1);
});

test('a redirect result in the URL is read, shown, and stripped from the address', async () => {
  window.history.replaceState(null, '', '/?hue_error=access_denied#/settings');
  await openHue();
  expect(await screen.findByText('Hue authorization failed: access_denied')).toBeInTheDocument();
  expect(window.location.search).toBe('');
  expect(window.location.hash).toBe('#/settings');
});

test('connected: application key entry, diagnostics, test pulse, disconnect', async () => {
  let connected = true;
  const api = await openHue({
    'GET /auth/hue/status': () => ({ body: { connected, hasApplicationKey: true } }),
    'GET /hue/lights': { body: { lights: hueLights(2) } },
    'POST /hue/store-app-key': { status: 502, body: { error: 'bridge said no' } },
    'GET /hue/diagnostics': { body: { connected: true, bridges: 1, lights: 2 } },
    'PUT /hue/lights/hue-1/state': { body: { success: true } },
    'POST /auth/hue/disconnect': () => {
      connected = false;
      return { body: { success: true } };
    },
  });
  expect(await screen.findByText(/Philips Hue connected: 2 lights found/)).toBeInTheDocument();

  const store = screen.getByRole('button', { name: 'Store key' });
  fireEvent.click(store);
  expect(await screen.findByText('Please enter an application key.')).toBeInTheDocument();
  expect(api.calls.some((c) => c.route === 'POST /hue/store-app-key')).toBe(false);
  fireEvent.change(screen.getByLabelText('Application key'), { target: { value: ' pasted-key ' } });
  fireEvent.click(store);
  expect(await screen.findByText('Failed to store application key')).toBeInTheDocument();
  expect(api.calls.find((c) => c.route === 'POST /hue/store-app-key')?.body).toEqual({
    applicationKey: 'pasted-key',
  });

  const alert = vi.spyOn(window, 'alert').mockImplementation(() => undefined);
  fireEvent.click(screen.getByRole('button', { name: 'Diagnostics' }));
  await waitFor(() =>
    expect(alert).toHaveBeenCalledWith(expect.stringMatching(/Bridges found: 1\. Lights found: 2/)),
  );

  fireEvent.click(screen.getByRole('button', { name: 'Test pulse on Hue 1' }));
  await waitFor(() =>
    expect(api.calls.find((c) => c.route === 'PUT /hue/lights/hue-1/state')?.body).toEqual({
      on: true,
      brightness: 100,
      color: { xy: { x: 0.3, y: 0.6 } },
      duration: 1000,
    }),
  );

  const section = screen.getByRole('region', { name: 'Philips Hue Remote API' });
  fireEvent.click(within(section).getByRole('button', { name: 'Disconnect' }));
  expect(await connectButton()).toBeInTheDocument();
});

test('diagnostics failure shows error, details and instructions', async () => {
  await openHue({
    'GET /hue/diagnostics': {
      body: {
        connected: false,
        error: 'Bridge offline',
        details: 'timeout after 10 s',
        instructions: 'Check the bridge is powered.',
      },
    },
  });
  const alert = vi.spyOn(window, 'alert').mockImplementation(() => undefined);
  fireEvent.click(await screen.findByRole('button', { name: 'Diagnostics' }));
  await waitFor(() => expect(alert).toHaveBeenCalled());
  const text = alert.mock.calls[0]?.[0] as string;
  expect(text).toContain('Bridge offline');
  expect(text).toContain('timeout after 10 s');
  expect(text).toContain('Check the bridge is powered.');
});

test("a test pulse answered 'unauthorized' disconnects the bridge provider: lights go, a new key is asked for", async () => {
  let hasApplicationKey = true;
  const refused =
    'Hue bridge unauthorized: the application key was not accepted. Create a new one in Settings.';
  const api = await openHue({
    'GET /auth/hue/status': () => ({ body: { connected: true, hasApplicationKey } }),
    'GET /hue/lights': { body: { lights: hueLights(2) } },
    // The server forgets a key the bridge refused (apps/server hue service).
    'PUT /hue/lights/hue-1/state': () => {
      hasApplicationKey = false;
      return { status: 403, body: { error: refused, code: 'hue_unauthorized' } };
    },
    'POST /hue/create-app-key': () => {
      hasApplicationKey = true;
      return { body: { success: true, applicationKey: 'key-new' } };
    },
  });
  expect(await screen.findByText(/Philips Hue connected: 2 lights found/)).toBeInTheDocument();
  expect(screen.getByText('An application key is stored for your bridge.')).toBeInTheDocument();

  fireEvent.click(screen.getByRole('button', { name: 'Test pulse on Hue 1' }));
  const section = screen.getByRole('region', { name: 'Philips Hue Remote API' });
  await waitFor(() => expect(within(section).queryByText('Hue 1')).not.toBeInTheDocument());
  await waitFor(() =>
    expect(within(section).getByRole('button', { name: 'Create application key' })).toBeEnabled(),
  );
  expect(within(section).getByText(refused)).toBeInTheDocument();
  expect(within(section).getByText(/Philips Hue connected/)).toBeInTheDocument();
  expect(
    within(section).queryByText('An application key is stored for your bridge.'),
  ).not.toBeInTheDocument();
  expect(within(section).queryByRole('button', { name: 'Test pulse on Hue 2' })).not.toBeInTheDocument();
  expect(api.calls.filter((c) => c.route === 'GET /auth/hue/status').length).toBeGreaterThanOrEqual(2);

  // Recovers without a reload: a new key, and the lights are back.
  fireEvent.click(within(section).getByRole('button', { name: 'Create application key' }));
  expect(await within(section).findByLabelText('Your new application key')).toHaveValue('key-new');
  expect(await within(section).findByRole('button', { name: 'Test pulse on Hue 1' })).toBeInTheDocument();
});

test("a Hue sign-in that expired ('not connected') returns the section to Connect", async () => {
  let connected = true;
  const expired =
    'Hue is not connected: the Hue authorization expired. Connect your Hue account again in Settings.';
  await openHue({
    'GET /auth/hue/status': () => ({ body: { connected, hasApplicationKey: connected } }),
    'GET /hue/lights': { body: { lights: hueLights(1) } },
    'PUT /hue/lights/hue-1/state': () => {
      connected = false;
      return { status: 403, body: { error: expired, code: 'hue_not_connected' } };
    },
  });
  fireEvent.click(await screen.findByRole('button', { name: 'Test pulse on Hue 1' }));
  expect(await connectButton()).toBeInTheDocument();
  const section = screen.getByRole('region', { name: 'Philips Hue Remote API' });
  expect(within(section).getByText(expired)).toBeInTheDocument();
});
