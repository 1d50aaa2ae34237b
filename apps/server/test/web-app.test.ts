import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { COMPRESSION_THRESHOLD_BYTES } from '../src/http/compression.js';
import { buildTestApp, type TestApp } from './helper.js';
import { signUp } from './live-helpers.js';

const ASSET = 'assets/index-Dx8mQ2rT.js';
const IMMUTABLE = 'public, max-age=31536000, immutable';

/** Decodes a body as the browser would, by its Content-Encoding. */
function decode(body: Buffer, encoding: string | string[] | undefined): Buffer {
  if (encoding === 'br') return zlib.brotliDecompressSync(body);
  if (encoding === 'gzip') return zlib.gunzipSync(body);
  expect(encoding).toBeUndefined();
  return body;
}

/**
 * A built web app as `npm run build` leaves it (apps/web/vite.config.ts): each text file with a
 * `.br` and `.gz` beside it, except the tiny one, which compression would not make smaller.
 */
function writeFixtureDist(): string {
  const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'flaglight-dist-'));
  fs.mkdirSync(path.join(dist, 'assets'));
  const files: Record<string, string> = {
    'index.html': `<!doctype html><title>Flaglight</title><script type="module" src="/${ASSET}"></script>${'<!-- padding -->'.repeat(100)}`,
    [ASSET]: Array.from({ length: 400 }, (_, i) => `export const flag${i} = 'yellow sector ${i}';`).join(
      '\n',
    ),
    'favicon.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>',
  };
  for (const [name, text] of Object.entries(files)) {
    fs.writeFileSync(path.join(dist, name), text);
    if (name === 'favicon.svg') continue;
    fs.writeFileSync(path.join(dist, `${name}.br`), zlib.brotliCompressSync(text));
    fs.writeFileSync(path.join(dist, `${name}.gz`), zlib.gzipSync(text));
  }
  return dist;
}

describe('the built web app, compressed at build time', () => {
  let t: TestApp;
  let dist: string;
  beforeAll(async () => {
    dist = writeFixtureDist();
    t = await buildTestApp({ webDistDir: dist });
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(dist, { recursive: true, force: true });
  });

  const get = (url: string, acceptEncoding?: string) =>
    t.app.inject({
      method: 'GET',
      url,
      headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding },
    });

  test.each([
    ['br, gzip, deflate', 'br'],
    ['gzip, deflate', 'gzip'],
    ['gzip;q=0.5, br;q=0.1', 'gzip'],
    ['*', 'gzip'],
    ['identity', undefined],
    [undefined, undefined],
  ])('Accept-Encoding %s gets %s, the same bytes once decoded', async (acceptEncoding, expected) => {
    for (const [url, file] of [
      [`/${ASSET}`, ASSET],
      ['/', 'index.html'],
    ] as const) {
      const res = await get(url, acceptEncoding);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-encoding']).toBe(expected);
      expect(res.headers.vary).toMatch(/accept-encoding/i);
      expect(Number(res.headers['content-length'])).toBe(res.rawPayload.length);
      expect(decode(res.rawPayload, res.headers['content-encoding'])).toEqual(
        fs.readFileSync(path.join(dist, file)),
      );
    }
    expect((await get(`/${ASSET}`, acceptEncoding)).headers['content-type']).toMatch(/javascript/);
    expect((await get('/', acceptEncoding)).headers['content-type']).toMatch(/^text\/html/);
  });

  test('the compressed copy is much smaller on the wire', async () => {
    const plain = (await get(`/${ASSET}`)).rawPayload.length;
    expect((await get(`/${ASSET}`, 'br')).rawPayload.length).toBeLessThan(plain / 4);
    expect((await get(`/${ASSET}`, 'gzip')).rawPayload.length).toBeLessThan(plain / 4);
  });

  test('hashed assets are cached for a year, in every encoding', async () => {
    for (const encoding of ['br', 'gzip', undefined]) {
      expect((await get(`/${ASSET}`, encoding)).headers['cache-control']).toBe(IMMUTABLE);
    }
  });

  test('the index is revalidated every time, in every encoding', async () => {
    for (const url of ['/', '/index.html']) {
      for (const encoding of ['br', 'gzip', undefined]) {
        expect((await get(url, encoding)).headers['cache-control']).toBe('no-cache');
      }
    }
  });

  test('a stray path in the browser goes to the index (routes live after the hash)', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/dashboard', headers: { accept: 'text/html' } });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/');
  });

  test('a file without compressed copies is sent as it is, not compressed on the fly', async () => {
    const res = await get('/favicon.svg', 'br, gzip');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.body).toBe('<svg xmlns="http://www.w3.org/2000/svg"/>');
    expect(res.headers['cache-control']).toBe('no-cache');
  });

  test('the icon browsers ask for by its old name is the SVG (no 404 in their console)', async () => {
    const res = await get('/favicon.ico');
    expect(res.statusCode).toBe(301);
    expect(res.headers.location).toBe('/favicon.svg');
    expect((await get('/favicon.svg')).statusCode).toBe(200);
    // A fixed address: nothing the caller sends can turn it into a redirect elsewhere.
    for (const url of ['/favicon.ico?next=//evil.example', '/favicon.ico/..%2F%2Fevil.example']) {
      const probe = await get(url);
      if (probe.statusCode === 301) expect(probe.headers.location).toBe('/favicon.svg');
      else expect(probe.statusCode).toBe(404);
    }
  });

  test('the compressed copies are not addresses of their own', async () => {
    expect((await get(`/${ASSET}.br`, 'br')).statusCode).toBe(404);
    expect((await get('/index.html.gz', 'gzip')).statusCode).toBe(404);
  });
});

