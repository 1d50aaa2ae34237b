// The account texts the server answers with (SPEC §8).
export const AUTH_MESSAGES = {
  invalidCredentials: 'Invalid email or password',
  emailTaken: 'An account with this email already exists. Sign in instead.',
  noToken: 'No authentication token found',
  sessionExpired: 'Your session has expired. Please sign in again.',
  resetLinkInvalid: 'This reset link is invalid or has expired. Please request a new password reset.',
  resetRequested: 'If an account exists for that email, a password reset link is on its way.',
  passwordUpdated: 'Your password has been reset. You can now sign in.',
  verifyLinkInvalid:
    'This confirmation link is invalid, used or expired. Sign in and send a new one from the dashboard.',
  verifyLinkOtherAccount:
    'This confirmation link belongs to another account. Sign in with the account that signed up with this address, then open the link again.',
  emailVerified: 'Your e-mail address is confirmed. Thank you!',
  verificationSent: 'A new confirmation link is on its way. Check your inbox.',
  alreadyVerified: 'Your e-mail address is already confirmed.',
} as const;
