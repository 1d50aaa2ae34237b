import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { createLogger } from '../system/log.js';
import { StateFile } from '../system/state-file.js';
import { publicKeyText, signManifest, type Manifest } from './manifest.js';
import { createUpdater, type Updater } from './updater.js';

// A real HTTP server on loopback serves the manifest and the file; each test changes what it serves.
type Route = (request: http.IncomingMessage, response: http.ServerResponse) => void;
const routes = new Map<string, Route>();
let requests: string[] = [];
const server = http.createServer((request, response) => {
  requests.push(request.url ?? '');
  const route = routes.get(request.url ?? '');
  if (route) route(request, response);
  else response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
});
let base = '';
const key = crypto.generateKeyPairSync('ed25519');
const otherKey = crypto.generateKeyPairSync('ed25519');
const trusted = [publicKeyText(key.publicKey)];

/** Bytes that start like an x86-64 Linux executable (ELF, machine 0x3e). */
function elf(machine: number, size = 300_000): Buffer {
  const file = crypto.randomBytes(size);
  Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]).copy(file, 0);
  file.writeUInt16LE(2, 16);
  file.writeUInt16LE(machine, 18);
  return file;
}
const build = elf(0x3e);
const sha = (data: Buffer) => crypto.createHash('sha256').update(data).digest('hex');

function manifest(change: Partial<Manifest> = {}): Manifest {
  return {
    product: 'flaglight-companion',
    version: '0.2.0',
    channel: 'stable',
    released: new Date(Date.now() - 60_000).toISOString(),
    expires: new Date(Date.now() + 86_400_000).toISOString(),
    notes: 'Faster lights.\nNew brands.',
    files: {
      'linux-x64': {
        file: 'flaglight-companion-linux-x64',
        url: 'flaglight-linux',
        size: build.length,
        sha256: sha(build),
      },
    },
    ...change,
  };
}

function serve(signed: unknown, file: Buffer | Route = build): void {
  routes.set('/api/downloads/companion-manifest', (_q, r) =>
    r.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(signed)),
  );
  routes.set(
    '/api/downloads/flaglight-linux',
    typeof file === 'function'
      ? file
      : (_q, r) => r.writeHead(200, { 'content-length': String(file.length) }).end(file),
  );
}

let dir: string;
let exe: string;
let updater: Updater | null = null;
let installs: { file: string; version: string; bytes: Buffer }[] = [];

function start(
  change: { enabled?: boolean; quiet?: () => boolean; running?: string; quietPollMs?: number } = {},
): Updater {
  const store = new StateFile(path.join(dir, 'data'));
  store.load();
  updater = createUpdater({
    server: base,
    enabled: change.enabled ?? true,
    store,
    log: createLogger({ console: false }),
    executable: exe,
    isQuiet: change.quiet ?? (() => true),
    install: async (file, m) => {
      installs.push({ file, version: m.version, bytes: fs.readFileSync(file) });
      return { ok: false, message: 'handover not part of this test' };
    },
    running: change.running ?? '0.1.0',
    platform: 'linux-x64',
    trustedKeys: trusted,
    firstCheckMs: 3_600_000,
    quietPollMs: change.quietPollMs ?? 20,
  });
  return updater;
}

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});
afterEach(() => {
  updater?.close();
  updater = null;
  routes.clear();
  requests = [];
  installs = [];
  fs.rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'flaglight-update-'));
  exe = path.join(dir, 'flaglight-companion-linux-x64');
  fs.writeFileSync(exe, 'the running version', { mode: 0o755 });
});

/** One check, then a moment for the quiet-moment poll to run. */
async function check(u: Updater) {
  const view = await u.checkNow();
  await new Promise((resolve) => setTimeout(resolve, 80));
  return { ...u.view(), state: view.state };
}

/** The refusal left everything as it was: nothing installed, nothing beside the executable. */
function expectNothingInstalled() {
  expect(installs).toEqual([]);
  expect(fs.readFileSync(exe, 'utf8')).toBe('the running version');
  expect(fs.readdirSync(dir).filter((name) => name !== 'data')).toEqual(['flaglight-companion-linux-x64']);
}

