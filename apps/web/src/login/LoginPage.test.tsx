import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { DEMO_CONFIG, stubApi } from '../../test/fetch-stub';
import { renderApp, SCREEN_WAIT } from '../../test/render-app';
import { buildUser } from '../../test/users';

const WEAK =
  'Password must contain at least one uppercase letter, one lowercase letter, one number, and one special character (@$!%*?&)';

afterEach(() => vi.restoreAllMocks());

let tokens = 0;
function baseRoutes() {
  return {
    'GET /api/config': { body: DEMO_CONFIG },
    'POST /sims/turnstile/token': () => ({ body: { token: `bot-${++tokens}` } }),
  };
}

async function fillAndVerify(email: string, password: string) {
  await userEvent.type(await screen.findByLabelText('Email', {}, SCREEN_WAIT), email);
  await userEvent.type(screen.getByLabelText('Password'), password);
  const box = await screen.findByRole('checkbox', { name: 'Verify you are human' });
  await userEvent.click(box);
  await waitFor(() => expect(box).toBeEnabled());
  expect(box).toBeChecked();
}

describe('sign in', () => {
  test('asks for the bot check first', async () => {
    stubApi(baseRoutes());
    renderApp('/login');
    await userEvent.type(await screen.findByLabelText('Email', {}, SCREEN_WAIT), 'fan@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'anything');
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Please complete the security verification');
  });

  test('shows the server error, then signs in with a fresh bot token and stores the session', async () => {
    let attempts = 0;
    const user = buildUser({ email: 'fan@example.com' });
    const api = stubApi({
      ...baseRoutes(),
      'POST /auth/login': () =>
        ++attempts === 1
          ? { status: 401, body: { error: 'Invalid email or password', code: 'unauthenticated' } }
          : { body: { token: 'tok', user } },
      'GET /api/auth/me': { body: { user } },
    });
    localStorage.setItem('lifx_token_temp', 'lifx-abc');
    const { router } = renderApp('/login');
    await fillAndVerify('fan@example.com', 'secret');
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid email or password');
    await waitFor(() => expect(screen.getByRole('checkbox', { name: 'Verify you are human' })).toBeEnabled());
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    const logins = api.calls.filter((call) => call.route === 'POST /auth/login');
    expect(logins.map((call) => (call.body as { turnstileToken: string }).turnstileToken)).toEqual([
      'bot-1',
      'bot-2',
    ]);
    expect(localStorage.getItem('auth_token')).toBe('tok');
    expect(localStorage.getItem('current_user_id')).toBe('fan@example.com');
    // SPEC §4: the temporary LIFX token moves to the user's own key.
    expect(localStorage.getItem('lifx_token_fan@example.com')).toBe('lifx-abc');
    expect(localStorage.getItem('lifx_token_temp')).toBeNull();
  });

  test.each([
    ['a network failure shows its message', new TypeError('Failed to fetch'), 'Failed to fetch'],
    ['a server failure without text gives Login failed', { status: 500, body: {} }, 'Login failed'],
  ])('%s', async (_name, reply, text) => {
    stubApi({ ...baseRoutes(), 'POST /auth/login': reply });
    renderApp('/login');
    await fillAndVerify('fan@example.com', 'secret');
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(text);
  });

  test.each([
    [
      'an e-mail confirmation link is honoured',
      '/verify-email?token=Ab_9-z',
      '/verify-email',
      '?token=Ab_9-z',
    ],
    ['another origin (//evil.example) is ignored', '//evil.example', '/dashboard', ''],
    ['an absolute URL is ignored', 'https://evil.example/verify-email?token=x', '/dashboard', ''],
    ['another in-app page (/admin) is ignored', '/admin', '/dashboard', ''],
    [
      'a confirmation link with more in it is ignored',
      '/verify-email?token=x&next=//evil.example',
      '/dashboard',
      '',
    ],
  ])('after sign-in, next: %s', async (_what, next, pathname, search) => {
    // An admin, so that /admin, were it honoured, would stay put rather than bounce to the dashboard.
    const user = buildUser({ email: 'fan@example.com', isAdmin: true });
    stubApi({
      ...baseRoutes(),
      'POST /auth/login': { body: { token: 'tok', user } },
      'GET /api/auth/me': { body: { user } },
      'POST /api/auth/verify-email': {
        body: { success: true, message: 'Your e-mail address is confirmed.' },
      },
    });
    const { router } = renderApp(`/login?next=${encodeURIComponent(next)}`);
    const visited = new Set<string>();
    router.subscribe((state) => visited.add(state.location.pathname));
    await fillAndVerify('fan@example.com', 'secret');
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    await waitFor(() => expect(router.state.location).toMatchObject({ pathname, search }));
    // Straight there: no stop on the way (a redirect guard would hide an honoured bad path).
    expect([...visited]).toEqual([pathname]);
  });

  test('Forgot your password? shows the e-mail-only view and Back to Login returns', async () => {
    stubApi({ ...baseRoutes(), 'POST /auth/forgot-password': { status: 500, body: {} } });
    renderApp('/login');
    await userEvent.click(await screen.findByRole('button', { name: 'Forgot your password?' }, SCREEN_WAIT));
    expect(screen.getByRole('heading', { level: 1, name: 'Forgot Password' })).toBeInTheDocument();
    expect(screen.queryByLabelText('Password')).not.toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Email'), 'fan@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Send Reset Link' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to send reset email');
    await userEvent.click(screen.getByRole('button', { name: 'Back to Login' }));
    expect(screen.getByRole('heading', { level: 1, name: 'Sign In' })).toBeInTheDocument();
  });
});

describe('sign up', () => {
  test('mode=signup opens sign-up; weak passwords get the SPEC §5 texts', async () => {
    const api = stubApi(baseRoutes());
    renderApp('/login?mode=signup');
    await fillAndVerify('fan@example.com', 'Ab1!');
    await userEvent.click(screen.getByRole('button', { name: 'Create Account' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Password must be at least 8 characters long');
    await userEvent.clear(screen.getByLabelText('Password'));
    await userEvent.type(screen.getByLabelText('Password'), 'abcdefg1');
    await userEvent.click(screen.getByRole('button', { name: 'Create Account' }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent(WEAK));
    expect(api.calls.some((call) => call.route === 'POST /auth/signup')).toBe(false);
  });

  test.each([
    [
      'the server error',
      { status: 409, body: { error: 'An account with this email already exists.' } },
      'An account with this email already exists.',
    ],
    ['Signup failed without one', { status: 500, body: {} }, 'Signup failed'],
  ])('a failed sign-up shows %s', async (_name, reply, text) => {
    stubApi({ ...baseRoutes(), 'POST /auth/signup': reply });
    renderApp('/login?mode=signup');
    await fillAndVerify('fan@example.com', 'Abcdef1!');
    await userEvent.click(screen.getByRole('button', { name: 'Create Account' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(text);
  });
});
