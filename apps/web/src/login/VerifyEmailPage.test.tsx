import { screen } from '@testing-library/react';
import { afterEach, expect, test, vi } from 'vitest';
import { stubApi } from '../../test/fetch-stub';
import { renderApp } from '../../test/render-app';
import { buildUser, seedSession } from '../../test/users';
import { VERIFY_PAGE_TEXTS } from './VerifyEmailPage';

afterEach(() => vi.restoreAllMocks());

test('the link confirms the address once and says so; a signed-in user is read again', async () => {
  const confirmed = buildUser({ emailVerified: true });
  seedSession(buildUser({ emailVerified: false }));
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
});

test('a spent or expired link shows the server text and, signed out, the way to sign in', async () => {
  stubApi({
    'POST /api/auth/verify-email': {
      status: 400,
      body: { error: 'This confirmation link is invalid, used or expired.', code: 'invalid_input' },
    },
  });
  renderApp('/verify-email?token=tok-2');
  expect(await screen.findByRole('alert')).toHaveTextContent(
    'This confirmation link is invalid, used or expired.',
  );
  expect(screen.getByRole('link', { name: 'Sign In' })).toBeVisible();
});

test('a link without its token says so without asking the server', async () => {
  const api = stubApi({});
  renderApp('/verify-email');
  expect(await screen.findByRole('alert')).toHaveTextContent(VERIFY_PAGE_TEXTS.missingToken);
  expect(api.calls.filter((call) => call.route.includes('verify-email'))).toEqual([]);
});
