import { apiRequest } from '../api/client';
import { parseUser, type User } from './user';

/** The auth calls of SPEC §7, each returning the parsed answer or throwing an ApiError. */

export interface AuthResult {
  token: string;
  user: User;
}

export interface Credentials {
  email: string;
  password: string;
  turnstileToken: string;
}

function toAuthResult(body: unknown): AuthResult {
  const { token, user } = (body ?? {}) as { token?: unknown; user?: unknown };
  const parsed = parseUser(user);
  if (typeof token !== 'string' || token === '' || !parsed) throw new Error('The server sent no session');
  return { token, user: parsed };
}

function toUserResult(body: unknown): User {
  const parsed = parseUser((body as { user?: unknown } | undefined)?.user);
  if (!parsed) throw new Error('The server sent no user');
  return parsed;
}

/** POST /auth/login; the test login uses /api/auth/login (SPEC §7). */
export async function loginRequest(
  credentials: Credentials,
  path: '/auth/login' | '/api/auth/login' = '/auth/login',
): Promise<AuthResult> {
  return toAuthResult(await apiRequest(path, { body: credentials, token: null }));
}

export async function signupRequest(credentials: Credentials): Promise<AuthResult> {
  return toAuthResult(
    await apiRequest('/auth/signup', { body: { ...credentials, plan: 'trial' }, token: null }),
  );
}

export async function fetchMe(token?: string | null, signal?: AbortSignal): Promise<User> {
  return toUserResult(await apiRequest('/api/auth/me', { token, signal }));
}

/** Ends the session on the server too (DESIGN §9: tokens are revocable). */
export async function logoutRequest(token: string): Promise<void> {
  await apiRequest('/auth/logout', { method: 'POST', token });
}

export async function forgotPasswordRequest(email: string): Promise<string> {
  const body = await apiRequest<{ message?: unknown }>('/auth/forgot-password', {
    body: { email },
    token: null,
  });
  return typeof body?.message === 'string' ? body.message : '';
}

export async function resetPasswordRequest(form: {
  token: string;
  password: string;
  confirmPassword: string;
}): Promise<string> {
  const body = await apiRequest<{ message?: unknown }>('/auth/reset-password', { body: form, token: null });
  return typeof body?.message === 'string' ? body.message : '';
}

export { toUserResult };
