import { describe, expect, test } from 'vitest';
import { buildUser } from '../../test/users';
import { clearStoredSession, migrateLegacyToken, readStoredSession, storeSession } from './auth-storage';

describe('migrateLegacyToken', () => {
  test('moves a token stored under the old key to auth_token', () => {
    localStorage.setItem('token', 'old-token');
    migrateLegacyToken();
    expect(localStorage.getItem('auth_token')).toBe('old-token');
    expect(localStorage.getItem('token')).toBeNull();
  });

  test('keeps a newer auth_token when both keys exist', () => {
    localStorage.setItem('token', 'old-token');
    localStorage.setItem('auth_token', 'new-token');
    migrateLegacyToken();
    expect(localStorage.getItem('auth_token')).toBe('new-token');
    expect(localStorage.getItem('token')).toBeNull();
  });
});

describe('readStoredSession', () => {
  test('is authenticated only when both a token and a user are stored', () => {
    const user = buildUser();
    expect(readStoredSession().status).toBe('anonymous');
    localStorage.setItem('auth_token', 'abc');
    expect(readStoredSession().status).toBe('anonymous');
    localStorage.setItem('user', JSON.stringify(user));
    expect(readStoredSession()).toEqual({ status: 'authenticated', session: { token: 'abc', user } });
  });

  test.each([
    ['not JSON', '{nope'],
    ['JSON that is not an object', '"fan@example.com"'],
    ['a user without an e-mail', JSON.stringify({ id: 1, plan: 'trial' })],
    ['a user with an unknown plan', JSON.stringify({ id: 1, email: 'a@b.co', plan: 'gold' })],
  ])('reports %s as corrupt', (_case, raw) => {
    localStorage.setItem('auth_token', 'abc');
    localStorage.setItem('user', raw);
    expect(readStoredSession().status).toBe('corrupt');
  });

  test('takes isAdmin only when the stored user says exactly true', () => {
    localStorage.setItem('auth_token', 'abc');
    localStorage.setItem('user', JSON.stringify({ ...buildUser(), isAdmin: 'yes' }));
    const result = readStoredSession();
    expect(result.status === 'authenticated' && result.session.user.isAdmin).toBe(false);
  });

  test('keeps emailVerified when it is a boolean, and leaves it unknown otherwise', () => {
    localStorage.setItem('auth_token', 'abc');
    const read = () => {
      const result = readStoredSession();
      return result.status === 'authenticated' ? result.session.user.emailVerified : 'not signed in';
    };
    localStorage.setItem('user', JSON.stringify(buildUser({ emailVerified: false })));
    expect(read()).toBe(false);
    localStorage.setItem('user', JSON.stringify({ ...buildUser(), emailVerified: 'no' }));
    expect(read()).toBeUndefined();
  });
});

test('storeSession writes token, user and the e-mail as current_user_id; clearStoredSession removes them', () => {
  const user = buildUser({ email: 'lights@example.com' });
  storeSession({ token: 't1', user });
  expect(localStorage.getItem('auth_token')).toBe('t1');
  expect(JSON.parse(localStorage.getItem('user') ?? 'null')).toEqual(user);
  expect(localStorage.getItem('current_user_id')).toBe('lights@example.com');
  clearStoredSession();
  expect(localStorage.length).toBe(0);
});
