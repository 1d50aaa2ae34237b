import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { stubApi } from '../../test/fetch-stub';
import { buildUser, seedSession } from '../../test/users';
import { AuthContext, type AuthContextValue } from '../auth/auth-context';
import type { User } from '../auth/user';
import { VERIFY_EMAIL_TEXTS, VerifyEmailPrompt } from './VerifyEmailPrompt';

afterEach(() => vi.restoreAllMocks());

function renderPrompt(user: User, refreshUser = vi.fn(() => Promise.resolve(user))) {
  // Only the fields the prompt reads; the rest of the context is the provider's.
  const auth = { user, refreshUser, token: 't', isAuthenticated: true } as unknown as AuthContextValue;
  render(
    <AuthContext.Provider value={auth}>
      <VerifyEmailPrompt />
    </AuthContext.Provider>,
  );
  return { refreshUser };
}

const unconfirmed = buildUser({ email: 'new.fan@example.com', emailVerified: false });
const prompt = () => screen.queryByRole('region', { name: VERIFY_EMAIL_TEXTS.title });
const resend = () => screen.getByRole('button', { name: VERIFY_EMAIL_TEXTS.resend });

describe('the Confirm your e-mail prompt', () => {
  test('an unconfirmed address sees it, naming the address; Resend e-mail sends the link again', async () => {
    const api = stubApi({
      'POST /api/auth/resend-verification': {
        body: { sent: true, message: 'A new confirmation link is on its way. Check your inbox.' },
      },
    });
    seedSession(unconfirmed);
    renderPrompt(unconfirmed);
    expect(prompt()).toHaveTextContent('We sent a link to new.fan@example.com.');
    expect(screen.getByRole('status')).toBeEmptyDOMElement();
    fireEvent.click(resend());
    expect(await screen.findByText('A new confirmation link is on its way. Check your inbox.')).toBeVisible();
    expect(screen.getByRole('status')).toHaveTextContent('on its way');
    expect(api.calls.map((call) => call.route)).toEqual(['POST /api/auth/resend-verification']);
    expect(api.calls[0]?.headers.Authorization).toBe('Bearer test-session-token');
  });

  test('over the limit, the server says how long to wait', async () => {
    stubApi({
      'POST /api/auth/resend-verification': {
        status: 429,
        body: { error: 'Too many requests. Please wait 50 minutes and try again.', code: 'rate_limited' },
      },
    });
    renderPrompt(unconfirmed);
    fireEvent.click(resend());
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Too many requests. Please wait 50 minutes and try again.',
    );
    expect(resend()).toBeEnabled();
  });

  test('confirmed meanwhile on another device: the user is read again', async () => {
    stubApi({
      'POST /api/auth/resend-verification': {
        body: { sent: false, message: 'Your e-mail address is already confirmed.' },
      },
    });
    const { refreshUser } = renderPrompt(unconfirmed);
    fireEvent.click(resend());
    await waitFor(() => expect(refreshUser).toHaveBeenCalledTimes(1));
  });

  test.each([
    ['a confirmed address', buildUser({ emailVerified: true })],
    ['a user stored by an older build (not known)', buildUser()],
  ])('%s sees nothing', (_who, user) => {
    renderPrompt(user);
    expect(prompt()).toBeNull();
  });
});
