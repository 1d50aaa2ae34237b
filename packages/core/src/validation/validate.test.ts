import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { VALIDATION_MESSAGES } from './messages.js';
import {
  canSetFlag,
  canSubmitCloudToken,
  canSubmitLicenseKey,
  normaliseCloudToken,
  pruneLightSelection,
  requireLifxToken,
  validateApplicationKey,
  validateDelayInput,
  validateDelaySlider,
  validateEmail,
  validateLicenseKey,
  validateLoginForm,
  validatePasswordBasic,
  validatePasswordStrong,
  validateResetForm,
  validateSignupForm,
} from './validate.js';

describe('SPEC §5 texts are verbatim', () => {
  test.each([
    ['botCheckRequired', 'Please complete the security verification'],
    ['passwordsDoNotMatch', 'Passwords do not match'],
    ['passwordTooShort', 'Password must be at least 8 characters long'],
    [
      'passwordTooWeak',
      'Password must contain at least one uppercase letter, one lowercase letter, one number, and one special character (@$!%*?&)',
    ],
    ['invalidResetLink', 'Invalid reset link. Please request a new password reset.'],
    ['applicationKeyRequired', 'Please enter an application key.'],
    ['lifxTokenNotSet', 'LIFX API token not set'],
    ['popupBlocked', 'Popup blocked. Please allow popups for this site.'],
  ] as const)('%s', (key, text) => {
    expect(VALIDATION_MESSAGES[key]).toBe(text);
  });
});

describe('e-mail', () => {
  test.each(['fan@example.com', ' fan@example.com ', 'a.b+c@x.co.uk'])('accepts %j', (email) => {
    expect(validateEmail(email)).toEqual({ ok: true, value: email.trim() });
  });
  test.each(['', 'fan', 'fan@', 'fan @example.com', 'fan@example', '@example.com', 'a@b@c.com'])(
    'refuses %j',
    (email) => {
      expect(validateEmail(email).ok).toBe(false);
    },
  );
});

describe('passwords', () => {
  test('reading (a): 8+ characters with a letter and a digit', () => {
    expect(validatePasswordBasic('abcdefg1')).toEqual({ ok: true, value: 'abcdefg1' });
    expect(validatePasswordBasic('abc1')).toEqual({ ok: false, error: VALIDATION_MESSAGES.passwordTooShort });
    expect(validatePasswordBasic('abcdefgh').ok).toBe(false);
    expect(validatePasswordBasic('12345678').ok).toBe(false);
  });

  test('reading (b): 8+ with upper, lower, number and one of @$!%*?&', () => {
    expect(validatePasswordStrong('Abcdef1!')).toEqual({ ok: true, value: 'Abcdef1!' });
    expect(validatePasswordStrong('Ab1!')).toEqual({
      ok: false,
      error: 'Password must be at least 8 characters long',
    });
    for (const weak of ['abcdef1!', 'ABCDEF1!', 'Abcdefg!', 'Abcdefg1', 'Abcdef1#']) {
      expect(validatePasswordStrong(weak)).toEqual({ ok: false, error: VALIDATION_MESSAGES.passwordTooWeak });
    }
  });
});

describe('forms', () => {
  test('login needs the bot check first', () => {
    expect(validateLoginForm({ email: 'fan@example.com', password: 'x' })).toEqual({
      ok: false,
      error: 'Please complete the security verification',
    });
  });

  test('login accepts any non-empty password', () => {
    expect(validateLoginForm({ email: 'fan@example.com', password: 'x', botToken: 't' })).toEqual({
      ok: true,
      value: { email: 'fan@example.com', password: 'x', botToken: 't' },
    });
    expect(validateLoginForm({ email: 'fan@example.com', password: '', botToken: 't' }).ok).toBe(false);
    expect(validateLoginForm({ email: 'nope', password: 'x', botToken: 't' }).ok).toBe(false);
  });

  test('sign-up demands reading (b)', () => {
    expect(validateSignupForm({ email: 'fan@example.com', password: 'abcdefg1', botToken: 't' })).toEqual({
      ok: false,
      error: VALIDATION_MESSAGES.passwordTooWeak,
    });
    expect(validateSignupForm({ email: 'fan@example.com', password: 'Abcdef1!', botToken: 't' }).ok).toBe(
      true,
    );
    expect(validateSignupForm({ email: 'fan@example.com', password: 'Abcdef1!' }).ok).toBe(false);
  });

  test('reset: a missing token is an invalid link', () => {
    expect(validateResetForm({ password: 'Abcdef1!', confirmPassword: 'Abcdef1!' })).toEqual({
      ok: false,
      error: 'Invalid reset link. Please request a new password reset.',
    });
  });

  test('reset: passwords must match, then reading (b)', () => {
    expect(validateResetForm({ token: 't', password: 'Abcdef1!', confirmPassword: 'Abcdef1?' })).toEqual({
      ok: false,
      error: 'Passwords do not match',
    });
    expect(validateResetForm({ token: 't', password: 'short', confirmPassword: 'short' })).toEqual({
      ok: false,
      error: 'Password must be at least 8 characters long',
    });
    expect(validateResetForm({ token: 't', password: 'Abcdef1!', confirmPassword: 'Abcdef1!' })).toEqual({
      ok: true,
      value: { token: 't', password: 'Abcdef1!' },
    });
  });
});

