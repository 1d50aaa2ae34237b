import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { BODY_LIMIT_BYTES } from '../src/app.js';
import { HttpError } from '../src/http/errors.js';
import { buildTestApp, type TestApp } from './helper.js';

describe('the HTTP skeleton', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({
      // Routes that exist only in this test, to drive the error handler.
      configure(app) {
        app.get('/api/test/boom', async () => {
          throw new Error('database password is hunter2');
        });
        app.get('/api/test/teapot', async () => {
          throw new HttpError(418, 'I am a teapot');
        });
        app.post('/api/test/echo', async (request) => ({ got: request.body }));
      },
    });
  });
  afterAll(() => t.close());

  test('GET /api/health answers {"ok":true}', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true });
  });

  test('an unknown API path is a 404 with {"error":"Not found"}', async () => {
    for (const url of ['/api/nope', '/auth/nope', '/admin/nope', '/hue/nope', '/api/health/extra']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
      expect(res.json()).toEqual({ error: 'Not found', code: 'not_found' });
    }
  });

  test('a stray page path in a browser is sent home, where the hash routes live', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/dashboard', headers: { accept: 'text/html' } });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/');
  });

  test('malformed JSON is a 400 with a clear error', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/test/echo',
      headers: { 'content-type': 'application/json' },
      payload: '{"email": "a@b.c",',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'Malformed JSON in request body', code: 'invalid_input' });
  });

  test('an oversize body is refused with 413', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/test/echo',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ blob: 'x'.repeat(BODY_LIMIT_BYTES) }),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ error: 'Request body is too large', code: 'payload_too_large' });
  });

  test('an unsupported content type is refused with 415', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/test/echo',
      headers: { 'content-type': 'application/x-unknown' },
      payload: 'hello',
    });
    expect(res.statusCode).toBe(415);
    expect(res.json()).toEqual({ error: 'Unsupported Content-Type', code: 'unsupported_media_type' });
  });

  test('a domain error keeps its 4xx status and message', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/test/teapot' });
    expect(res.statusCode).toBe(418);
    expect(res.json()).toEqual({ error: 'I am a teapot', code: 'invalid_input' });
  });

  test('an unexpected error is a generic 500 that leaks nothing', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/test/boom' });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ error: 'Internal server error', code: 'internal_error' });
    expect(res.body).not.toContain('hunter2');
  });

  test('security headers are set', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
  });
});

describe('serving the built web app', () => {
  let t: TestApp;
  let dist: string;
  beforeAll(async () => {
    dist = fs.mkdtempSync(path.join(os.tmpdir(), 'flaglight-dist-'));
    fs.mkdirSync(path.join(dist, 'assets'));
    fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>Flaglight</title>');
    fs.writeFileSync(path.join(dist, 'assets', 'index-abc123.js'), 'console.log(1)');
    t = await buildTestApp({ webDistDir: dist });
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(dist, { recursive: true, force: true });
  });

  test('the index is served and always revalidated', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<title>Flaglight</title>');
    expect(res.headers['cache-control']).toBe('no-cache');
  });

  test('hashed assets are cached for a year', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/assets/index-abc123.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  test('a missing asset is a 404', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/assets/missing.js' });
    expect(res.statusCode).toBe(404);
  });
});

describe('without a web build', () => {
  test('/ explains how to build instead of failing', async () => {
    const t = await buildTestApp();
    try {
      const res = await t.app.inject({ method: 'GET', url: '/' });
      expect(res.statusCode).toBe(503);
      expect(res.body).toContain('npm run build');
    } finally {
      await t.close();
    }
  });
});
