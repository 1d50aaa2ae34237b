import crypto from 'node:crypto';
import { describe, expect, test } from 'vitest';
import {
  canonicalJson,
  compareVersions,
  currentUpdatePlatform,
  publicKeyText,
  signManifest,
  verifyManifest,
  type Manifest,
} from './manifest.js';
import { RELEASE_KEYS, trustedKeysFor } from './trusted-keys.js';

const manifest: Manifest = {
  product: 'flaglight-companion',
  version: '0.2.0',
  channel: 'stable',
  released: '2026-11-29T10:00:00.000Z',
  expires: '2026-12-29T10:00:00.000Z',
  notes: 'Fixes.',
  files: {
    'linux-x64': {
      file: 'flaglight-companion-linux-x64',
      url: '/api/downloads/flaglight-linux',
      size: 10,
      sha256: 'a'.repeat(64),
    },
  },
};

function keyPair() {
  const { privateKey, publicKey } = crypto.generateKeyPairSync('ed25519');
  return { privateKey, publicKey: publicKeyText(publicKey) };
}

describe('the signed manifest', () => {
  test('canonical JSON sorts keys at every level and drops white space', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { z: 0, y: 'x' }], c: null } })).toBe(
      '{"a":{"c":null,"d":[1,{"y":"x","z":0}]},"b":1}',
    );
  });

  test('a manifest verifies against the key that signed it, whatever the key order in the file', () => {
    const key = keyPair();
    const envelope = signManifest(manifest, key.privateKey);
    const reordered = JSON.parse(
      JSON.stringify({ signatures: envelope.signatures, signed: envelope.signed }),
    );
    const result = verifyManifest(reordered, [key.publicKey]);
    expect(result).toMatchObject({ ok: true, manifest: { version: '0.2.0' } });
  });

  test('another key, a changed field or a flipped signature byte does not verify', () => {
    const key = keyPair();
    const other = keyPair();
    const envelope = signManifest(manifest, key.privateKey);
    expect(verifyManifest(envelope, [other.publicKey])).toEqual({
      ok: false,
      reason: 'The update is not signed by a Flaglight release key.',
    });
    const changed = structuredClone(envelope) as { signed: Manifest; signatures: { sig: string }[] };
    changed.signed.version = '9.9.9';
    expect(verifyManifest(changed, [key.publicKey]).ok).toBe(false);
    const flipped = structuredClone(envelope);
    const sig = Buffer.from(flipped.signatures[0]!.sig, 'base64');
    sig[5] = sig[5]! ^ 1;
    flipped.signatures[0]!.sig = sig.toString('base64');
    expect(verifyManifest(flipped, [key.publicKey]).ok).toBe(false);
    expect(verifyManifest({ signed: manifest, signatures: [] }, [key.publicKey]).ok).toBe(false);
  });

  test('a signature by another key under the trusted key id does not verify', () => {
    const key = keyPair();
    const other = keyPair();
    const forged = signManifest(manifest, other.privateKey);
    const real = signManifest(manifest, key.privateKey);
    forged.signatures[0]!.keyId = real.signatures[0]!.keyId;
    expect(verifyManifest(forged, [key.publicKey]).ok).toBe(false);
  });

  test('versions compare by number, a beta before its release', () => {
    expect(compareVersions('0.10.0', '0.9.9')).toBeGreaterThan(0);
    expect(compareVersions('1.0.0-beta.2', '1.0.0')).toBeLessThan(0);
    expect(compareVersions('1.0.0-beta.2', '1.0.0-beta.10')).toBeLessThan(0);
    expect(compareVersions('1.2.3', '1.2.3')).toBe(0);
  });

  test('platform names', () => {
    expect(currentUpdatePlatform('win32', 'x64')).toBe('win-x64');
    expect(currentUpdatePlatform('linux', 'arm64')).toBe('linux-arm64');
    expect(currentUpdatePlatform('darwin', 'arm64')).toBeNull();
  });

  test('a build key is trusted for a server on this computer only', () => {
    const key = keyPair().publicKey;
    expect(trustedKeysFor('http://127.0.0.1:3000', key)).toEqual([...RELEASE_KEYS, key]);
    expect(trustedKeysFor('https://flaglight.app', key)).toEqual([...RELEASE_KEYS]);
    expect(trustedKeysFor('http://127.0.0.1:3000', null)).toEqual([...RELEASE_KEYS]);
  });
});
