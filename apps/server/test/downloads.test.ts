import crypto from 'node:crypto';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { DOWNLOADS_PER_MINUTE } from '@flaglight/contract';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DOWNLOAD_MESSAGES } from '../src/downloads/routes.js';
import { freshAddress } from './device-helpers.js';
import { buildTestApp, type TestApp } from './helper.js';

describe('desktop downloads with installers in DOWNLOADS_DIR', () => {
  let t: TestApp;
  let dir: string;
  const installer = Buffer.from('MZ\x90\x00 pretend Windows installer bytes '.repeat(200), 'latin1');
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'flaglight-downloads-'));
    fs.writeFileSync(path.join(dir, 'flaglight-setup.exe'), installer);
    fs.writeFileSync(path.join(dir, 'flaglight-setup.zip'), 'a zip that loses to the .exe');
    fs.writeFileSync(path.join(dir, 'flaglight-mac.dmg'), 'dmg');
    fs.writeFileSync(path.join(dir, 'notes.txt'), 'not an installer');
    fs.writeFileSync(path.join(dir, 'readme.exe.txt'), 'not an installer either');
    fs.mkdirSync(path.join(dir, 'folder-setup.exe'));
    fs.writeFileSync(path.join(os.tmpdir(), 'outside-setup.exe'), 'outside');
    fs.symlinkSync(path.join(os.tmpdir(), 'outside-setup.exe'), path.join(dir, 'linked-setup.exe'));
    t = await buildTestApp({ env: { DOWNLOADS_DIR: dir } });
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(path.join(os.tmpdir(), 'outside-setup.exe'), { force: true });
  });

  test('the landing link streams <product>.exe as an attachment', async () => {
    const res = await t.app.inject({
      method: 'GET',
      remoteAddress: freshAddress(),
      url: '/api/downloads/flaglight-setup',
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toBe('attachment; filename="flaglight-setup.exe"');
    expect(res.headers['content-type']).toBe('application/vnd.microsoft.portable-executable');
    expect(res.headers['content-length']).toBe(String(installer.length));
    expect(res.rawPayload.equals(installer)).toBe(true);
  });

  test('another product with another installer type', async () => {
    const res = await t.app.inject({
      method: 'GET',
      remoteAddress: freshAddress(),
      url: '/api/downloads/flaglight-mac',
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toBe('attachment; filename="flaglight-mac.dmg"');
    expect(res.body).toBe('dmg');
  });

  test.each(['notes', 'readme', 'folder-setup', 'linked-setup', 'missing-setup'])(
    '%s is no installer: the not-available page, 404',
    async (product) => {
      const res = await t.app.inject({
        method: 'GET',
        remoteAddress: freshAddress(),
        url: `/api/downloads/${product}`,
        headers: { accept: 'text/html' },
      });
      expect(res.statusCode).toBe(404);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.body).toContain(DOWNLOAD_MESSAGES.notAvailable);
    },
  );

  test.each([
    '...',
    '..%2F..%2Fetc%2Fpasswd',
    'flaglight-setup.exe',
    'Flaglight-Setup',
    'flaglight_setup',
    '-setup',
    'setup-',
    'a--b',
    '%00',
    'x'.repeat(65),
  ])('odd product name %s is refused with 400', async (product) => {
    const res = await t.app.inject({
      method: 'GET',
      remoteAddress: freshAddress(),
      url: `/api/downloads/${product}`,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: DOWNLOAD_MESSAGES.invalidProduct, code: 'invalid_input' });
  });

  test('a traversal outside the route does not reach a file', async () => {
    const res = await t.app.inject({
      method: 'GET',
      remoteAddress: freshAddress(),
      url: '/api/downloads/../../etc/passwd',
    });
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain('root:');
  });
});

describe("the companion's builds (npm run package -w @flaglight/companion)", () => {
  let t: TestApp;
  let dir: string;
  const linuxExe = Buffer.from('\x7fELF pretend Linux executable bytes '.repeat(300), 'latin1');
  const setup = Buffer.from('MZ pretend NSIS installer '.repeat(300), 'latin1');
  const armExe = Buffer.from('\x7fELF pretend arm64 executable bytes '.repeat(300), 'latin1');
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'flaglight-companion-builds-'));
    fs.writeFileSync(path.join(dir, 'flaglight-companion-linux-x64'), linuxExe);
    fs.writeFileSync(path.join(dir, 'flaglight-companion-linux-arm64'), armExe);
    fs.writeFileSync(path.join(dir, 'flaglight-companion-win-x64.exe'), 'the bare Windows executable');
    fs.writeFileSync(path.join(dir, 'flaglight-setup.exe'), setup);
    t = await buildTestApp({ env: { DOWNLOADS_DIR: dir } });
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('flaglight-setup is the Windows installer', async () => {
    const res = await t.app.inject({
      method: 'GET',
      remoteAddress: freshAddress(),
      url: '/api/downloads/flaglight-setup',
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toBe('attachment; filename="flaglight-setup.exe"');
    expect(res.headers['content-type']).toBe('application/vnd.microsoft.portable-executable');
    expect(res.rawPayload.equals(setup)).toBe(true);
  });

  test('flaglight-linux is the Linux executable, under its own name', async () => {
    const res = await t.app.inject({
      method: 'GET',
      remoteAddress: freshAddress(),
      url: '/api/downloads/flaglight-linux',
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/octet-stream');
    expect(res.headers['content-disposition']).toBe('attachment; filename="flaglight-companion-linux-x64"');
    expect(res.headers['content-length']).toBe(String(linuxExe.length));
    expect(res.rawPayload.equals(linuxExe)).toBe(true);
  });

  test('flaglight-linux-arm64 is the Raspberry Pi (arm64) executable, under its own name', async () => {
    const res = await t.app.inject({
      method: 'GET',
      remoteAddress: freshAddress(),
      url: '/api/downloads/flaglight-linux-arm64',
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/octet-stream');
    expect(res.headers['content-disposition']).toBe('attachment; filename="flaglight-companion-linux-arm64"');
    expect(res.rawPayload.equals(armExe)).toBe(true);
  });

  test('the Linux file name is no product of its own (it has no extension)', async () => {
    const res = await t.app.inject({
      method: 'GET',
      remoteAddress: freshAddress(),
      url: '/api/downloads/flaglight-companion-linux-x64',
      headers: { accept: 'application/json' },
    });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: DOWNLOAD_MESSAGES.notAvailable, code: 'not_found' });
  });

  test.each([
    '..%2Fflaglight-companion-linux-x64',
    'flaglight-linux%2F..%2F..%2F..%2Fetc%2Fpasswd',
    '..%5C..%5Cflaglight-linux',
    'flaglight-linux%00',
  ])('a traversal attempt %s is refused with 400', async (product) => {
    const res = await t.app.inject({
      method: 'GET',
      remoteAddress: freshAddress(),
      url: `/api/downloads/${product}`,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: DOWNLOAD_MESSAGES.invalidProduct, code: 'invalid_input' });
  });
});

describe("the companion's update manifest and the files it names", () => {
  let t: TestApp;
  let dir: string;
  // What the packaging step writes (decision 045): the server sends it as it is, never signs.
  const manifest = Buffer.from(
    `${JSON.stringify({ signed: { product: 'flaglight-companion', version: '0.2.0' }, signatures: [{ keyId: 'k', sig: 's' }] }, null, 2)}\n`,
  );
  const windowsExe = Buffer.from('MZ pretend Windows executable '.repeat(300), 'latin1');
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'flaglight-companion-manifest-'));
    fs.writeFileSync(path.join(dir, 'manifest.json'), manifest);
    fs.writeFileSync(path.join(dir, 'flaglight-companion-win-x64.exe'), windowsExe);
    t = await buildTestApp({ env: { DOWNLOADS_DIR: dir } });
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('companion-manifest is manifest.json, byte for byte, as JSON with a strong ETag and five minutes of caching', async () => {
    const res = await t.app.inject({
      method: 'GET',
      remoteAddress: freshAddress(),
      url: '/api/downloads/companion-manifest',
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/json');
    expect(res.headers['cache-control']).toBe('public, max-age=300');
    expect(res.headers.etag).toBe(`"${crypto.createHash('sha256').update(manifest).digest('base64url')}"`);
    expect(res.rawPayload.equals(manifest)).toBe(true);
    const again = await t.app.inject({
      method: 'GET',
      remoteAddress: freshAddress(),
      url: '/api/downloads/companion-manifest',
      headers: { 'if-none-match': String(res.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
  });

  test('the bare Windows executable the manifest names is served by its own name, and resumes', async () => {
    const res = await t.app.inject({
      method: 'GET',
      remoteAddress: freshAddress(),
      url: '/api/downloads/flaglight-companion-win-x64',
      headers: { range: 'bytes=100-' },
    });
    expect(res.statusCode).toBe(206);
    expect(res.headers['content-range']).toBe(`bytes 100-${windowsExe.length - 1}/${windowsExe.length}`);
    expect(res.rawPayload.equals(windowsExe.subarray(100))).toBe(true);
  });

  test('the file name manifest.json is no product (no dot in a product)', async () => {
    const res = await t.app.inject({
      method: 'GET',
      remoteAddress: freshAddress(),
      url: '/api/downloads/manifest.json',
    });
    expect(res.statusCode).toBe(400);
  });
});

describe('no update manifest published', () => {
  let t: TestApp;
  let dir: string;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'flaglight-companion-no-manifest-'));
    t = await buildTestApp({ env: { DOWNLOADS_DIR: dir } });
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('is a 404 the companion reads as JSON, kept by no cache', async () => {
    const res = await t.app.inject({
      method: 'GET',
      remoteAddress: freshAddress(),
      url: '/api/downloads/companion-manifest',
      headers: { accept: 'application/json' },
    });
    expect(res.statusCode).toBe(404);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.json()).toEqual({ error: DOWNLOAD_MESSAGES.notAvailable, code: 'not_found' });
  });
});

describe('a Linux executable that is a symlink', () => {
  let t: TestApp;
  let dir: string;
  let outside: string;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'flaglight-downloads-'));
    outside = fs.mkdtempSync(path.join(os.tmpdir(), 'flaglight-outside-'));
    fs.writeFileSync(path.join(outside, 'secret'), 'outside the downloads folder');
    fs.symlinkSync(path.join(outside, 'secret'), path.join(dir, 'flaglight-companion-linux-x64'));
    t = await buildTestApp({ env: { DOWNLOADS_DIR: dir } });
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(outside, { recursive: true, force: true });
  });

  test('is not followed out of the folder: 404', async () => {
    const res = await t.app.inject({
      method: 'GET',
      remoteAddress: freshAddress(),
      url: '/api/downloads/flaglight-linux',
    });
    expect(res.statusCode).toBe(404);
    expect(res.body).toContain(DOWNLOAD_MESSAGES.notAvailable);
    expect(res.body).not.toContain('outside the downloads folder');
  });
});

