import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { freshAddress } from './device-helpers.js';
import { buildTestApp, type TestApp } from './helper.js';

// The kept companion versions (decision 045): DOWNLOADS_DIR/releases/<version>/ as packaging lays
// them out; the index lists each signed manifest as it is, the files are served by version.
describe('the companion versions the server keeps', () => {
  let t: TestApp;
  let dir: string;
  const manifest = (version: string) => ({ signed: { version }, signatures: [{ keyId: 'k', sig: 's' }] });
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'flaglight-releases-'));
    for (const version of ['0.9.0', '0.10.0', '0.2.1']) {
      fs.mkdirSync(path.join(dir, 'releases', version), { recursive: true });
      fs.writeFileSync(
        path.join(dir, 'releases', version, 'manifest.json'),
        JSON.stringify(manifest(version)),
      );
      fs.writeFileSync(
        path.join(dir, 'releases', version, 'flaglight-companion-linux-x64'),
        `linux ${version}`,
      );
      fs.writeFileSync(
        path.join(dir, 'releases', version, 'flaglight-companion-win-x64.exe'),
        `win ${version}`,
      );
    }
    fs.mkdirSync(path.join(dir, 'releases', 'not-a-version'));
    fs.writeFileSync(path.join(dir, 'releases', 'not-a-version', 'manifest.json'), '{}');
    fs.mkdirSync(path.join(dir, 'releases', '0.1.0'));
    fs.writeFileSync(path.join(dir, 'releases', '0.1.0', 'manifest.json'), 'not json');
    t = await buildTestApp({ env: { DOWNLOADS_DIR: dir } });
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  const get = (url: string) => t.app.inject({ method: 'GET', remoteAddress: freshAddress(), url });

  test('the index holds every signed manifest as it is, newest first, and nothing else', async () => {
    const res = await get('/api/downloads/companion-releases');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ manifests: [manifest('0.10.0'), manifest('0.9.0'), manifest('0.2.1')] });
  });

  test("a version's file by the name its manifest gives", async () => {
    const linux = await get('/api/downloads/companion-releases/0.9.0/flaglight-linux');
    expect(linux.statusCode).toBe(200);
    expect(linux.body).toBe('linux 0.9.0');
    expect(linux.headers.etag).toBeTruthy();
    const win = await get('/api/downloads/companion-releases/0.2.1/flaglight-companion-win-x64');
    expect(win.body).toBe('win 0.2.1');
  });

  test('no way out of the folder, and a version not kept is not found', async () => {
    const r = await get('/api/downloads/companion-releases/..%2F..%2Fetc/passwd');
    expect(r.statusCode, r.body.slice(0, 200)).toBe(400);
    expect((await get('/api/downloads/companion-releases/0.9.0/flaglight.linux')).statusCode).toBe(400);
    expect((await get('/api/downloads/companion-releases/0.9.9/flaglight-linux')).statusCode).toBe(404);
  });

  // Not "without DOWNLOADS_DIR": demo mode then serves the companion's own build folder, which
  // `npm run test:package` fills before Vitest runs in CI.
  test('a downloads folder that keeps no release has an empty index', async () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'flaglight-releases-empty-'));
    const bare = await buildTestApp({ env: { DOWNLOADS_DIR: empty } });
    const res = await bare.app.inject({
      method: 'GET',
      remoteAddress: freshAddress(),
      url: '/api/downloads/companion-releases',
    });
    expect(res.json()).toEqual({ manifests: [] });
    await bare.close();
    fs.rmSync(empty, { recursive: true, force: true });
  });
});
