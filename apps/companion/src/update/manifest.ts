// The signed release manifest: what a build is (version, channel, dates, one file per platform) and
// its Ed25519 signature over the canonical JSON of that description. Shared by the packaging step,
// which writes and signs it, and the companion, which verifies it before trusting any of it.
import crypto from 'node:crypto';
import { z } from 'zod';

export const MANIFEST_PRODUCT = 'flaglight-companion';
/** The platforms a build exists for, as the manifest names them. */
export const UPDATE_PLATFORMS = ['linux-x64', 'linux-arm64', 'win-x64'] as const;
export type UpdatePlatform = (typeof UPDATE_PLATFORMS)[number];
/** No companion build is near this; a bigger file is refused before or while it downloads. */
export const MAX_UPDATE_BYTES = 200 * 1024 * 1024;
export const MAX_NOTES_LENGTH = 4_000;

const VERSION_PATTERN = /^(\d{1,6})\.(\d{1,6})\.(\d{1,6})(?:-(beta|alpha)\.(\d{1,6}))?$/;

export const ManifestFileSchema = z.object({
  /** The file's own name (as `npm run package` writes it). */
  file: z.string().regex(/^[A-Za-z0-9._-]{1,100}$/),
  /** Where to fetch it: absolute, or relative to the manifest's own address. */
  url: z.string().min(1).max(500),
  size: z
    .number()
    .int()
    .min(1)
    .max(MAX_UPDATE_BYTES * 4),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
});
export type ManifestFile = z.infer<typeof ManifestFileSchema>;

export const ManifestSchema = z.object({
  product: z.string().max(60),
  version: z.string().regex(VERSION_PATTERN),
  channel: z.enum(['stable', 'beta']),
  released: z.iso.datetime(),
  expires: z.iso.datetime(),
  notes: z.string().max(MAX_NOTES_LENGTH).default(''),
  files: z.partialRecord(z.enum(UPDATE_PLATFORMS), ManifestFileSchema),
});
export type Manifest = z.infer<typeof ManifestSchema>;

export const SignedManifestSchema = z.object({
  signed: z.unknown(),
  signatures: z
    .array(z.object({ keyId: z.string().max(64), sig: z.string().max(200) }))
    .min(1)
    .max(8),
});
export type SignedManifest = z.infer<typeof SignedManifestSchema>;

/**
 * JSON with object keys sorted at every level and no white space: the bytes that are signed, the
 * same whoever writes or reads the manifest. Only what JSON itself holds (no undefined, no
 * non-finite numbers).
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new TypeError('canonical JSON holds finite numbers only');
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  throw new TypeError(`canonical JSON cannot hold a ${typeof value}`);
}

/** A public key as the companion keeps it: the 32 raw Ed25519 bytes, base64. */
export function publicKeyText(key: crypto.KeyObject): string {
  const der = key.export({ type: 'spki', format: 'der' });
  return der.subarray(der.length - 32).toString('base64');
}

function publicKeyFromText(text: string): crypto.KeyObject {
  const raw = Buffer.from(text, 'base64');
  if (raw.length !== 32) throw new Error('an Ed25519 public key is 32 bytes');
  // SPKI for Ed25519: a fixed 12-byte prefix, then the raw key.
  const prefix = Buffer.from('302a300506032b6570032100', 'hex');
  return crypto.createPublicKey({ key: Buffer.concat([prefix, raw]), format: 'der', type: 'spki' });
}

/** A short name for a public key: the first 16 hex digits of its SHA-256. */
export function keyIdOf(publicKey: string): string {
  return crypto.createHash('sha256').update(Buffer.from(publicKey, 'base64')).digest('hex').slice(0, 16);
}

/** Signs a manifest with an Ed25519 private key: the envelope written as `manifest.json`. */
export function signManifest(manifest: Manifest, privateKey: crypto.KeyObject): SignedManifest {
  if (privateKey.asymmetricKeyType !== 'ed25519') throw new Error('the signing key must be Ed25519');
  const checked = ManifestSchema.parse(manifest);
  const publicKey = publicKeyText(crypto.createPublicKey(privateKey));
  const sig = crypto.sign(null, Buffer.from(canonicalJson(checked)), privateKey).toString('base64');
  return { signed: checked, signatures: [{ keyId: keyIdOf(publicKey), sig }] };
}

export type VerifyResult = { ok: true; manifest: Manifest; keyId: string } | { ok: false; reason: string };

/**
 * The manifest inside an envelope, when one of its signatures verifies against one of `trusted`
 * (public keys, base64). Nothing of the manifest is read before that: an unsigned field cannot
 * steer anything.
 */
export function verifyManifest(envelope: unknown, trusted: readonly string[]): VerifyResult {
  const parsed = SignedManifestSchema.safeParse(envelope);
  if (!parsed.success) return { ok: false, reason: 'The update manifest is malformed.' };
  if (trusted.length === 0) return { ok: false, reason: 'This build trusts no update key.' };
  let bytes: Buffer;
  try {
    bytes = Buffer.from(canonicalJson(parsed.data.signed));
  } catch {
    return { ok: false, reason: 'The update manifest is malformed.' };
  }
  for (const key of trusted) {
    const keyId = keyIdOf(key);
    for (const signature of parsed.data.signatures) {
      if (signature.keyId !== keyId) continue;
      const sig = Buffer.from(signature.sig, 'base64');
      if (sig.length !== 64 || !crypto.verify(null, bytes, publicKeyFromText(key), sig)) continue;
      const manifest = ManifestSchema.safeParse(parsed.data.signed);
      if (!manifest.success) return { ok: false, reason: 'The signed update manifest is malformed.' };
      return { ok: true, manifest: manifest.data, keyId };
    }
  }
  return { ok: false, reason: 'The update is not signed by a Flaglight release key.' };
}

/** Compares two versions X.Y.Z[-beta.N]: negative when a is older. A pre-release is older than its release. */
export function compareVersions(a: string, b: string): number {
  const pa = VERSION_PATTERN.exec(a);
  const pb = VERSION_PATTERN.exec(b);
  if (!pa || !pb) throw new Error(`not a version: ${pa ? b : a}`);
  for (const i of [1, 2, 3]) {
    const d = Number(pa[i]) - Number(pb[i]);
    if (d !== 0) return d;
  }
  const rank = (m: RegExpExecArray) => (m[4] === undefined ? 2 : m[4] === 'beta' ? 1 : 0);
  return rank(pa) - rank(pb) || Number(pa[5] ?? 0) - Number(pb[5] ?? 0);
}

export function isVersion(text: string): boolean {
  return VERSION_PATTERN.test(text);
}

/** The platform name of the computer running this (null where no build exists). */
export function currentUpdatePlatform(
  platform: NodeJS.Platform = process.platform,
  arch: string = process.arch,
): UpdatePlatform | null {
  const name = `${platform === 'win32' ? 'win' : platform}-${arch}`;
  return (UPDATE_PLATFORMS as readonly string[]).includes(name) ? (name as UpdatePlatform) : null;
}

/** A file's SHA-256 in hex. */
export function sha256Hex(data: Buffer): string {
  return crypto.createHash('sha256').update(data).digest('hex');
}