describe('a verified update', () => {
  test('is downloaded beside the executable, checked and handed to the installer at a quiet moment', async () => {
    serve(signManifest(manifest(), key.privateKey));
    const view = await check(start());
    expect(view).toMatchObject({ newest: '0.2.0', notes: 'Faster lights.\nNew brands.', running: '0.1.0' });
    expect(installs).toHaveLength(1);
    expect(installs[0]!.version).toBe('0.2.0');
    expect(installs[0]!.file).toBe(`${exe}.download`);
    expect(installs[0]!.bytes.equals(build)).toBe(true);
  });

  test('waits while a session is followed or an effect plays', async () => {
    serve(signManifest(manifest(), key.privateKey));
    let quiet = false;
    const view = await check(start({ quiet: () => quiet }));
    expect(view.message).toContain('It installs when no session is followed');
    expect(installs).toEqual([]);
    quiet = true;
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(installs).toHaveLength(1);
  });

  test('pausing the lights is looked at at once, not at the next poll', async () => {
    serve(signManifest(manifest(), key.privateKey));
    let quiet = false;
    const u = start({ quiet: () => quiet, quietPollMs: 3_600_000 });
    await check(u);
    expect(installs).toEqual([]);
    quiet = true;
    u.lookForQuiet();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(installs).toHaveLength(1);
  });

  test('with "Install updates automatically" off it is downloaded, not installed, until asked', async () => {
    serve(signManifest(manifest(), key.privateKey));
    const u = start();
    u.setAuto(false);
    const view = await check(u);
    expect(view).toMatchObject({ auto: false, state: 'ready' });
    expect(installs).toEqual([]);
    expect(u.installWhenQuiet()).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(installs).toHaveLength(1);
  });
});