describe('keys and tokens', () => {
  test('licence key: only blank is refused, no format check', () => {
    expect(validateLicenseKey('anything')).toEqual({ ok: true, value: 'anything' });
    expect(validateLicenseKey('  ').ok).toBe(false);
    expect(canSubmitLicenseKey('ABCD')).toBe(true);
    expect(canSubmitLicenseKey('')).toBe(false);
    expect(canSubmitLicenseKey('ABCD', { loading: true })).toBe(false);
  });

  test("application key: blank gives 'Please enter an application key.'", () => {
    expect(validateApplicationKey(' ')).toEqual({ ok: false, error: 'Please enter an application key.' });
    expect(validateApplicationKey(' key ')).toEqual({ ok: true, value: 'key' });
  });

  test('cloud token is trimmed and blank disables submit', () => {
    expect(normaliseCloudToken('  c0ffee \n')).toBe('c0ffee');
    expect(canSubmitCloudToken('   ')).toBe(false);
    expect(canSubmitCloudToken('tok')).toBe(true);
    expect(canSubmitCloudToken('tok', { loading: true })).toBe(false);
  });

  test("sending needs a LIFX token, else 'LIFX API token not set'", () => {
    expect(requireLifxToken('')).toEqual({ ok: false, error: 'LIFX API token not set' });
    expect(requireLifxToken(null)).toEqual({ ok: false, error: 'LIFX API token not set' });
    expect(requireLifxToken(' t ')).toEqual({ ok: true, value: 't' });
  });
});

describe('delay inputs', () => {
  test('slider: whole numbers 0 to 60', () => {
    expect(validateDelaySlider(0)).toEqual({ ok: true, value: 0 });
    expect(validateDelaySlider(60)).toEqual({ ok: true, value: 60 });
    expect(validateDelaySlider(61).ok).toBe(false);
    expect(validateDelaySlider(-1).ok).toBe(false);
    expect(validateDelaySlider(2.5).ok).toBe(false);
    expect(validateDelaySlider('5').ok).toBe(false);
  });

  test('number input: any non-negative number', () => {
    expect(validateDelayInput(90)).toEqual({ ok: true, value: 90 });
    expect(validateDelayInput('2.5')).toEqual({ ok: true, value: 2.5 });
    expect(validateDelayInput(-1)).toEqual({ ok: false, error: VALIDATION_MESSAGES.delayNegative });
    expect(validateDelayInput('abc').ok).toBe(false);
    expect(validateDelayInput('').ok).toBe(false);
    expect(validateDelayInput(Number.NaN).ok).toBe(false);
  });
});

describe('light selection', () => {
  test('is pruned to ids that still exist, once each', () => {
    expect(pruneLightSelection(['a', 'b', 'a', 'gone'], ['b', 'a', 'c'])).toEqual(['a', 'b']);
  });

  test('setting a flag needs a connected provider and a selected light', () => {
    expect(canSetFlag({ connected: true, selectedIds: ['a'] })).toBe(true);
    expect(canSetFlag({ connected: false, selectedIds: ['a'] })).toBe(false);
    expect(canSetFlag({ connected: true, selectedIds: [] })).toBe(false);
  });
});

describe('validation never throws on any string', () => {
  test('every validator returns a result', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), fc.anything(), (a, b, anything) => {
        for (const value of [a, anything]) {
          for (const validate of [
            validateEmail,
            validatePasswordBasic,
            validatePasswordStrong,
            validateLicenseKey,
            validateApplicationKey,
            requireLifxToken,
            validateDelayInput,
            validateDelaySlider,
          ]) {
            const result = validate(value);
            expect(typeof result.ok).toBe('boolean');
          }
        }
        expect(typeof validateResetForm({ token: a, password: b, confirmPassword: b }).ok).toBe('boolean');
        expect(typeof validateSignupForm({ email: a, password: b, botToken: a }).ok).toBe('boolean');
      }),
    );
  });

  test('a strong password is exactly one passing reading (b)', () => {
    fc.assert(
      fc.property(fc.string(), (password) => {
        const result = validatePasswordStrong(password);
        const expected =
          password.length >= 8 &&
          /[A-Z]/.test(password) &&
          /[a-z]/.test(password) &&
          /\d/.test(password) &&
          /[@$!%*?&]/.test(password);
        expect(result.ok).toBe(expected);
      }),
    );
  });
});
