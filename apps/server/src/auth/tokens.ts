import crypto from 'node:crypto';

/** A random opaque token (256 bits, base64url) for sessions and reset links. */
export function createToken(): string {
  return crypto.randomBytes(32).toString('base64url');
}

/** Tokens are stored only as their SHA-256 digest. */
export function hashToken(token: string): string {
  return crypto.createHash('sha256').update(token).digest('hex');
}