describe('desktop downloads without installers', () => {
  let t: TestApp;
  let emptyDir: string;
  beforeAll(async () => {
    // An empty folder: unset, demo mode would serve whatever apps/companion/dist holds.
    emptyDir = fs.mkdtempSync(path.join(os.tmpdir(), 'flaglight-no-downloads-'));
    t = await buildTestApp({ env: { DOWNLOADS_DIR: emptyDir } });
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(emptyDir, { recursive: true, force: true });
  });

  test.each(['flaglight-setup', 'flaglight-linux'])(
    'a missing build %s: 404 with the not-available message',
    async (product) => {
      const res = await t.app.inject({
        method: 'GET',
        remoteAddress: freshAddress(),
        url: `/api/downloads/${product}`,
        headers: { accept: 'application/json' },
      });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ error: DOWNLOAD_MESSAGES.notAvailable, code: 'not_found' });
    },
  );

  test('a styled, self-contained HTML 404 that links back home', async () => {
    const res = await t.app.inject({
      method: 'GET',
      remoteAddress: freshAddress(),
      url: '/api/downloads/flaglight-setup',
      headers: { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' },
    });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.body).toContain('<h1>The Flaglight desktop app is not available for download yet</h1>');
    expect(res.body).toContain('<a href="/">Back to Flaglight</a>');
    expect(res.body).toContain('<style>');
    // Self-contained: no script, no stylesheet or image from elsewhere.
    expect(res.body).not.toMatch(/<script|<link|<img|src=/);
    expect(res.body).toContain('<code>flaglight-setup</code>');
  });

  test('a client asking for JSON gets {error}', async () => {
    const res = await t.app.inject({
      method: 'GET',
      remoteAddress: freshAddress(),
      url: '/api/downloads/flaglight-setup',
      headers: { accept: 'application/json' },
    });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({
      error: 'The Flaglight desktop app is not available for download yet',
      code: 'not_found',
    });
  });

  test('no Accept header gets the page too (a plain link click or curl)', async () => {
    const res = await t.app.inject({
      method: 'GET',
      remoteAddress: freshAddress(),
      url: '/api/downloads/flaglight-setup',
    });
    expect(res.statusCode).toBe(404);
    expect(res.body).toContain('<!doctype html>');
  });
});

