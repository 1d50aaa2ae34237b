/** SPEC §5 validation texts, verbatim. */
export const VALIDATION_MESSAGES = {
  botCheckRequired: 'Please complete the security verification',
  emailRequired: 'Email is required',
  emailInvalid: 'Please enter a valid email address',
  passwordRequired: 'Password is required',
  passwordsDoNotMatch: 'Passwords do not match',
  passwordTooShort: 'Password must be at least 8 characters long',
  passwordTooWeak:
    'Password must contain at least one uppercase letter, one lowercase letter, one number, and one special character (@$!%*?&)',
  passwordNeedsLetterAndDigit: 'Password must contain at least one letter and one number',
  invalidResetLink: 'Invalid reset link. Please request a new password reset.',
  applicationKeyRequired: 'Please enter an application key.',
  lifxTokenNotSet: 'LIFX API token not set',
  licenseKeyRequired: 'Please enter a license key.',
  delayNotWholeNumber: 'Delay must be a whole number of seconds',
  delayOutOfRange: 'Delay must be between 0 and 60 seconds',
  delayNegative: 'Delay cannot be negative',
  popupBlocked: 'Popup blocked. Please allow popups for this site.',
} as const;
