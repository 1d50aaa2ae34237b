import crypto from 'node:crypto';
import { hashToken } from '../auth/tokens.js';

// No 0/O, 1/I/L: a key read aloud or typed from a receipt should not be ambiguous.
const ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

/** A licence key in the issued shape XXXX-XXXX-XXXX-XXXX. */
export function generateLicenceKey(): string {
  const bytes = crypto.randomBytes(16);
  const chars = [...bytes].map((b) => ALPHABET[b % ALPHABET.length]);
  return [0, 4, 8, 12].map((i) => chars.slice(i, i + 4).join('')).join('-');
}

/** Keys are compared case-insensitively and without spaces; only their digest is stored. */
export function hashLicenceKey(key: string): string {
  return hashToken(key.replace(/\s+/g, '').toUpperCase());
}