describe('resuming, revalidating and limiting downloads', () => {
  let t: TestApp;
  let dir: string;
  // Random bytes: a part from the wrong place could not equal the file's tail by chance.
  const installer = crypto.randomBytes(300_000);
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'flaglight-downloads-'));
    fs.writeFileSync(path.join(dir, 'flaglight-setup.exe'), installer);
    fs.writeFileSync(path.join(dir, 'flaglight-linux-x64-spare.zip'), installer);
    t = await buildTestApp({ env: { DOWNLOADS_DIR: dir } });
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const download = (headers: Record<string, string> = {}, method: 'GET' | 'HEAD' = 'GET') =>
    t.app.inject({
      method,
      url: '/api/downloads/flaglight-setup',
      headers,
      remoteAddress: freshAddress(),
    });

  test('a dropped download resumes: Range bytes=N- answers 206 with exactly the rest of the file', async () => {
    const full = await download();
    expect(full.statusCode).toBe(200);
    expect(full.headers['accept-ranges']).toBe('bytes');
    const from = 123_457;
    const rest = await download({ range: `bytes=${from}-`, 'if-range': String(full.headers.etag) });
    expect(rest.statusCode).toBe(206);
    expect(rest.headers['content-range']).toBe(`bytes ${from}-${installer.length - 1}/${installer.length}`);
    expect(rest.headers['content-length']).toBe(String(installer.length - from));
    expect(rest.headers['content-disposition']).toBe('attachment; filename="flaglight-setup.exe"');
    expect(rest.rawPayload.equals(installer.subarray(from))).toBe(true);
  });

  test('one inner range, and the last N bytes (bytes=-N)', async () => {
    const inner = await download({ range: 'bytes=10-19' });
    expect(inner.statusCode).toBe(206);
    expect(inner.headers['content-range']).toBe(`bytes 10-19/${installer.length}`);
    expect(inner.rawPayload.equals(installer.subarray(10, 20))).toBe(true);
    const tail = await download({ range: 'bytes=-1000' });
    expect(tail.statusCode).toBe(206);
    expect(tail.rawPayload.equals(installer.subarray(-1000))).toBe(true);
    // A last position past the end is cut to the end.
    const past = await download({ range: `bytes=299990-999999999` });
    expect(past.headers['content-range']).toBe(`bytes 299990-299999/${installer.length}`);
    expect(past.rawPayload.equals(installer.subarray(299_990))).toBe(true);
  });

  test('a range past the end is 416 with Content-Range: bytes */size and a clear error', async () => {
    for (const range of [`bytes=${installer.length}-`, 'bytes=999999999-', 'bytes=-0']) {
      const res = await download({ range });
      expect(res.statusCode, range).toBe(416);
      expect(res.headers['content-range']).toBe(`bytes */${installer.length}`);
      expect(res.json()).toEqual({
        error: `The requested range is past the end of the file (the file has ${installer.length} bytes)`,
        code: 'invalid_input',
      });
    }
  });

  test.each(['bytes=0-9,20-29', 'bytes=abc-', 'bytes=20-10', 'lines=1-2', 'bytes=', 'bytes=--5'])(
    'a Range the server may ignore (%s) gets the whole file, 200',
    async (range) => {
      const res = await download({ range });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-range']).toBeUndefined();
      expect(res.rawPayload.equals(installer)).toBe(true);
    },
  );

  test('If-None-Match with the ETag is a 304 without a body; another tag gets the file', async () => {
    const first = await download();
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^"[\w-]{43}"$/);
    for (const ifNoneMatch of [etag, `"other", ${etag}`, `W/${etag}`, '*']) {
      const again = await download({ 'if-none-match': ifNoneMatch });
      expect(again.statusCode, ifNoneMatch).toBe(304);
      expect(again.rawPayload.length).toBe(0);
      expect(again.headers.etag).toBe(etag);
      expect(again.headers['cache-control']).toBe('public, max-age=300');
    }
    const other = await download({ 'if-none-match': '"not-this-one"' });
    expect(other.statusCode).toBe(200);
    expect(other.rawPayload.equals(installer)).toBe(true);
  });

  test('If-Range with an old ETag or a date gets the whole, current file instead of a part of it', async () => {
    for (const ifRange of ['"an-older-build"', 'Sat, 29 Nov 2026 08:00:00 GMT', 'W/"weak"']) {
      const res = await download({ range: 'bytes=100-', 'if-range': ifRange });
      expect(res.statusCode, ifRange).toBe(200);
      expect(res.rawPayload.equals(installer)).toBe(true);
    }
  });

  test('a new build at the same URL gets a new ETag; the old one no longer answers 304', async () => {
    const file = path.join(dir, 'flaglight-linux-x64-spare.zip');
    const url = '/api/downloads/flaglight-linux-x64-spare';
    const get = (headers: Record<string, string> = {}) =>
      t.app.inject({ method: 'GET', url, headers, remoteAddress: freshAddress() });
    const old = String((await get()).headers.etag);
    const rebuilt = Buffer.concat([installer, Buffer.from('a newer build')]);
    fs.writeFileSync(file, rebuilt);
    const res = await get({ 'if-none-match': old });
    expect(res.statusCode).toBe(200);
    expect(res.headers.etag).not.toBe(old);
    expect(res.rawPayload.equals(rebuilt)).toBe(true);
  });

  test('a CDN or proxy may keep the file for five minutes; a missing build is never kept', async () => {
    const res = await download();
    expect(res.headers['cache-control']).toBe('public, max-age=300');
    const missing = await t.app.inject({
      method: 'GET',
      url: '/api/downloads/flaglight-mac',
      remoteAddress: freshAddress(),
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['cache-control']).toBe('no-store');
  });

  test('HEAD tells the length and the ETag without a body', async () => {
    const res = await download({}, 'HEAD');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-length']).toBe(String(installer.length));
    expect(res.headers.etag).toMatch(/^"[\w-]{43}"$/);
    expect(res.rawPayload.length).toBe(0);
  });

  test('the same bytes have the same ETag on another instance, whatever their file time', async () => {
    const otherDir = fs.mkdtempSync(path.join(os.tmpdir(), 'flaglight-downloads-'));
    const copy = path.join(otherDir, 'flaglight-setup.exe');
    fs.writeFileSync(copy, installer);
    fs.utimesSync(copy, new Date('2026-01-01T00:00:00Z'), new Date('2026-01-01T00:00:00Z'));
    const other = await buildTestApp({ env: { DOWNLOADS_DIR: otherDir } });
    try {
      const there = await other.app.inject({
        method: 'GET',
        url: '/api/downloads/flaglight-setup',
        headers: { 'if-none-match': String((await download()).headers.etag) },
      });
      expect(there.statusCode).toBe(304);
    } finally {
      await other.close();
      fs.rmSync(otherDir, { recursive: true, force: true });
    }
  });

  test('30 parallel anonymous downloads from one address: past the limit, 429 with a clear error and Retry-After', async () => {
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = t.app.server.address() as AddressInfo;
    const answers = await Promise.all(
      Array.from({ length: 30 }, () => fetch(`http://127.0.0.1:${port}/api/downloads/flaglight-setup`)),
    );
    const bodies = await Promise.all(answers.map(async (res) => Buffer.from(await res.arrayBuffer())));
    const served = answers.filter((res) => res.status === 200);
    const refused = answers.flatMap((res, i) => (res.status === 429 ? [{ res, body: bodies[i]! }] : []));
    expect(served).toHaveLength(DOWNLOADS_PER_MINUTE);
    expect(refused).toHaveLength(30 - DOWNLOADS_PER_MINUTE);
    for (const [i, res] of answers.entries())
      if (res.status === 200) expect(bodies[i]!.equals(installer)).toBe(true);
    for (const { res, body } of refused) {
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(JSON.parse(body.toString())).toEqual({
        error: 'Too many requests. Please wait 1 minute and try again.',
        code: 'rate_limited',
      });
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    const sent = bodies.reduce((sum, body) => sum + body.length, 0);
    console.log(
      `30 parallel downloads of ${installer.length} bytes from one address: ${served.length} served, ${refused.length} refused, ${sent} bytes sent`,
    );
    // Another address is not held back by this one.
    expect((await download()).statusCode).toBe(200);
  });
});
