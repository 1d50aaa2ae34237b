import { hash, verify } from '@node-rs/argon2';

// @node-rs/argon2 defaults to argon2id with m=19456 KiB, t=2, p=1 (OWASP's recommendation).
export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

/** True when the password matches; a malformed stored hash counts as a mismatch. */
export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

// Verifying against a real hash when the e-mail is unknown keeps login timing uniform.
let dummyHash: Promise<string> | undefined;
export function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hash('flaglight-timing-equaliser');
  return dummyHash;
}