describe('what makes the companion refuse an update', () => {
  test('a flipped byte in the file (SHA-256)', async () => {
    const tampered = Buffer.from(build);
    tampered[150_000] = tampered[150_000]! ^ 1;
    serve(signManifest(manifest(), key.privateKey), tampered);
    const view = await check(start());
    expect(view.message).toBe(
      'Update refused: the downloaded file of version 0.2.0 does not match its signed SHA-256.',
    );
    expectNothingInstalled();
  });

  test('a manifest signed by another key', async () => {
    serve(signManifest(manifest(), otherKey.privateKey));
    const view = await check(start());
    expect(view.message).toBe('Update refused: it is not signed by a Flaglight release key.');
    expect(view.newest).toBeNull();
    expect(requests).toEqual(['/api/downloads/companion-manifest']);
    expectNothingInstalled();
  });

  test('a manifest changed after signing', async () => {
    const signed = signManifest(manifest(), key.privateKey);
    (signed.signed as Manifest).version = '0.3.0';
    serve(signed);
    const view = await check(start());
    expect(view.message).toBe('Update refused: it is not signed by a Flaglight release key.');
    expectNothingInstalled();
  });

  test('an expired manifest (a server frozen on an old release)', async () => {
    serve(signManifest(manifest({ expires: new Date(Date.now() - 1_000).toISOString() }), key.privateKey));
    const view = await check(start());
    expect(view.message).toMatch(/^Update refused: the update information expired on \d{4}-\d{2}-\d{2}/);
    expect(requests).toEqual(['/api/downloads/companion-manifest']);
    expectNothingInstalled();
  });

  test('a downgrade (an older signed release)', async () => {
    serve(signManifest(manifest({ version: '0.1.0' }), key.privateKey));
    const view = await check(start({ running: '0.1.1' }));
    expect(view.message).toBe('Update refused: version 0.1.0 is older than this one (0.1.1).');
    expectNothingInstalled();
  });

  test('the same version is no update', async () => {
    serve(signManifest(manifest({ version: '0.1.0' }), key.privateKey));
    const view = await check(start());
    expect(view.message).toBe('Up to date (0.1.0).');
    expectNothingInstalled();
  });

  test('no build for this platform', async () => {
    const files = {
      'win-x64': { file: 'x.exe', url: 'flaglight-companion-win-x64', size: 10, sha256: 'a'.repeat(64) },
    };
    serve(signManifest(manifest({ files }), key.privateKey));
    const view = await check(start());
    expect(view.message).toBe('Update refused: version 0.2.0 has no build for this computer (linux-x64).');
    expectNothingInstalled();
  });

  test('a signed file for another platform (an arm64 executable under linux-x64)', async () => {
    const arm = elf(0xb7);
    const files = { 'linux-x64': { file: 'f', url: 'flaglight-linux', size: arm.length, sha256: sha(arm) } };
    serve(signManifest(manifest({ files }), key.privateKey), arm);
    const view = await check(start());
    expect(view.message).toBe('Update refused: the file of version 0.2.0 is not a linux-x64 program.');
    expectNothingInstalled();
  });

  test('another product', async () => {
    serve(signManifest(manifest({ product: 'some-other-program' }), key.privateKey));
    const view = await check(start());
    expect(view.message).toBe('Update refused: the update information is for another program.');
    expectNothingInstalled();
  });

  test('a size other than the signed one', async () => {
    const longer = Buffer.concat([build, Buffer.from('more')]);
    serve(signManifest(manifest(), key.privateKey), longer);
    const view = await check(start());
    expect(view.message).toBe(
      'Update refused: the downloaded file of version 0.2.0 does not match its signed size.',
    );
    expectNothingInstalled();
  });

  test('more bytes than signed, sent without a length', async () => {
    serve(signManifest(manifest(), key.privateKey), (_q, r) => {
      r.writeHead(200);
      r.end(Buffer.concat([build, build]));
    });
    const view = await check(start());
    expect(view.message).toBe(
      'Update refused: the downloaded file of version 0.2.0 does not match its signed size.',
    );
    expectNothingInstalled();
  });

  test('a file over 200 MB is not even downloaded', async () => {
    const files = {
      'linux-x64': { file: 'f', url: 'flaglight-linux', size: 201 * 1024 * 1024, sha256: sha(build) },
    };
    serve(signManifest(manifest({ files }), key.privateKey));
    const view = await check(start());
    expect(view.message).toBe('Update refused: the file is larger than 200 MB.');
    expect(requests).toEqual(['/api/downloads/companion-manifest']);
    expectNothingInstalled();
  });

  test('a download cut off halfway (the server drops the connection)', async () => {
    serve(signManifest(manifest(), key.privateKey), (_q, r) => {
      r.writeHead(200, { 'content-length': String(build.length) });
      r.write(build.subarray(0, build.length / 2), () => setTimeout(() => r.socket?.destroy(), 20));
    });
    const view = await check(start());
    expect(view.message).toMatch(
      /^The download of version 0\.2\.0 was cut off \(\d+ of 300000 bytes\); trying again later\.$/,
    );
    expectNothingInstalled();
  });

  test('a download address that is not https (other than this computer)', async () => {
    const files = {
      'linux-x64': {
        file: 'f',
        url: 'http://updates.example.com/flaglight-linux',
        size: build.length,
        sha256: sha(build),
      },
    };
    serve(signManifest(manifest({ files }), key.privateKey));
    const view = await check(start());
    expect(view.message).toBe('Update refused: the download address is not https.');
    expect(requests).toEqual(['/api/downloads/companion-manifest']);
    expectNothingInstalled();
  });

  test('a version that failed and was rolled back is not installed again by itself', async () => {
    serve(signManifest(manifest(), key.privateKey));
    const store = new StateFile(path.join(dir, 'data'));
    store.load();
    store.update((s) => ({ ...s, updates: { auto: true, failed: ['0.2.0'] } }));
    const view = await check(start());
    expect(view.message).toBe(
      'Version 0.2.0 failed before and was rolled back: it is not installed again by itself.',
    );
    expectNothingInstalled();
  });

  test('--no-update: no check at all', async () => {
    serve(signManifest(manifest(), key.privateKey));
    const view = await check(start({ enabled: false }));
    expect(view).toMatchObject({
      enabled: false,
      state: 'off',
      message: 'Updates are turned off (--no-update).',
    });
    expect(requests).toEqual([]);
    expectNothingInstalled();
  });
});
