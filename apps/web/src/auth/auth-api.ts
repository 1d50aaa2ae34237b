import type { AuthResponse, User } from '@flaglight/core';
import { apiCall } from '../api/client';

/** The auth calls of SPEC §7, each returning the server's answer or throwing an ApiError. */

export type AuthResult = AuthResponse;

export interface Credentials {
  email: string;
  password: string;
  turnstileToken: string;
}

/** POST /auth/login; the test login uses /api/auth/login (SPEC §7). */
export function loginRequest(
  credentials: Credentials,
  path: '/auth/login' | '/api/auth/login' = '/auth/login',
): Promise<AuthResult> {
  return apiCall(`POST ${path}`, { body: credentials }, { token: null });
}

export function signupRequest(credentials: Credentials): Promise<AuthResult> {
  return apiCall('POST /auth/signup', { body: { ...credentials, plan: 'trial' } }, { token: null });
}

export async function fetchMe(token?: string | null, signal?: AbortSignal): Promise<User> {
  const { user } = await apiCall('GET /api/auth/me', undefined, { token, signal });
  return user;
}

/** Ends the session on the server too (DESIGN §9: tokens are revocable). */
export async function logoutRequest(token: string): Promise<void> {
  await apiCall('POST /auth/logout', undefined, { token });
}

export async function forgotPasswordRequest(email: string): Promise<string> {
  const { message } = await apiCall('POST /auth/forgot-password', { body: { email } }, { token: null });
  return message;
}

export async function resetPasswordRequest(form: {
  token: string;
  password: string;
  confirmPassword: string;
}): Promise<string> {
  const { message } = await apiCall('POST /auth/reset-password', { body: form }, { token: null });
  return message;
}

/**
 * Confirms the signed-in account's e-mail address with the token of the link sent at sign-up
 * (works once, and only for the account `session` belongs to).
 */
export async function verifyEmailRequest(token: string, session: string): Promise<string> {
  const { message } = await apiCall('POST /api/auth/verify-email', { body: { token } }, { token: session });
  return message;
}

/** Sends the confirmation link again; the server allows a few an hour (429 beyond). */
export async function resendVerificationRequest(): Promise<{ sent: boolean; message: string }> {
  return apiCall('POST /api/auth/resend-verification');
}
