import { HUE_CALLBACKS_PER_MINUTE, LOGOUTS_PER_MINUTE, PUBLIC_READS_PER_MINUTE } from '@flaglight/contract';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildTestApp, type TestApp } from './helper.js';

/** A sign-in attempt from the socket address `remoteAddress`, claiming `forwardedFor` in X-Forwarded-For. */
function loginAttempt(
  t: TestApp,
  options: { url?: string; forwardedFor?: string; remoteAddress?: string } = {},
) {
  return t.app.inject({
    method: 'POST',
    url: options.url ?? '/auth/login',
    remoteAddress: options.remoteAddress ?? '127.0.0.1',
    headers: options.forwardedFor ? { 'x-forwarded-for': options.forwardedFor } : {},
    payload: { email: 'x@example.com', password: 'x', turnstileToken: 'y' },
  });
}

describe('client addresses with TRUST_PROXY unset (the default)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  test('a client that makes up a new X-Forwarded-For for every attempt still hits the 429', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) {
      statuses.push((await loginAttempt(t, { forwardedFor: `203.0.113.${i + 1}` })).statusCode);
    }
    // AUTH_RATE_LIMIT_PER_MINUTE defaults to 10: the 11th attempt of the socket address is refused.
    expect(statuses.slice(0, 10)).not.toContain(429);
    expect(statuses.slice(10).every((status) => status === 429)).toBe(true);
  });

  test('the same goes for forgot-password (half the sign-in budget)', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/auth/forgot-password',
        headers: { 'x-forwarded-for': `198.51.100.${i + 1}` },
        payload: { email: `fan${i}@example.com` },
      });
      statuses.push(res.statusCode);
    }
    expect(statuses.slice(0, 5)).not.toContain(429);
    expect(statuses.slice(5).every((status) => status === 429)).toBe(true);
  });
});

describe('client addresses with TRUST_PROXY=1 (one reverse proxy in front)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ env: { TRUST_PROXY: '1', AUTH_RATE_LIMIT_PER_MINUTE: '3' } });
  });
  afterAll(() => t.close());

  test("the header's last hop (what the proxy saw) is the client, whatever the client wrote before it", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      // The client forges the first entry; the proxy appends the address it really saw.
      const res = await loginAttempt(t, { forwardedFor: `198.51.100.${i + 1}, 203.0.113.7` });
      statuses.push(res.statusCode);
    }
    expect(statuses.slice(0, 3)).not.toContain(429);
    expect(statuses.slice(3)).toEqual([429, 429]);
  });

  test('different clients behind the proxy each get their own budget', async () => {
    for (let i = 0; i < 10; i++) {
      expect((await loginAttempt(t, { forwardedFor: `203.0.113.${100 + i}` })).statusCode).not.toBe(429);
    }
  });
});

describe('client addresses with TRUST_PROXY naming the proxy', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ env: { TRUST_PROXY: '10.0.0.5', AUTH_RATE_LIMIT_PER_MINUTE: '3' } });
  });
  afterAll(() => t.close());

  test('X-Forwarded-For counts from the named proxy and is ignored from anyone else', async () => {
    for (let i = 0; i < 6; i++) {
      const viaProxy = await loginAttempt(t, {
        remoteAddress: '10.0.0.5',
        forwardedFor: `203.0.113.${i + 1}`,
      });
      expect(viaProxy.statusCode).not.toBe(429);
    }
    const direct: number[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await loginAttempt(t, { remoteAddress: '192.0.2.9', forwardedFor: `198.51.100.${i + 1}` });
      direct.push(res.statusCode);
    }
    expect(direct.slice(3)).toEqual([429, 429]);
  });
});

describe('the two sign-in paths', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ env: { AUTH_RATE_LIMIT_PER_MINUTE: '4' } });
  });
  afterAll(() => t.close());

  test('/auth/login and /api/auth/login share one budget: alternating them runs into the 429', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await loginAttempt(t, { url: i % 2 === 0 ? '/auth/login' : '/api/auth/login' });
      statuses.push(res.statusCode);
    }
    expect(statuses.slice(0, 4)).not.toContain(429);
    expect(statuses.slice(4)).toEqual([429, 429]);
    const refused = await loginAttempt(t, { url: '/api/auth/login' });
    expect(refused.json()).toEqual({
      error: expect.stringMatching(/^Too many requests\. Please wait .+ and try again\.$/),
      code: 'rate_limited',
    });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
  });
});

describe('the public routes without a sign-in have a per-address ceiling too', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  /** Calls `url` until the first 429 (or `limit` + 5 calls): the statuses in order. */
  async function untilRefused(method: 'GET' | 'POST', url: string, limit: number, remoteAddress: string) {
    const statuses: number[] = [];
    for (let i = 0; i < limit + 5 && !statuses.includes(429); i++)
      statuses.push((await t.app.inject({ method, url, remoteAddress })).statusCode);
    return statuses;
  }

  test('sign-out: 60 a minute per address, then a JSON 429; another address still signs out', async () => {
    const statuses = await untilRefused('POST', '/auth/logout', LOGOUTS_PER_MINUTE, '198.51.100.7');
    expect(statuses.length).toBe(LOGOUTS_PER_MINUTE + 1);
    expect(new Set(statuses.slice(0, -1))).toEqual(new Set([200]));
    const refused = await t.app.inject({
      method: 'POST',
      url: '/auth/logout',
      remoteAddress: '198.51.100.7',
    });
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ code: 'rate_limited' });
    const other = await t.app.inject({ method: 'POST', url: '/auth/logout', remoteAddress: '198.51.100.8' });
    expect(other.statusCode).toBe(200);
  });

  test('sign-out with a body that is not the JSON it claims: a 400, not a 500', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/auth/logout',
      remoteAddress: '198.51.100.9',
      headers: { 'content-type': 'application/json' },
      payload: '{"token": ',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: expect.any(String), error: expect.any(String) });
  });

  test("Hue's OAuth callback: a page for each of 30 calls a minute per address, then a JSON 429", async () => {
    const statuses = await untilRefused(
      'GET',
      '/auth/hue/callback?code=x&state=y',
      HUE_CALLBACKS_PER_MINUTE,
      '198.51.100.10',
    );
    expect(statuses.length).toBe(HUE_CALLBACKS_PER_MINUTE + 1);
    expect(new Set(statuses.slice(0, -1))).toEqual(new Set([200]));
    const refused = await t.app.inject({
      method: 'GET',
      url: '/auth/hue/callback',
      remoteAddress: '198.51.100.10',
    });
    expect(refused.headers['content-type']).toMatch(/^application\/json/);
    expect(refused.json()).toMatchObject({ code: 'rate_limited' });
  });

  test('public reads: 600 a minute per address and route (the health probe shown; the configuration counted apart)', async () => {
    const health = await untilRefused('GET', '/api/health', PUBLIC_READS_PER_MINUTE, '198.51.100.11');
    expect(health.length).toBe(PUBLIC_READS_PER_MINUTE + 1);
    expect(new Set(health.slice(0, -1))).toEqual(new Set([200]));
    // The configuration has its own count: the health probes above took nothing from it.
    const config = await t.app.inject({ method: 'GET', url: '/api/config', remoteAddress: '198.51.100.11' });
    expect(config.statusCode).toBe(200);
  });
});
