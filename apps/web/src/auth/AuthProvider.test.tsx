import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { stubApi } from '../../test/fetch-stub';
import { buildUser, seedSession } from '../../test/users';
import { useAuth, type AuthContextValue } from './auth-context';
import { AuthProvider, FOCUS_PLAN_CHECK_MS, TRIAL_PLAN_CHECK_MS } from './AuthProvider';

function renderAuth() {
  const seen: AuthContextValue[] = [];
  function Probe() {
    const auth = useAuth();
    seen.push(auth);
    return <p>{auth.loading ? 'loading' : auth.isAuthenticated ? `in:${auth.user?.email}` : 'out'}</p>;
  }
  render(
    <AuthProvider>
      <Probe />
    </AuthProvider>,
  );
  return { seen, latest: () => seen[seen.length - 1]! };
}

describe('AuthProvider start-up restore (SPEC §4 Session)', () => {
  afterEach(() => vi.restoreAllMocks());

  test('starts loading, then restores a stored token and user as authenticated', async () => {
    seedSession(buildUser({ email: 'fan@example.com' }));
    const { seen, latest } = renderAuth();
    expect(seen[0]?.loading).toBe(true);
    expect(await screen.findByText('in:fan@example.com')).toBeInTheDocument();
    expect(latest()).toMatchObject({ loading: false, isAuthenticated: true, token: 'test-session-token' });
  });

  test('ends loading signed out when nothing is stored', async () => {
    const { latest } = renderAuth();
    expect(await screen.findByText('out')).toBeInTheDocument();
    expect(latest().loading).toBe(false);
  });

  test('moves a token under the old `token` key to auth_token and signs in with it', async () => {
    localStorage.setItem('token', 'legacy-token');
    localStorage.setItem('user', JSON.stringify(buildUser()));
    const { latest } = renderAuth();
    await screen.findByText('in:fan@example.com');
    expect(latest().token).toBe('legacy-token');
    expect(localStorage.getItem('auth_token')).toBe('legacy-token');
    expect(localStorage.getItem('token')).toBeNull();
  });

  test('corrupt stored data signs out silently and clears the stored session', async () => {
    localStorage.setItem('auth_token', 'abc');
    localStorage.setItem('user', '{not json');
    localStorage.setItem('current_user_id', 'fan@example.com');
    renderAuth();
    expect(await screen.findByText('out')).toBeInTheDocument();
    expect(localStorage.getItem('auth_token')).toBeNull();
    expect(localStorage.getItem('user')).toBeNull();
    expect(localStorage.getItem('current_user_id')).toBeNull();
  });

  test('isAdmin comes from the stored user only', async () => {
    seedSession(buildUser({ email: 'boss@example.com', isAdmin: true }));
    const { latest } = renderAuth();
    await screen.findByText('in:boss@example.com');
    expect(latest().isAdmin).toBe(true);
  });
});

describe('login and logout', () => {
  test('login stores the session; logout clears it', async () => {
    const { latest } = renderAuth();
    await screen.findByText('out');
    const user = buildUser({ email: 'new@example.com', plan: 'lifetime' });
    act(() => latest().login('fresh-token', user));
    expect(screen.getByText('in:new@example.com')).toBeInTheDocument();
    expect(localStorage.getItem('auth_token')).toBe('fresh-token');
    expect(localStorage.getItem('current_user_id')).toBe('new@example.com');

    act(() => latest().logout());
    expect(screen.getByText('out')).toBeInTheDocument();
    expect(localStorage.getItem('auth_token')).toBeNull();
    expect(localStorage.getItem('user')).toBeNull();
    expect(localStorage.getItem('current_user_id')).toBeNull();
  });

  test('a sign-out in another tab signs this one out', async () => {
    seedSession();
    renderAuth();
    await screen.findByText('in:fan@example.com');
    localStorage.clear();
    act(() => {
      window.dispatchEvent(new StorageEvent('storage', { key: 'auth_token' }));
    });
    expect(screen.getByText('out')).toBeInTheDocument();
  });

  test('a token the server calls unauthenticated signs out silently', async () => {
    seedSession();
    stubApi({
      'GET /api/auth/me': {
        status: 401,
        body: { error: 'Invalid or expired token', code: 'unauthenticated' },
      },
    });
    renderAuth();
    expect(await screen.findByText('out')).toBeInTheDocument();
    expect(localStorage.getItem('auth_token')).toBeNull();
  });

  test('a server that cannot check the token keeps the session', async () => {
    seedSession();
    const api = stubApi({
      'GET /api/auth/me': { status: 503, body: { error: 'Try again shortly', code: 'service_unavailable' } },
    });
    renderAuth();
    await screen.findByText('in:fan@example.com');
    await vi.waitFor(() => expect(api.calls.some((call) => call.route === 'GET /api/auth/me')).toBe(true));
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 0));
    });
    expect(screen.getByText('in:fan@example.com')).toBeInTheDocument();
    expect(localStorage.getItem('auth_token')).toBe('test-session-token');
  });
});

describe('AuthProvider: a plan changed elsewhere shows without a reload', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  function planServer(initial: 'trial' | 'lifetime') {
    let plan = initial;
    const api = stubApi({
      'GET /api/auth/me': () => ({ body: { success: true, user: buildUser({ plan }) } }),
    });
    return { api, setPlan: (next: 'trial' | 'lifetime') => (plan = next), asked: () => api.calls.length };
  }

  test('a trial page learns of an upgrade (an admin grant, a checkout in another tab) within a minute', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    seedSession(buildUser({ plan: 'trial' }));
    const server = planServer('trial');
    const { latest } = renderAuth();
    await vi.waitFor(() => expect(server.asked()).toBe(1));
    server.setPlan('lifetime');
    await act(() => vi.advanceTimersByTimeAsync(TRIAL_PLAN_CHECK_MS));
    await vi.waitFor(() => expect(latest().user?.plan).toBe('lifetime'));
    // Lifetime is for good: no more asking on a timer.
    const asked = server.asked();
    await act(() => vi.advanceTimersByTimeAsync(TRIAL_PLAN_CHECK_MS * 3));
    expect(server.asked()).toBe(asked);
  });

  test('a page coming back into view asks again, at most every FOCUS_PLAN_CHECK_MS', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    seedSession(buildUser({ plan: 'lifetime' }));
    const server = planServer('lifetime');
    renderAuth();
    await vi.waitFor(() => expect(server.asked()).toBe(1));
    act(() => void window.dispatchEvent(new Event('focus')));
    expect(server.asked()).toBe(1);
    await act(() => vi.advanceTimersByTimeAsync(FOCUS_PLAN_CHECK_MS));
    act(() => void window.dispatchEvent(new Event('focus')));
    act(() => void window.dispatchEvent(new Event('focus')));
    await vi.waitFor(() => expect(server.asked()).toBe(2));
  });
});
