import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { createLogger } from '../system/log.js';
import { StateFile } from '../system/state-file.js';
import { publicKeyText, signManifest, type Manifest, type SignedManifest } from './manifest.js';
import { createUpdater, type Updater } from './updater.js';

// The channel and versions picked by hand, against a real HTTP server on loopback serving the
// channels' manifests, the index of signed manifests and one file per version.
const files = new Map<string, Buffer>();
const routes = new Map<string, unknown>();
let requests: string[] = [];
const server = http.createServer((request, response) => {
  const url = request.url ?? '';
  requests.push(url);
  const file = files.get(url);
  if (file) response.writeHead(200, { 'content-length': String(file.length) }).end(file);
  else if (routes.has(url))
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(routes.get(url)));
  else response.writeHead(404).end('{"error":"not found"}');
});
let base = '';
const key = crypto.generateKeyPairSync('ed25519');
const otherKey = crypto.generateKeyPairSync('ed25519');

/** A distinct x86-64 ELF file per version. */
function elf(): Buffer {
  const file = crypto.randomBytes(200_000);
  Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]).copy(file, 0);
  file.writeUInt16LE(2, 16);
  file.writeUInt16LE(0x3e, 18);
  return file;
}
const sha = (data: Buffer) => crypto.createHash('sha256').update(data).digest('hex');

/** A signed manifest of `version` whose Linux file is served under companion-releases/<version>/. */
function release(
  version: string,
  change: Partial<Manifest> = {},
  signer: crypto.KeyObject = key.privateKey,
): SignedManifest {
  const file = elf();
  files.set(`/api/downloads/companion-releases/${version}/flaglight-linux`, file);
  const manifest: Manifest = {
    product: 'flaglight-companion',
    version,
    channel: 'stable',
    released: new Date(Date.now() - 60_000).toISOString(),
    expires: new Date(Date.now() + 86_400_000).toISOString(),
    notes: `Version ${version}.`,
    files: {
      'linux-x64': {
        file: 'flaglight-companion-linux-x64',
        url: `companion-releases/${version}/flaglight-linux`,
        size: file.length,
        sha256: sha(file),
      },
    },
    ...change,
  };
  return signManifest(manifest, signer);
}

let dir: string;
let store: StateFile;
let updater: Updater | null = null;
let installs: string[] = [];

