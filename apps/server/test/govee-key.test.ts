import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEMO_GOVEE_API_KEY } from '@flaglight/sims';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createGoveeCloudClient } from '../src/govee/client.js';
import { buildTestApp, type TestApp } from './helper.js';

/**
 * A Govee key pasted with what a copy brings along (a zero-width space, curly quotes, spaces and
 * line breaks), and Govee answering in words of its own: every answer is the server's own words,
 * never a 5xx for the key, never the HTTP library's or Govee's text.
 */

const STRONG = 'Sunday!Race1';
let counter = 0;

async function signedIn(t: TestApp) {
  counter += 1;
  const res = await t.app.inject({
    method: 'POST',
    url: '/auth/signup',
    payload: {
      email: `govee-key${counter}@example.com`,
      password: STRONG,
      plan: 'trial',
      turnstileToken: t.context.sims!.turnstile.control.issueToken(),
    },
  });
  expect(res.statusCode).toBe(201);
  const token = res.json().token as string;
  return (method: 'GET' | 'POST', url: string, payload?: object) =>
    t.app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${token}` },
      ...(payload ? { payload } : {}),
    });
}

describe('a pasted Govee key', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ env: { AUTH_RATE_LIMIT_PER_MINUTE: '1000' } });
  });
  afterAll(() => t.close());

  const listCalls = () =>
    t.context.sims!.govee.control.requests().filter((r) => r.path.endsWith('/user/devices')).length;

  test.each([
    [
      'a zero-width space inside',
      'demo-gov\u200Bee-key',
      '(U+200B ZERO WIDTH SPACE at position 9): paste the key again.',
    ],
    [
      'curly quotes around it',
      '\u2018demo-govee-key\u2019',
      '(U+2018 LEFT SINGLE QUOTATION MARK at position 1): paste the key again.',
    ],
    ['a space inside', 'demo govee-key', '(U+0020 SPACE at position 5): paste the key again.'],
    ['an emoji after it', 'demo-govee-key🏁', '(U+1F3C1 at position 15): paste the key again.'],
  ])(
    'with %s is refused with 400 invalid_input saying which character and where; Govee is not asked',
    async (_name, apiKey, where) => {
      const call = await signedIn(t);
      const before = listCalls();
      const res = await call('POST', '/api/govee/connect', { apiKey });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        code: 'invalid_input',
        error: `The Govee API key has a character that is not part of a key ${where}`,
      });
      expect(res.body).not.toMatch(/ByteString|TypeError|fetch/i);
      expect(listCalls()).toBe(before);
      expect((await call('GET', '/api/govee/status')).json()).toEqual({ connected: false });
    },
  );

  test('with spaces, a line break and no-break spaces at its ends is trimmed and works with the demo key', async () => {
    const call = await signedIn(t);
    const res = await call('POST', '/api/govee/connect', {
      apiKey: ` \u00A0${DEMO_GOVEE_API_KEY}\u3000\r\n`,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, lights: 6 });
    expect((await call('GET', '/api/govee/status')).json()).toEqual({ connected: true });
    const lights = await call('GET', '/api/govee/lights');
    expect(lights.statusCode).toBe(200);
    expect(lights.json().lights).toHaveLength(6);
  });

  test('the Govee client itself refuses a key a header cannot carry, without a request', async () => {
    const client = createGoveeCloudClient({ apiUrl: `${t.context.sims!.origin}/sims/govee` });
    const before = listCalls();
    const result = await client.listDevices('demo-gov\u200Bee-key');
    expect(result).toMatchObject({ ok: false, kind: 'bad-key' });
    expect(listCalls()).toBe(before);
  });
});

describe('Govee answering in words of its own', () => {
  let t: TestApp;
  let upstream: http.Server;
  let answer: { status: number; type: string; body: string } | 'close' = 'close';
  beforeAll(async () => {
    upstream = http.createServer((req, res) => {
      if (answer === 'close') return req.socket.destroy();
      res.writeHead(answer.status, { 'content-type': answer.type });
      res.end(answer.body);
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const port = (upstream.address() as AddressInfo).port;
    t = await buildTestApp({
      env: { AUTH_RATE_LIMIT_PER_MINUTE: '1000', GOVEE_API_URL: `http://127.0.0.1:${port}` },
    });
  });
  afterAll(async () => {
    await t.close();
    await new Promise<void>((resolve) => upstream.close(() => resolve()));
  });

  const HTML = `<html><body><h1>503 Service Temporarily Unavailable</h1>${'<p>upstream</p>'.repeat(500)}</body></html>`;

  test.each([
    ['a 503 HTML page', () => ({ status: 503, type: 'text/html', body: HTML }), 502],
    [
      'a 400 with its own message',
      () => ({
        status: 400,
        type: 'application/json',
        body: JSON.stringify({ code: 400, msg: '<script>alert(1)</script> invalid parameter' }),
      }),
      502,
    ],
    ['a dropped connection', () => 'close' as const, 502],
  ])('%s: the answer is in the server’s own words, with no details', async (_name, make, status) => {
    answer = make();
    const call = await signedIn(t);
    const res = await call('POST', '/api/govee/connect', { apiKey: DEMO_GOVEE_API_KEY });
    expect(res.statusCode).toBe(status);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['code', 'error']);
    expect(body.code).toBe('upstream_unavailable');
    expect(body.error).not.toMatch(/[<>]|invalid parameter|fetch failed|socket|ECONN|Status code/i);
    expect(body.error.length).toBeLessThanOrEqual(200);
  });
});
