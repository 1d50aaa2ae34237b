import { ApiError } from '../api/client';

/** SPEC §8 texts of the account screens, verbatim, in one place. */
export const AUTH_TEXTS = {
  loginFailed: 'Login failed',
  unexpectedError: 'An unexpected error occurred',
  signupFailed: 'Signup failed',
  loginSuccessful: 'Login successful',
  resetEmailFailed: 'Failed to send reset email',
  resetFailed: 'Failed to reset password',
  refreshFailed: 'Failed to refresh user data',
  noToken: 'No authentication token found',
} as const;

/** The `error` text of a server answer, when there is one. */
export function serverErrorText(error: unknown): string | null {
  if (!(error instanceof ApiError)) return null;
  const body = error.body as { error?: unknown } | null | undefined;
  return typeof body?.error === 'string' && body.error.trim() !== '' ? body.error : null;
}

/**
 * SPEC §8 failure text: the server's error, else the exception's message, else `fallback`.
 * An ApiError without an error text falls back too (its message is only a status line).
 * Something thrown that is not an Error at all gives `unexpected`.
 */
export function describeFailure(error: unknown, fallback: string, unexpected: string = fallback): string {
  const fromServer = serverErrorText(error);
  if (fromServer) return fromServer;
  if (error instanceof ApiError) return fallback;
  if (error instanceof Error) return error.message.trim() === '' ? fallback : error.message;
  return unexpected;
}
