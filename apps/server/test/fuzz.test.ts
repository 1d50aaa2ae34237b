import { ErrorBodySchema } from '@flaglight/contract';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { verifyEmailByMail } from './account-helpers.js';
import { concreteUrl, productRoutes } from './api-routes.js';
import { buildTestApp, type TestApp } from './helper.js';

type Route = { method: 'GET' | 'POST' | 'PUT' | 'DELETE'; url: string };

describe('fuzzing every registered route', () => {
  let t: TestApp;
  let token: string;
  // Derived from the routes the app registered (onRoute), so a new route is fuzzed without a list.
  let routes: Route[] = [];
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
    // ADMIN_EMAILS rights need a proved address (issue 13): the admin routes' handlers get fuzzed too.
    await verifyEmailByMail(t, 'fuzz@example.com');
    routes = productRoutes(t.app)
      .filter((route) => /^\/(api|auth|admin|hue)\//.test(route.url)) // not the web app's files
      .map((route) => ({ method: route.method as Route['method'], url: route.url }));
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
        applicationKey: field,
        lightIds: field,
        flag: field,
        source: field,
        id: field,
        speed: field,
        startMinutes: field,
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

  const query = fc.dictionary(
    fc.constantFrom('sessionKey', 'year', 'ticket', 'lastEventId', 'session_key', 'code', 'state', 'x'),
    fc.oneof(fc.string(), fc.integer().map(String), fc.string({ minLength: 300, maxLength: 600 })),
    { maxKeys: 3 },
  );

  test('arbitrary JSON, queries and path values never yield a 5xx; every error is {error, code}', async () => {
    expect(routes.length).toBeGreaterThan(40);
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...routes),
        body,
        query,
        fc.string({ maxLength: 40 }),
        fc.boolean(),
        async (route, payload, search, pathValue, signedIn) => {
          const url = `${concreteUrl(route, pathValue || 'x')}?${new URLSearchParams(search).toString()}`;
          const res = await t.app.inject({
            method: route.method,
            url,
            headers: {
              'content-type': 'application/json',
              accept: 'application/json',
              // Signing out would end the session the other runs rely on.
              ...(signedIn && route.url !== '/auth/logout' ? { authorization: `Bearer ${token}` } : {}),
            },
            ...(route.method === 'GET' ? {} : { payload: JSON.stringify(payload) }),
          });
          const what = `${route.method} ${url} ${JSON.stringify(payload)}`;
          expect(res.statusCode, what).toBeLessThan(500);
          if (res.statusCode >= 400) expect(ErrorBodySchema.safeParse(res.json()).success, what).toBe(true);
        },
      ),
      { numRuns: 600 },
    );
  });

  test('malformed and non-JSON bodies are 4xx on every route', async () => {
    for (const route of routes.filter((r) => r.method !== 'GET')) {
      for (const payload of ['{', 'null', '"text"', '[1,2]', '']) {
        const res = await t.app.inject({
          method: route.method,
          url: concreteUrl(route),
          headers: {
            'content-type': 'application/json',
            accept: 'application/json',
            ...(route.url !== '/auth/logout' ? { authorization: `Bearer ${token}` } : {}),
          },
          payload,
        });
        expect(res.statusCode, `${route.method} ${route.url} ${payload}`).toBeLessThan(500);
        if (res.statusCode >= 400) expect(ErrorBodySchema.safeParse(res.json()).success).toBe(true);
      }
    }
  });
});
