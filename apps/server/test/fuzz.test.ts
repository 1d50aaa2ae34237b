import { ErrorBodySchema } from '@flaglight/contract';
import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { BODY_LIMIT_BYTES } from '../src/app.js';
import { verifyEmailByMail } from './account-helpers.js';
import { concreteUrl, productRoutes } from './api-routes.js';
import { buildTestApp, type TestApp } from './helper.js';

const HOSTILE_SHAPES_TIMEOUT_MS = 90_000;

type Route = { method: 'GET' | 'POST' | 'PUT' | 'DELETE'; url: string };

let t: TestApp;
let token: string;
// Derived from the routes the app registered (onRoute), so a new route is fuzzed without a list.
let routes: Route[] = [];

/** One app for the whole file, signed in as a proved admin so every handler is reached. */
function useFuzzApp() {
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
    // ADMIN_EMAILS rights need a proved address: the admin routes' handlers get fuzzed too.
    await verifyEmailByMail(t, 'fuzz@example.com', token);
    routes = productRoutes(t.app)
      .filter((route) => /^\/(api|auth|admin|hue)\//.test(route.url)) // not the web app's files
      .map((route) => ({ method: route.method as Route['method'], url: route.url }));
  });
  afterAll(() => t.close());
}

/** Every body field some route reads. */
const FIELDS = [
  'email',
  'applicationKey',
  'lightIds',
  'flag',
  'source',
  'id',
  'speed',
  'startMinutes',
  'password',
  'plan',
  'turnstileToken',
  'token',
  'licenseKey',
  'sessionId',
  'sessionData',
  'confirmPassword',
  'extra',
] as const;

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
  fc.record(Object.fromEntries(FIELDS.map((name) => [name, field])), { requiredKeys: [] }),
  fc.jsonValue(),
);

const query = fc.dictionary(
  fc.constantFrom('sessionKey', 'year', 'ticket', 'lastEventId', 'session_key', 'code', 'state', 'x'),
  fc.oneof(fc.string(), fc.integer().map(String), fc.string({ minLength: 300, maxLength: 600 })),
  { maxKeys: 3 },
);

function arbitraryInputTests() {
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
}

/** Sends a raw JSON body (or none) and checks the answer: never a 5xx, every error `{error, code}`. */
async function expectNo5xx(route: Route, url: string, payload: string | undefined, what: string) {
  const res: LightMyRequestResponse = await t.app.inject({
    method: route.method,
    url,
    headers: {
      'content-type': 'application/json',
      accept: 'application/json',
      ...(route.url !== '/auth/logout' ? { authorization: `Bearer ${token}` } : {}),
    },
    ...(route.method === 'GET' || payload === undefined ? {} : { payload }),
  });
  expect.soft(res.statusCode, what).toBeLessThan(500);
  if (res.statusCode >= 400) {
    expect.soft(res.headers['content-type'], what).toMatch(/^application\/json/);
    expect
      .soft(ErrorBodySchema.safeParse(res.json()).success, `${what}: ${res.body.slice(0, 200)}`)
      .toBe(true);
  }
  return res;
}

const nested = (depth: number, leaf: unknown = 1): string =>
  '{"a":'.repeat(depth) + JSON.stringify(leaf) + '}'.repeat(depth);
const nestedArray = (depth: number): string => '['.repeat(depth) + ']'.repeat(depth);
// Strings as JSON text: JSON.stringify writes a lone surrogate as the escape \ud800.
const HOSTILE_STRINGS: Record<string, string> = {
  'a lone high surrogate': '\uD800',
  'a lone low surrogate': 'key\uDC00tail',
  'CR/LF': 'a\r\nX-Injected: 1',
  NUL: 'a\u0000b',
  'a huge string': 'x'.repeat(BODY_LIMIT_BYTES - 200),
};

function hostileInputTests() {
  // Every body field of every route, one request each: it grows with the API (about 15 s on an idle
  // 2-core machine), so it gets more than the file's 20 s.
  test(
    'hostile shapes in every body field of every route: 4xx JSON or success, never a 5xx',
    async () => {
      const bodyRoutes = routes.filter((r) => r.method !== 'GET');
      for (const route of bodyRoutes) {
        const url = concreteUrl(route);
        // 10,000 levels deep: the whole body, an array, and inside each field.
        await expectNo5xx(route, url, nested(10_000), `${route.method} ${route.url} nested body`);
        await expectNo5xx(route, url, nestedArray(10_000), `${route.method} ${route.url} nested array`);
        for (const name of FIELDS) {
          await expectNo5xx(
            route,
            url,
            `{${JSON.stringify(name)}:${nested(10_000)}}`,
            `${route.method} ${route.url} ${name} nested 10,000 deep`,
          );
          for (const [label, value] of Object.entries(HOSTILE_STRINGS)) {
            await expectNo5xx(
              route,
              url,
              JSON.stringify({ [name]: value }),
              `${route.method} ${route.url} ${name} = ${label}`,
            );
          }
        }
        // Every field hostile at once, and inside a free-form object.
        for (const [label, value] of Object.entries(HOSTILE_STRINGS)) {
          const all = Object.fromEntries(FIELDS.map((name) => [name, value]));
          await expectNo5xx(route, url, JSON.stringify(all), `${route.method} ${route.url} all = ${label}`);
          await expectNo5xx(
            route,
            url,
            JSON.stringify({ sessionData: { session_name: value, [value.slice(0, 50)]: value } }),
            `${route.method} ${route.url} sessionData with ${label}`,
          );
        }
      }
    },
    HOSTILE_SHAPES_TIMEOUT_MS,
  );

  // A URL cannot carry a lone surrogate as UTF-8: these are the byte sequences that decode to one
  // (CESU-8), the %u form, bare continuation bytes, and CR/LF/NUL.
  const HOSTILE_URL_VALUES = [
    '%ED%A0%80',
    '%uD800',
    '%80',
    '%0D%0AX-Injected:%201',
    '%00',
    `${'%41'.repeat(3000)}`,
  ];

  test('hostile path values and query values on every route: 4xx JSON or success, never a 5xx', async () => {
    for (const route of routes) {
      for (const raw of HOSTILE_URL_VALUES) {
        const withPath = route.url.replace(/:[A-Za-z]+/g, raw).replace(/\*$/, `v1/${raw}`);
        if (withPath !== route.url)
          await expectNo5xx(route, withPath, '{}', `${route.method} ${withPath.slice(0, 120)}`);
        const keys = ['sessionKey', 'year', 'ticket', 'lastEventId', 'session_key', 'code', 'state', 'x'];
        const query = keys.map((k) => `${k}=${raw}`).join('&');
        await expectNo5xx(
          route,
          `${concreteUrl(route)}?${query}`,
          '{}',
          `${route.method} ${route.url}?…=${raw.slice(0, 30)}`,
        );
      }
    }
  });
}

describe('fuzzing every registered route', () => {
  useFuzzApp();
  describe('arbitrary and malformed input', arbitraryInputTests);
  describe('hostile shapes and values', hostileInputTests);
});
