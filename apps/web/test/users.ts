import type { User } from '../src/auth/user';

export function buildUser(overrides: Partial<User> = {}): User {
  return {
    id: 1,
    email: 'fan@example.com',
    plan: 'trial',
    isAdmin: false,
    createdAt: '2025-03-01T10:00:00.000Z',
    lastLogin: null,
    // A trial that is still running: an expired one opens the Trial Expired modal over the dashboard.
    trialExpires: '2099-01-01T00:00:00.000Z',
    ...overrides,
  };
}

/** Puts a session in storage the way a login leaves it (SPEC §3 Browser storage). */
export function seedSession(user: User = buildUser(), token = 'test-session-token'): void {
  window.localStorage.setItem('auth_token', token);
  window.localStorage.setItem('user', JSON.stringify(user));
  window.localStorage.setItem('current_user_id', user.email);
}
