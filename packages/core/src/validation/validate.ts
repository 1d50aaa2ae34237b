import { DELAY_MAX_SECONDS, DELAY_MIN_SECONDS, PASSWORD_MIN_LENGTH } from '../constants.js';
import { VALIDATION_MESSAGES as M } from './messages.js';

/** An expected outcome: a value, or an error text (SPEC §5). */
export type Result<T> = { ok: true; value: T } | { ok: false; error: string };

const ok = <T>(value: T): Result<T> => ({ ok: true, value });
const err = <T>(error: string): Result<T> => ({ ok: false, error });

const asText = (value: unknown): string => (typeof value === 'string' ? value : '');

// One @, no spaces, a dot in the domain: SPEC §5 "pattern {email}, no spaces".
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const STRONG_SPECIALS = /[@$!%*?&]/;

/** SPEC §5 e-mail: required, the e-mail pattern, no spaces. Surrounding spaces are trimmed. */
export function validateEmail(input: unknown): Result<string> {
  const email = asText(input).trim();
  if (email === '') return err(M.emailRequired);
  return EMAIL_PATTERN.test(email) ? ok(email) : err(M.emailInvalid);
}

/** SPEC §5 password reading (a): at least 8 characters with a letter and a digit. */
export function validatePasswordBasic(input: unknown): Result<string> {
  const password = asText(input);
  if (password.length < PASSWORD_MIN_LENGTH) return err(M.passwordTooShort);
  if (!/[A-Za-z]/.test(password) || !/\d/.test(password)) return err(M.passwordNeedsLetterAndDigit);
  return ok(password);
}

/** SPEC §5 password reading (b), used by sign-up and reset: 8+ with upper, lower, number and one of @$!%*?&. */
export function validatePasswordStrong(input: unknown): Result<string> {
  const password = asText(input);
  if (password.length < PASSWORD_MIN_LENGTH) return err(M.passwordTooShort);
  const strong =
    /[A-Z]/.test(password) && /[a-z]/.test(password) && /\d/.test(password) && STRONG_SPECIALS.test(password);
  return strong ? ok(password) : err(M.passwordTooWeak);
}

/** DESIGN §6: login accepts any non-empty password; the bot check must be done first. */
export function validateLoginForm(form: { email?: unknown; password?: unknown; botToken?: unknown }): Result<{
  email: string;
  password: string;
  botToken: string;
}> {
  const botToken = asText(form.botToken);
  if (botToken === '') return err(M.botCheckRequired);
  const email = validateEmail(form.email);
  if (!email.ok) return email;
  const password = asText(form.password);
  if (password === '') return err(M.passwordRequired);
  return ok({ email: email.value, password, botToken });
}

/** Sign-up: the bot check, an e-mail, and a reading-(b) password. */
export function validateSignupForm(form: {
  email?: unknown;
  password?: unknown;
  botToken?: unknown;
}): Result<{
  email: string;
  password: string;
  botToken: string;
}> {
  const login = validateLoginForm(form);
  if (!login.ok) return login;
  const password = validatePasswordStrong(login.value.password);
  return password.ok ? login : password;
}

/** SPEC §5 reset form: token present, passwords match, reading (b). */
export function validateResetForm(form: {
  token?: unknown;
  password?: unknown;
  confirmPassword?: unknown;
}): Result<{
  token: string;
  password: string;
}> {
  const token = asText(form.token).trim();
  if (token === '') return err(M.invalidResetLink);
  const password = asText(form.password);
  if (password !== asText(form.confirmPassword)) return err(M.passwordsDoNotMatch);
  const strong = validatePasswordStrong(password);
  return strong.ok ? ok({ token, password }) : strong;
}

/** SPEC §5 licence key: only a blank key is refused; no format check. */
export function validateLicenseKey(input: unknown): Result<string> {
  const key = asText(input).trim();
  return key === '' ? err(M.licenseKeyRequired) : ok(key);
}

/** SPEC §5 application key: not blank, else 'Please enter an application key.' */
export function validateApplicationKey(input: unknown): Result<string> {
  const key = asText(input).trim();
  return key === '' ? err(M.applicationKeyRequired) : ok(key);
}

/** SPEC §5 cloud token input: trimmed; blank disables submit. */
export function normaliseCloudToken(input: unknown): string {
  return asText(input).trim();
}

/** True when the cloud token field may be submitted. */
export function canSubmitCloudToken(
  input: unknown,
  { loading = false }: { loading?: boolean } = {},
): boolean {
  return !loading && normaliseCloudToken(input) !== '';
}

/** True when the licence key field may be submitted (blank or loading disables it). */
export function canSubmitLicenseKey(
  input: unknown,
  { loading = false }: { loading?: boolean } = {},
): boolean {
  return !loading && asText(input).trim() !== '';
}

/** SPEC §5: sending to LIFX needs a token, else 'LIFX API token not set'. */
export function requireLifxToken(input: unknown): Result<string> {
  const token = normaliseCloudToken(input);
  return token === '' ? err(M.lifxTokenNotSet) : ok(token);
}

/** SPEC §5 slider: whole numbers from 0 to 60. */
export function validateDelaySlider(input: unknown): Result<number> {
  if (typeof input !== 'number' || !Number.isInteger(input)) return err(M.delayNotWholeNumber);
  if (input < DELAY_MIN_SECONDS || input > DELAY_MAX_SECONDS) return err(M.delayOutOfRange);
  return ok(input);
}

/** SPEC §5 number input: any non-negative number (text is parsed). */
export function validateDelayInput(input: unknown): Result<number> {
  const value = typeof input === 'string' && input.trim() !== '' ? Number(input) : input;
  if (typeof value !== 'number' || !Number.isFinite(value)) return err(M.delayNotWholeNumber);
  return value < 0 ? err(M.delayNegative) : ok(value);
}

/** SPEC §5: the selection is pruned to ids that still exist, keeping its order. */
export function pruneLightSelection(selected: readonly string[], existingIds: readonly string[]): string[] {
  const existing = new Set(existingIds);
  return [...new Set(selected)].filter((id) => existing.has(id));
}

/** SPEC §5: setting a flag needs a connected provider and at least one selected light. */
export function canSetFlag({
  connected,
  selectedIds,
}: {
  connected: boolean;
  selectedIds: readonly string[];
}): boolean {
  return connected && selectedIds.length > 0;
}
