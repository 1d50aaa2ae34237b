import { act, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { stubApi } from '../../test/fetch-stub';
import { renderApp, SCREEN_WAIT } from '../../test/render-app';
import { buildUser, seedSession } from '../../test/users';

const trial = buildUser({ plan: 'trial', trialExpires: '2099-01-01T00:00:00.000Z' });
const lifetime = { ...trial, plan: 'lifetime' };

beforeEach(() => seedSession(trial));
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

async function openSettings() {
  const view = renderApp('/settings');
  const field = await screen.findByLabelText('Licence key', {}, SCREEN_WAIT);
  return {
    ...view,
    field: field as HTMLInputElement,
    submit: () => screen.getByRole('button', { name: /Activat/ }),
  };
}

test('blank keys cannot be submitted; the placeholder shows the key shape', async () => {
  stubApi({
    'GET /api/auth/me': { body: { user: trial } },
    'GET /api/license/status': { body: { hasActiveLicense: false, licenseDetails: null } },
  });
  const { field, submit } = await openSettings();
  expect(field).toHaveAttribute('placeholder', 'XXXX-XXXX-XXXX-XXXX');
  expect(submit()).toBeDisabled();
  fireEvent.change(field, { target: { value: '   ' } });
  expect(submit()).toBeDisabled();
});

test('success: message for 5 s, field cleared, user and licence status refreshed after 1 s', async () => {
  let me = trial;
  const api = stubApi({
    'GET /api/auth/me': () => ({ body: { user: me } }),
    'GET /api/license/status': { body: { hasActiveLicense: false, licenseDetails: null } },
    'POST /api/license/verify': () => {
      me = lifetime as typeof trial;
      return {
        body: { success: true, message: 'License activated. Enjoy lifetime access!', user: lifetime },
      };
    },
  });
  const { field, submit } = await openSettings();
  vi.useFakeTimers({ shouldAdvanceTime: true });
  fireEvent.change(field, { target: { value: 'ABCD-EFGH-JKMN-PQRS' } });
  fireEvent.click(submit());
  expect(screen.getByRole('button', { name: 'Activating…' })).toBeDisabled();
  expect(await screen.findByRole('status')).toHaveTextContent('License activated. Enjoy lifetime access!');
  expect(field).toHaveValue('');
  const countMe = () => api.calls.filter((call) => call.route === 'GET /api/auth/me').length;
  const countStatus = () => api.calls.filter((call) => call.route === 'GET /api/license/status').length;
  const [meBefore, statusBefore] = [countMe(), countStatus()];
  await act(() => vi.advanceTimersByTimeAsync(900));
  expect(countMe()).toBe(meBefore);
  await act(() => vi.advanceTimersByTimeAsync(200));
  expect(countMe()).toBe(meBefore + 1);
  expect(countStatus()).toBe(statusBefore + 1);
  expect(await screen.findByText(/You have Lifetime Access/)).toBeInTheDocument();
  expect(screen.getByRole('status')).toBeInTheDocument();
  await act(() => vi.advanceTimersByTimeAsync(4_000));
  expect(screen.queryByRole('status')).not.toBeInTheDocument();
});

test('the success message hides as soon as the key text changes', async () => {
  stubApi({
    'GET /api/auth/me': { body: { user: trial } },
    'GET /api/license/status': { body: { hasActiveLicense: false, licenseDetails: null } },
    'POST /api/license/verify': { body: { success: true, message: 'License activated.', user: trial } },
  });
  const { field, submit } = await openSettings();
  fireEvent.change(field, { target: { value: 'KEY-1' } });
  fireEvent.click(submit());
  expect(await screen.findByRole('status')).toHaveTextContent('License activated.');
  fireEvent.change(field, { target: { value: 'K' } });
  expect(screen.queryByRole('status')).not.toBeInTheDocument();
});

test.each([
  [
    'the server error',
    { status: 400, body: { error: 'This licence key has already been used' } },
    'This licence key has already been used',
  ],
  ['the fallback without one', { status: 500, body: {} }, 'Failed to activate license key'],
  ['the network message', new TypeError('Network down'), 'Failed to activate license key: Network down'],
])('failure shows Activation Failed with %s', async (_name, reply, text) => {
  stubApi({
    'GET /api/auth/me': { body: { user: trial } },
    'GET /api/license/status': { body: { hasActiveLicense: false, licenseDetails: null } },
    'POST /api/license/verify': reply,
  });
  const { field, submit } = await openSettings();
  fireEvent.change(field, { target: { value: 'KEY-1' } });
  fireEvent.click(submit());
  const alert = await screen.findByRole('alert');
  expect(alert).toHaveTextContent('Activation Failed');
  expect(alert.lastElementChild).toHaveTextContent(
    new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`),
  );
  expect(field).toHaveValue('KEY-1');
});

test('the Upgrade section is hidden for pro', async () => {
  seedSession({ ...trial, plan: 'pro' });
  stubApi({ 'GET /api/auth/me': { body: { user: { ...trial, plan: 'pro' } } } });
  renderApp('/settings');
  expect(await screen.findByRole('button', { name: 'Sign Out' })).toBeInTheDocument();
  expect(screen.queryByRole('button', { name: 'Upgrade to Pro' })).not.toBeInTheDocument();
});