function start(running = '0.1.0'): Updater {
  updater = createUpdater({
    server: base,
    enabled: true,
    store,
    log: createLogger({ console: false }),
    executable: path.join(dir, 'flaglight-companion-linux-x64'),
    isQuiet: () => true,
    install: async (file, m) => {
      // The file handed over is the one the signed manifest names.
      const served = files.get(`/api/downloads/companion-releases/${m.version}/flaglight-linux`);
      expect(fs.readFileSync(file).equals(served!)).toBe(true);
      installs.push(m.version);
      return { ok: false, message: 'handover not part of this test' };
    },
    running,
    platform: 'linux-x64',
    trustedKeys: [publicKeyText(key.publicKey)],
    firstCheckMs: 3_600_000,
    quietPollMs: 20,
  });
  return updater;
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 80));
const saved = () =>
  (JSON.parse(fs.readFileSync(path.join(dir, 'data', 'state.json'), 'utf8')) as { updates: unknown }).updates;

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'flaglight-hand-pick-'));
  fs.writeFileSync(path.join(dir, 'flaglight-companion-linux-x64'), 'the running version');
  store = new StateFile(path.join(dir, 'data'));
  store.load();
});
afterEach(() => {
  updater?.close();
  updater = null;
  files.clear();
  routes.clear();
  requests = [];
  installs = [];
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('the channel', () => {
  test('stable follows the stable manifest only; beta, chosen and kept, takes the beta', async () => {
    routes.set('/api/downloads/companion-manifest', release('0.2.0'));
    routes.set('/api/downloads/companion-manifest-beta', release('0.3.0', { channel: 'beta' }));
    const u = start();
    u.setAuto(false);
    expect((await u.checkNow()).newest).toBe('0.2.0');
    expect(requests).toEqual([
      '/api/downloads/companion-manifest',
      '/api/downloads/companion-releases/0.2.0/flaglight-linux',
    ]);
    u.setChannel('beta');
    expect(saved()).toMatchObject({ channel: 'beta' });
    u.close();
    // A restart keeps the choice: the next check follows the beta manifest.
    const again = start();
    expect(again.view().channel).toBe('beta');
    expect(await again.checkNow()).toMatchObject({ newest: '0.3.0', state: 'ready' });
    expect(again.installWhenQuiet()).toBe(true);
    await settle();
    expect(installs).toEqual(['0.3.0']);
  });

  test('a beta manifest is never installed on stable, even served at the stable address', async () => {
    routes.set('/api/downloads/companion-manifest', release('0.3.0', { channel: 'beta' }));
    const view = await start().checkNow();
    await settle();
    expect(view.message).toBe('Up to date (0.1.0); 0.3.0 is a beta.');
    expect(requests).toEqual(['/api/downloads/companion-manifest']);
    expect(installs).toEqual([]);
  });

  test('a beta is not offered among the versions to pick by hand on stable', async () => {
    routes.set('/api/downloads/companion-releases', {
      manifests: [release('0.3.0', { channel: 'beta' }), release('0.2.0')],
    });
    const u = start();
    expect((await u.listVersions()).offered?.map((o) => o.version)).toEqual(['0.2.0']);
    expect((await u.installVersion('0.3.0', true)).ok).toBe(false);
    await settle();
    expect(installs).toEqual([]);
  });
});

describe('a version picked by hand', () => {
  test('lists the verified versions; an older one needs the confirmation, then installs once', async () => {
    const tampered = release('0.0.8');
    (tampered.signed as Manifest).notes = 'Changed on the server.';
    routes.set('/api/downloads/companion-releases', {
      manifests: [release('0.0.9'), release('0.2.0'), tampered, release('0.0.7', {}, otherKey.privateKey)],
    });
    const u = start();
    const view = await u.listVersions();
    expect(view.offered).toEqual([
      expect.objectContaining({ version: '0.2.0', older: false }),
      expect.objectContaining({ version: '0.0.9', older: true, notes: 'Version 0.0.9.' }),
    ]);
    expect(view.message).toBe(
      'A listed version was refused: it is not signed by a Flaglight release key. A listed version was refused: it is not signed by a Flaglight release key.',
    );
    // Without the confirmation: refused, and nothing is even downloaded.
    requests = [];
    expect(await u.installVersion('0.0.9', false)).toEqual({
      ok: false,
      message:
        'Update refused: version 0.0.9 is older than this one (0.1.0); it installs only once you confirm.',
      confirm: { version: '0.0.9', running: '0.1.0' },
    });
    expect(requests).toEqual(['/api/downloads/companion-releases']);
    await settle();
    expect(installs).toEqual([]);
    // A tampered entry is refused, confirmed or not.
    expect(await u.installVersion('0.0.8', true)).toMatchObject({ ok: false });
    await settle();
    expect(installs).toEqual([]);
    // Confirmed: downloaded, checked and installed; the version left is not installed again by itself.
    expect(await u.installVersion('0.0.9', true)).toMatchObject({ ok: true });
    await settle();
    expect(installs).toEqual(['0.0.9']);
    expect(saved()).toMatchObject({ declined: ['0.1.0'] });
  });

  test('the confirmation allows that version only; every other check still applies to it', async () => {
    routes.set('/api/downloads/companion-releases', {
      manifests: [
        release('0.0.9', { expires: new Date(Date.now() - 1_000).toISOString() }),
        release('0.0.6', { product: 'some-other-program' }),
      ],
    });
    const u = start();
    const listed = await u.listVersions();
    expect(listed.offered).toEqual([]);
    expect(listed.message).toMatch(
      /^Version 0\.0\.9 was refused: the update information expired on \d{4}-\d{2}-\d{2}.*Version 0\.0\.6 was refused: the update information is for another program\.$/,
    );
    expect((await u.installVersion('0.0.9', true)).message).toMatch(
      /^Version 0\.0\.9 was refused: the update information expired/,
    );
    await settle();
    expect(installs).toEqual([]);
  });

  test('a newer version stepped back from is not installed again by itself', async () => {
    store.update((s) => ({ ...s, updates: { auto: true, failed: [], declined: ['0.1.0'] } }));
    routes.set('/api/downloads/companion-manifest', release('0.1.0'));
    const view = await start('0.0.9').checkNow();
    await settle();
    expect(view.message).toBe(
      'Version 0.1.0 was left by hand for an older one: it is not installed again by itself.',
    );
    expect(installs).toEqual([]);
  });
});
