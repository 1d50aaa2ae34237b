import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, expect, test, vi } from 'vitest';
import { DEMO_CONFIG, stubApi } from '../../test/fetch-stub';
import { renderApp } from '../../test/render-app';
import { buildUser, seedSession } from '../../test/users';
import { VERIFY_PAGE_TEXTS } from './VerifyEmailPage';

afterEach(() => vi.restoreAllMocks());

const OTHER_ACCOUNT =
  'This confirmation link belongs to another account. Sign in with the account that signed up with this address, then open the link again.';

test('signed in, the link confirms the address once with the session and says so; the user is read again', async () => {
  const confirmed = buildUser({ emailVerified: true });
  seedSession(buildUser({ emailVerified: false }), 'session-1');
  const api = stubApi({
    'POST /api/auth/verify-email': { body: { success: true, message: 'Your e-mail address is confirmed.' } },
    'GET /api/auth/me': { body: { user: confirmed } },
  });
  renderApp('/verify-email?token=tok-1');
  expect(await screen.findByText('Your e-mail address is confirmed.')).toHaveAttribute('role', 'status');
  expect(screen.getByRole('link', { name: 'Go to Dashboard' })).toBeVisible();
  await vi.waitFor(() =>
    expect(JSON.parse(localStorage.getItem('user') ?? '{}')).toMatchObject({ emailVerified: true }),
  );
  const verifies = api.calls.filter((call) => call.route === 'POST /api/auth/verify-email');
  expect(verifies.map((call) => call.body)).toEqual([{ token: 'tok-1' }]);
  expect(verifies[0]?.headers.Authorization).toBe('Bearer session-1');
});

test.each([
  ['a spent or expired link', 'This confirmation link is invalid, used or expired.'],
  ['the link of another account', OTHER_ACCOUNT],
])('signed in, %s shows the server text', async (_what, text) => {
  seedSession(buildUser({ emailVerified: false }), 'session-2');
  stubApi({
    'POST /api/auth/verify-email': { status: 400, body: { error: text, code: 'invalid_input' } },
    'GET /api/auth/me': { body: { user: buildUser({ emailVerified: false }) } },
  });
  renderApp(`/verify-email?token=tok-2-${text.length}`);
  expect(await screen.findByRole('alert')).toHaveTextContent(text);
  expect(screen.getByRole('link', { name: 'Go to Dashboard' })).toBeVisible();
});

test('signed out, the page asks to sign in without calling the API, and the sign-in comes back to confirm', async () => {
  let bots = 0;
  const user = buildUser({ emailVerified: false });
  const api = stubApi({
    'GET /api/config': { body: DEMO_CONFIG },
    'POST /sims/turnstile/token': () => ({ body: { token: `bot-${++bots}` } }),
    'POST /auth/login': { body: { token: 'session-3', user } },
    'GET /api/auth/me': { body: { user: { ...user, emailVerified: true } } },
    'POST /api/auth/verify-email': { body: { success: true, message: 'Your e-mail address is confirmed.' } },
  });
  const { router } = renderApp('/verify-email?token=tok-3');
  expect(await screen.findByText(VERIFY_PAGE_TEXTS.signIn)).toBeVisible();
  expect(screen.getByText(VERIFY_PAGE_TEXTS.ownAccountOnly)).toBeVisible();
  const signIn = screen.getByRole('link', { name: 'Sign In' });
  expect(signIn).toHaveAttribute('href', `/login?next=${encodeURIComponent('/verify-email?token=tok-3')}`);
  expect(api.calls.filter((call) => call.route.includes('verify-email'))).toEqual([]);

  await userEvent.click(signIn);
  await userEvent.type(await screen.findByLabelText('Email'), user.email);
  await userEvent.type(screen.getByLabelText('Password'), 'Sunday!Race1');
  const box = await screen.findByRole('checkbox', { name: 'Verify you are human' });
  await userEvent.click(box);
  await waitFor(() => expect(box).toBeEnabled());
  await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));

  expect(await screen.findByText('Your e-mail address is confirmed.')).toHaveAttribute('role', 'status');
  expect(router.state.location).toMatchObject({ pathname: '/verify-email', search: '?token=tok-3' });
  const verifies = api.calls.filter((call) => call.route === 'POST /api/auth/verify-email');
  expect(verifies.map((call) => [call.body, call.headers.Authorization])).toEqual([
    [{ token: 'tok-3' }, 'Bearer session-3'],
  ]);
});

test('a session the server has ended is forgotten, and the page asks to sign in', async () => {
  seedSession(buildUser({ emailVerified: false }), 'session-4');
  const expired = {
    status: 401,
    body: { error: 'Your session has expired. Please sign in again.', code: 'unauthenticated' },
  };
  stubApi({ 'POST /api/auth/verify-email': expired, 'GET /api/auth/me': expired });
  renderApp('/verify-email?token=tok-4');
  expect(await screen.findByText(VERIFY_PAGE_TEXTS.signIn)).toBeVisible();
  expect(screen.getByRole('link', { name: 'Sign In' })).toHaveAttribute(
    'href',
    `/login?next=${encodeURIComponent('/verify-email?token=tok-4')}`,
  );
  expect(localStorage.getItem('auth_token')).toBeNull();
});

test('a link without its token says so without asking the server', async () => {
  const api = stubApi({});
  renderApp('/verify-email');
  expect(await screen.findByRole('alert')).toHaveTextContent(VERIFY_PAGE_TEXTS.missingToken);
  expect(api.calls.filter((call) => call.route.includes('verify-email'))).toEqual([]);
});
