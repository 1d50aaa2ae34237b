// The code a user types to link a companion: drawn, shown and read back.
import crypto from 'node:crypto';
import { USER_CODE_ALPHABET, USER_CODE_LENGTH } from '@flaglight/contract';

/** `BCDF-GHJK` for show; the stored form has no dash. */
export function formatUserCode(code: string): string {
  return `${code.slice(0, 4)}-${code.slice(4)}`;
}

/** A user code as typed (any case, dash or spaces) in its stored form, or null when it cannot be one. */
export function normalizeUserCode(input: string): string | null {
  const letters = input.toUpperCase().replace(/[\s-]/g, '');
  if (letters.length !== USER_CODE_LENGTH) return null;
  return [...letters].every((c) => USER_CODE_ALPHABET.includes(c)) ? letters : null;
}

export function drawUserCode(): string {
  let code = '';
  for (let i = 0; i < USER_CODE_LENGTH; i++)
    code += USER_CODE_ALPHABET[crypto.randomInt(USER_CODE_ALPHABET.length)];
  return code;
}
