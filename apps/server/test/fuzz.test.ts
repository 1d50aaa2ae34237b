import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildTestApp, type TestApp } from './helper.js';

// Every route of the accounts work, with and without a signed-in user.
const ROUTES: Array<{ method: 'GET' | 'POST' | 'PUT' | 'DELETE'; url: string }> = [
  { method: 'POST', url: '/auth/signup' },
  { method: 'POST', url: '/auth/login' },
  { method: 'POST', url: '/api/auth/login' },
  { method: 'GET', url: '/auth/verify' },
  { method: 'GET', url: '/api/auth/me' },
  { method: 'POST', url: '/auth/logout' },
  { method: 'POST', url: '/auth/forgot-password' },
  { method: 'POST', url: '/auth/reset-password' },
  { method: 'GET', url: '/api/license/status' },
  { method: 'POST', url: '/api/license/verify' },
  { method: 'POST', url: '/api/payments/checkout' },
  { method: 'POST', url: '/api/payments/upgrade-after-payment' },
  { method: 'POST', url: '/api/payments/check-payments' },
  { method: 'POST', url: '/api/payments/webhook' },
  { method: 'POST', url: '/api/sessions/track' },
  { method: 'POST', url: '/api/sessions/end' },
  { method: 'GET', url: '/admin/users' },
  { method: 'GET', url: '/admin/stats' },
  { method: 'PUT', url: '/admin/users/some-id/plan' },
  { method: 'DELETE', url: '/admin/users/some-id' },
];

describe('fuzzing the account routes', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await buildTestApp({
      env: { AUTH_RATE_LIMIT_PER_MINUTE: '100000', ADMIN_EMAILS: 'fuzz@example.com' },
    });
    const res = await t.app.inject({
      method: 'POST',
      url: '/auth/signup',
      payload: {
        email: 'fuzz@example.com',
        password: 'Secret!123',
        turnstileToken: t.context.sims!.turnstile.control.issueToken(),
      },
    });
    token = res.json().token;
  });
  afterAll(() => t.close());

  const field = fc.oneof(
    fc.string(),
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.array(fc.string(), { maxLength: 3 }),
    fc.dictionary(fc.string(), fc.string(), { maxKeys: 3 }),
    fc.string({ minLength: 2000, maxLength: 5000 }),
  );
  const body = fc.oneof(
    fc.record(
      {
        email: field,
        password: field,
        plan: field,
        turnstileToken: field,
        token: field,
        licenseKey: field,
        sessionId: field,
        sessionData: field,
        confirmPassword: field,
        extra: field,
      },
      { requiredKeys: [] },
    ),
    fc.jsonValue(),
  );

  test('arbitrary JSON never yields a 5xx, and every error is {error: string}', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...ROUTES), body, fc.boolean(), async (route, payload, signedIn) => {
        const res = await t.app.inject({
          method: route.method,
          url: route.url,
          headers: {
            'content-type': 'application/json',
            // Signing out would end the session the other runs rely on.
            ...(signedIn && route.url !== '/auth/logout' ? { authorization: `Bearer ${token}` } : {}),
          },
          payload: JSON.stringify(payload),
        });
        expect(res.statusCode, `${route.method} ${route.url} ${JSON.stringify(payload)}`).toBeLessThan(500);
        if (res.statusCode >= 400) expect(typeof res.json().error).toBe('string');
      }),
      { numRuns: 300 },
    );
  });

  test('malformed and non-JSON bodies are 4xx on every route', async () => {
    for (const route of ROUTES) {
      for (const payload of ['{', 'null', '"text"', '[1,2]', '']) {
        const res = await t.app.inject({
          method: route.method,
          url: route.url,
          headers: {
            'content-type': 'application/json',
            ...(route.url !== '/auth/logout' ? { authorization: `Bearer ${token}` } : {}),
          },
          payload,
        });
        expect(res.statusCode, `${route.method} ${route.url} ${payload}`).toBeLessThan(500);
      }
    }
  });
});
