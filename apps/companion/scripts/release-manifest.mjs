// The update manifest step of `npm run package` (decision 045): which key signs, which public key the
// build trusts, and `manifest.json` beside the executables. The manifest code is the companion's own
// (src/update/manifest.ts and trusted-keys.ts), bundled by esbuild for this script, so packaging and
// the companion sign and verify with the same code.
import crypto from 'node:crypto';
import {
  copyFileSync,
  createReadStream,
  existsSync,
  linkSync,
  mkdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';

/**
 * Each platform's download name. The manifest signs `companion-releases/<version>/<name>`, relative
 * to its own address (`/api/downloads/companion-manifest`, `-beta`, or the index
 * `/api/downloads/companion-releases`): always that version's own file, never "the newest".
 */
export const DOWNLOAD_NAMES = {
  'linux-x64': 'flaglight-linux',
  'linux-arm64': 'flaglight-linux-arm64',
  'win-x64': 'flaglight-companion-win-x64',
};

/** The manifest and key code of the companion, bundled into one module this script can import. */
export async function loadUpdateTools(root) {
  const outfile = path.join(root, '.cache', 'update-tools.mjs');
  mkdirSync(path.dirname(outfile), { recursive: true });
  await build({
    absWorkingDir: root,
    stdin: {
      contents:
        "export * from './src/update/manifest.ts'; export { RELEASE_KEYS } from './src/update/trusted-keys.ts';",
      resolveDir: root,
      loader: 'ts',
    },
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    logLevel: 'warning',
  });
  return import(`${pathToFileURL(outfile).href}?${Date.now()}`);
}

/**
 * The signing key: a release key file (`--signing-key` or FLAGLIGHT_SIGNING_KEY_FILE, PEM or PKCS#8)
 * whose public half must be one of RELEASE_KEYS, or else the throw-away key of this checkout
 * (`.cache/throwaway-update-key.pem`, made once), whose public half the build then trusts for a
 * server on this computer only.
 */
export function resolveSigningKey({ root, keyFile, tools }) {
  if (keyFile) {
    const privateKey = crypto.createPrivateKey(readFileSync(keyFile));
    if (privateKey.asymmetricKeyType !== 'ed25519') throw new Error(`${keyFile} is not an Ed25519 key`);
    const publicKey = tools.publicKeyText(crypto.createPublicKey(privateKey));
    if (!tools.RELEASE_KEYS.includes(publicKey))
      throw new Error(
        `the key in ${keyFile} is no release key: add its public key ${publicKey} to RELEASE_KEYS in src/update/trusted-keys.ts first`,
      );
    return { privateKey, publicKey, release: true, note: `release key ${tools.keyIdOf(publicKey)}` };
  }
  const file = path.join(root, '.cache', 'throwaway-update-key.pem');
  let note = 'throw-away key, kept';
  if (!existsSync(file)) {
    const { privateKey } = crypto.generateKeyPairSync('ed25519');
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
    note = 'throw-away key, new';
  }
  const privateKey = crypto.createPrivateKey(readFileSync(file));
  const publicKey = tools.publicKeyText(crypto.createPublicKey(privateKey));
  return { privateKey, publicKey, release: false, note: `${note}: ${path.relative(root, file)}` };
}

async function sha256File(file) {
  const hash = crypto.createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk);
  return hash.digest('hex');
}

/**
 * Writes the signed description of the executables built in `outputs`: `<dir>/manifest.json`
 * (stable) or `<dir>/manifest-beta.json` (beta), and the kept release `<dir>/releases/<version>/`
 * (the same signed manifest and the files it names, hard-linked). Earlier versions' folders stay: a
 * server given this folder offers them to pick by hand (decision 045).
 */
export async function writeManifest({ dir, outputs, version, channel, notes, expiresDays, key, tools, now }) {
  const kept = path.join(dir, 'releases', version);
  rmSync(kept, { recursive: true, force: true });
  mkdirSync(kept, { recursive: true });
  const files = {};
  for (const [platform, file] of Object.entries(outputs)) {
    if (!existsSync(file)) continue;
    files[platform] = {
      file: path.basename(file),
      url: `companion-releases/${version}/${DOWNLOAD_NAMES[platform]}`,
      size: statSync(file).size,
      sha256: await sha256File(file),
    };
    try {
      linkSync(file, path.join(kept, path.basename(file)));
    } catch {
      copyFileSync(file, path.join(kept, path.basename(file)));
    }
  }
  const manifest = {
    product: tools.MANIFEST_PRODUCT,
    version,
    channel,
    released: now.toISOString(),
    expires: new Date(now.getTime() + expiresDays * 86_400_000).toISOString(),
    notes,
    files,
  };
  const text = `${JSON.stringify(tools.signManifest(manifest, key.privateKey), null, 2)}\n`;
  writeFileSync(path.join(kept, 'manifest.json'), text);
  const target = path.join(dir, channel === 'beta' ? 'manifest-beta.json' : 'manifest.json');
  writeFileSync(target, text);
  return target;
}
