import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DOWNLOAD_MESSAGES } from '../src/downloads/routes.js';
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
    const res = await t.app.inject({ method: 'GET', url: '/api/downloads/flaglight-setup' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toBe('attachment; filename="flaglight-setup.exe"');
    expect(res.headers['content-type']).toBe('application/vnd.microsoft.portable-executable');
    expect(res.headers['content-length']).toBe(String(installer.length));
    expect(res.rawPayload.equals(installer)).toBe(true);
  });

  test('another product with another installer type', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/downloads/flaglight-mac' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toBe('attachment; filename="flaglight-mac.dmg"');
    expect(res.body).toBe('dmg');
  });

  test.each(['notes', 'readme', 'folder-setup', 'linked-setup', 'missing-setup'])(
    '%s is no installer: the not-available page, 404',
    async (product) => {
      const res = await t.app.inject({
        method: 'GET',
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
    const res = await t.app.inject({ method: 'GET', url: `/api/downloads/${product}` });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: DOWNLOAD_MESSAGES.invalidProduct, code: 'invalid_input' });
  });

  test('a traversal outside the route does not reach a file', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/downloads/../../etc/passwd' });
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
    const res = await t.app.inject({ method: 'GET', url: '/api/downloads/flaglight-setup' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toBe('attachment; filename="flaglight-setup.exe"');
    expect(res.headers['content-type']).toBe('application/vnd.microsoft.portable-executable');
    expect(res.rawPayload.equals(setup)).toBe(true);
  });

  test('flaglight-linux is the Linux executable, under its own name', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/downloads/flaglight-linux' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/octet-stream');
    expect(res.headers['content-disposition']).toBe('attachment; filename="flaglight-companion-linux-x64"');
    expect(res.headers['content-length']).toBe(String(linuxExe.length));
    expect(res.rawPayload.equals(linuxExe)).toBe(true);
  });

  test('flaglight-linux-arm64 is the Raspberry Pi (arm64) executable, under its own name', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/downloads/flaglight-linux-arm64' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/octet-stream');
    expect(res.headers['content-disposition']).toBe('attachment; filename="flaglight-companion-linux-arm64"');
    expect(res.rawPayload.equals(armExe)).toBe(true);
  });

  test('the Linux file name is no product of its own (it has no extension)', async () => {
    const res = await t.app.inject({
      method: 'GET',
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
    const res = await t.app.inject({ method: 'GET', url: `/api/downloads/${product}` });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: DOWNLOAD_MESSAGES.invalidProduct, code: 'invalid_input' });
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
    const res = await t.app.inject({ method: 'GET', url: '/api/downloads/flaglight-linux' });
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
    const res = await t.app.inject({ method: 'GET', url: '/api/downloads/flaglight-setup' });
    expect(res.statusCode).toBe(404);
    expect(res.body).toContain('<!doctype html>');
  });
});