describe('API answers', () => {
  let t: TestApp;
  let downloads: string;
  const installer = Buffer.from('\x7fELF pretend Linux desktop app '.repeat(200), 'latin1');
  beforeAll(async () => {
    downloads = fs.mkdtempSync(path.join(os.tmpdir(), 'flaglight-downloads-'));
    fs.writeFileSync(path.join(downloads, 'flaglight-linux.appimage'), installer);
    t = await buildTestApp({ env: { DOWNLOADS_DIR: downloads } });
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(downloads, { recursive: true, force: true });
  });

  const get = (url: string, headers: Record<string, string>) => t.app.inject({ method: 'GET', url, headers });

  test('a large JSON answer is compressed in the encoding the client prefers', async () => {
    const plain = await get('/api/replays', {});
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(COMPRESSION_THRESHOLD_BYTES);
    for (const [acceptEncoding, expected] of [
      ['gzip, deflate, br', 'br'],
      ['gzip', 'gzip'],
    ] as const) {
      const res = await get('/api/replays', { 'accept-encoding': acceptEncoding });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-encoding']).toBe(expected);
      expect(res.headers.vary).toMatch(/accept-encoding/i);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);
      expect(JSON.parse(decode(res.rawPayload, expected).toString('utf8'))).toEqual(plain.json());
    }
  });

  test('a small JSON answer is sent as it is', async () => {
    const res = await get('/api/health', { 'accept-encoding': 'br, gzip' });
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.json()).toEqual({ ok: true });
  });

  test('errors are JSON as before, compressed only when large', async () => {
    const res = await get('/api/nope', { 'accept-encoding': 'br, gzip' });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.json()).toMatchObject({ code: 'not_found' });
  });

  test('a client without Accept-Encoding gets plain JSON', async () => {
    const res = await get('/api/replays', {});
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.json().sessions.length).toBeGreaterThan(0);
  });

  test('a desktop download is sent byte for byte with its length, never compressed', async () => {
    const res = await get('/api/downloads/flaglight-linux', { 'accept-encoding': 'br, gzip' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/octet-stream');
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers['content-length']).toBe(String(installer.length));
    expect(res.rawPayload.equals(installer)).toBe(true);
  });

  test('the simulators answer like the services they stand in for, uncompressed', async () => {
    const res = await get('/sims/openf1/v1/sessions', { 'accept-encoding': 'br, gzip' });
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.length).toBeGreaterThan(COMPRESSION_THRESHOLD_BYTES);
    expect(res.headers['content-encoding']).toBeUndefined();
  });
});

describe('the event stream', () => {
  let t: TestApp;
  let origin: string;
  let token: string;
  beforeAll(async () => {
    t = await buildTestApp();
    token = await signUp(t);
    origin = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => t.close());

  test('is never compressed and each event leaves at once, whatever the client accepts', async () => {
    const ticket = (
      await t.app.inject({
        method: 'POST',
        url: '/api/live/ticket',
        headers: { authorization: `Bearer ${token}` },
      })
    ).json().ticket as string;
    const { headers, firstBytes, ended } = await new Promise<{
      headers: http.IncomingHttpHeaders;
      firstBytes: string;
      ended: boolean;
    }>((resolve, reject) => {
      const request = http.get(
        `${origin}/api/live/events?ticket=${ticket}`,
        { headers: { accept: 'text/event-stream', 'accept-encoding': 'br, gzip, deflate' } },
        (res) => {
          let ended = false;
          res.on('end', () => (ended = true));
          res.once('data', (chunk: Buffer) => {
            resolve({ headers: res.headers, firstBytes: chunk.toString('utf8'), ended });
            request.destroy();
          });
        },
      );
      request.on('error', reject);
    });
    expect(headers['content-type']).toMatch(/^text\/event-stream/);
    expect(headers['content-encoding']).toBeUndefined();
    expect(headers['cache-control']).toContain('no-transform');
    // Plain text, read while the stream is still open: nothing sits in a compressor's buffer.
    expect(firstBytes).toMatch(/^retry: \d+\n\n/);
    expect(ended).toBe(false);
  });
});
