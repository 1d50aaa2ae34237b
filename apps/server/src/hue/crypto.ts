import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ensurePrivateDir } from '../db/private-files.js';

const VERSION = 'v1';
const IV_BYTES = 12;
/** HKDF context: a key derived for Hue tokens is useless for anything else APP_SECRET may key. */
const HKDF_SALT = 'flaglight';
const HKDF_INFO = 'hue-token-encryption-v1';

export class SealError extends Error {
  override name = 'SealError';
}

export interface SecretBox {
  /** AES-256-GCM; `context` (user and field) is authenticated, so a value cannot move rows. */
  seal(plain: string, context: string): string;
  /** Throws SealError when the value was not sealed with this secret and context. */
  open(sealed: string, context: string): string;
}

/**
 * Encryption at rest for Hue tokens (docs/decisions/009): a key derived from APP_SECRET with
 * HKDF-SHA256. Another kind of secret (Govee API keys) passes its own `info`, so it gets a key of
 * its own.
 */
export function createSecretBox(appSecret: string, info: string = HKDF_INFO): SecretBox {
  const key = Buffer.from(crypto.hkdfSync('sha256', appSecret, HKDF_SALT, info, 32));
  return {
    seal(plain, context) {
      const iv = crypto.randomBytes(IV_BYTES);
      const cipher = crypto.createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(context, 'utf8'));
      const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      const tag = cipher.getAuthTag();
      return [VERSION, iv, tag, data]
        .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
        .join('.');
    },
    open(sealed, context) {
      const [version, iv, tag, data] = sealed.split('.');
      if (version !== VERSION || !iv || !tag || data === undefined) throw new SealError('not a sealed value');
      try {
        const decipher = crypto.createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
        decipher.setAAD(Buffer.from(context, 'utf8'));
        decipher.setAuthTag(Buffer.from(tag, 'base64url'));
        return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString(
          'utf8',
        );
      } catch {
        throw new SealError('sealed with another secret, or altered');
      }
    },
  };
}

export const DEMO_SECRET_FILE = 'app-secret';

/**
 * APP_SECRET, or in demo mode (where it may be unset) a random one generated once and kept in
 * DATA_DIR/app-secret (mode 0600), so stored Hue tokens survive restarts.
 */
export function resolveAppSecret(appSecret: string | undefined, dataDir: string): string {
  if (appSecret) return appSecret;
  const file = path.join(dataDir, DEMO_SECRET_FILE);
  try {
    const stored = fs.readFileSync(file, 'utf8').trim();
    if (stored.length >= 32) return stored;
    throw new Error(`${file} does not hold a secret of 32+ characters: delete it to generate a new one`);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  ensurePrivateDir(dataDir, { tighten: true });
  const secret = crypto.randomBytes(32).toString('hex');
  try {
    fs.writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    // Another process wrote it first: use theirs.
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return resolveAppSecret(undefined, dataDir);
    throw error;
  }
  return secret;
}
