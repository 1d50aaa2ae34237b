import { API_ROUTES, AUTH_LEVELS, ErrorBodySchema, type RouteDef } from '@flaglight/contract';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { RegisteredRoute } from '../src/http/route-table.js';
import { verifyEmailByMail } from './account-helpers.js';
import { concreteUrl, productRoutes } from './api-routes.js';
import { linkDevice } from './device-helpers.js';
import { buildTestApp, type TestApp } from './helper.js';
import { signInExpiredTrial, signUp } from './live-helpers.js';

const contractRoutes = API_ROUTES as readonly RouteDef[];
const key = (route: { method: string; path?: string; url?: string }) =>
  `${route.method} ${route.path ?? route.url}`;

type Tokens = Record<'user' | 'admin' | 'expired' | 'device', string>;
type Call = (token?: string) => Promise<LightMyRequestResponse>;

/** The parts of /api/openapi.json the contract is checked against. */
interface OpenApiDocument {
  openapi: string;
  paths: Record<
    string,
    Record<
      string,
      {
        responses: Record<string, { content?: Record<string, unknown> }>;
        requestBody?: unknown;
        parameters?: unknown[];
        security?: unknown;
      }
    >
  >;
}

/** What a route answers signed out, as a linked companion, as a user and as an admin. */
async function expectEachRoleAnswered(route: RegisteredRoute, call: Call, tokens: Tokens): Promise<void> {
  const signedOut = await call();
  if (route.auth === 'public') {
    expect([401, 403], `${key(route)} signed out`).not.toContain(signedOut.statusCode);
    return;
  }
  expect(signedOut.statusCode, `${key(route)} signed out`).toBe(401);
  expect(signedOut.json(), key(route)).toMatchObject({ code: 'unauthenticated' });
  // A companion's device token opens `device` routes only: never the account's own.
  const asDevice = await call(tokens.device);
  if (route.auth === 'device') {
    expect(asDevice.statusCode, `${key(route)} as a companion`).not.toBe(401);
    if (asDevice.statusCode === 403) expect(asDevice.json().code, key(route)).not.toBe('forbidden');
  } else {
    expect(asDevice.statusCode, `${key(route)} as a companion`).toBe(401);
    expect(asDevice.json(), key(route)).toMatchObject({ code: 'unauthenticated' });
  }
  const asUser = await call(tokens.user);
  if (route.auth === 'admin') {
    expect(asUser.statusCode, `${key(route)} as a user`).toBe(403);
    expect(asUser.json()).toEqual({ error: 'Admin access required', code: 'forbidden' });
    const asAdmin = await call(tokens.admin);
    expect(asAdmin.statusCode, `${key(route)} as an admin`).not.toBe(401);
    expect(asAdmin.statusCode, `${key(route)} as an admin`).not.toBe(403);
  } else if (route.deviceOnly) {
    // The companion's own reports: a signed-in account (even an admin) is refused.
    for (const role of ['user', 'admin'] as const) {
      const asRole = role === 'user' ? asUser : await call(tokens.admin);
      expect(asRole.statusCode, `${key(route)} as ${role}`).toBe(403);
      expect(asRole.json(), key(route)).toMatchObject({ code: 'forbidden' });
    }
  } else {
    // A 403 may still come from the feature itself (Hue refusing a key), never from the auth layer.
    expect(asUser.statusCode, `${key(route)} as a user`).not.toBe(401);
    if (asUser.statusCode === 403) expect(asUser.json().code, key(route)).not.toBe('forbidden');
  }
}

describe('the API contract, as the server registered it', () => {
  let t: TestApp;
  const tokens: Tokens = {
    user: '',
    admin: '',
    expired: '',
    device: '',
  };

  beforeAll(async () => {
    t = await buildTestApp({ env: { AUTH_RATE_LIMIT_PER_MINUTE: '1000', ADMIN_EMAILS: 'boss@example.com' } });
    tokens.user = await signUp(t, 'fan@example.com');
    tokens.admin = await signUp(t, 'boss@example.com');
    // ADMIN_EMAILS rights need a proved address.
    await verifyEmailByMail(t, 'boss@example.com', tokens.admin);
    tokens.expired = await signInExpiredTrial(t, 'ended@example.com');
    // A linked companion of the fan's account: its device token.
    tokens.device = (await linkDevice(t, tokens.user)).token;
  });
  afterAll(() => t.close());

  test('every route declares who may call it, and is in the contract (a route without a level fails here)', () => {
    const registered = productRoutes(t.app);
    expect(registered.length).toBeGreaterThan(40);
    const undeclared = registered.filter((route) => !AUTH_LEVELS.includes(route.auth as never));
    expect(undeclared.map(key)).toEqual([]);
    const inContract = new Set(contractRoutes.map(key));
    // Besides the contract: the OpenAPI document, and the built web app's files.
    const outside = registered.filter(
      (route) =>
        !inContract.has(key(route)) &&
        route.url !== '/api/openapi.json' &&
        !route.url.startsWith('/api/docs'),
    );
    expect(outside.filter((route) => !route.url.startsWith('/assets') && route.url !== '/').map(key)).toEqual(
      [],
    );
  });

  test('every contract route is registered with the level, the plan rule and the device-only rule the contract gives it', () => {
    const registered = new Map(productRoutes(t.app).map((route) => [key(route), route]));
    for (const route of contractRoutes) {
      expect(registered.get(key(route))?.auth, key(route)).toBe(route.auth);
      expect(registered.get(key(route))?.plan, key(route)).toBe(route.plan);
      expect(registered.get(key(route))?.deviceOnly, key(route)).toBe(route.deviceOnly === true);
      if (route.deviceOnly) expect(route.auth, key(route)).toBe('device');
    }
  });

  test('every contract route declares its client errors (4xx), and one with a per-minute limit declares its 429', () => {
    const withoutClientErrors = contractRoutes.filter(
      (route) =>
        !Object.keys(route.responses).some((status) => Number(status) >= 400 && Number(status) < 500),
    );
    expect(withoutClientErrors.map(key)).toEqual([]);
    const declared = new Map(contractRoutes.map((route) => [key(route), route]));
    const limitedWithout429 = productRoutes(t.app).filter(
      (route) =>
        route.rateLimited && declared.has(key(route)) && !('429' in declared.get(key(route))!.responses),
    );
    expect(limitedWithout429.map(key)).toEqual([]);
  });

  test('route × role, from the registered routes: signed out, signed in, admin, linked companion', async () => {
    for (const route of productRoutes(t.app)) {
      if (route.url === '/api/live/events') continue; // its ticket is the credential, checked below
      const url = concreteUrl(route);
      const call = async (token?: string) => {
        const res = await t.app.inject({
          method: route.method as 'GET',
          url,
          ...(token ? { headers: { authorization: `Bearer ${token}` } } : {}),
          ...(route.method === 'GET' ? {} : { payload: {} }),
        });
        return res;
      };
      await expectEachRoleAnswered(route, call, tokens);
    }
  });

  test('route × plan: an ended trial gets 403 trial_expired on exactly the paid routes the contract names', async () => {
    const declared = new Map(contractRoutes.map((route) => [key(route), route.plan]));
    const paid: string[] = [];
    for (const route of productRoutes(t.app)) {
      if (route.auth === 'public') continue;
      const url = concreteUrl(route);
      const call = (token: string) =>
        t.app.inject({
          method: route.method as 'GET',
          url,
          headers: { authorization: `Bearer ${token}` },
          ...(route.method === 'GET' ? {} : { payload: {} }),
        });
      const asExpired = await call(tokens.expired);
      if (declared.get(key(route))) {
        paid.push(key(route));
        expect(asExpired.statusCode, `${key(route)} as an ended trial`).toBe(403);
        expect(asExpired.json(), key(route)).toEqual({
          error: 'Your free trial has ended. Upgrade to keep following live sessions.',
          code: 'trial_expired',
        });
        // A running trial and an admin (operator: always active) pass the plan check.
        for (const role of ['user', 'admin'] as const) {
          const other = await call(tokens[role]);
          if (other.statusCode === 403)
            expect(other.json().code, `${key(route)} as ${role}`).not.toBe('trial_expired');
        }
      } else if (route.auth !== 'admin') {
        if (asExpired.statusCode === 403) expect(asExpired.json().code, key(route)).not.toBe('trial_expired');
      }
    }
    // The paid features: live data, the stream's ticket, free-form Hue and Govee light control.
    expect(paid.sort()).toEqual([
      'GET /api/live/state',
      'GET /api/openf1/proxy/*',
      'POST /api/govee/lights/state',
      'POST /api/live/ticket',
      'PUT /hue/lights/:id/state',
    ]);
  });

  test('the event stream opens only with a ticket', async () => {
    const none = await t.app.inject({ method: 'GET', url: '/api/live/events?ticket=made-up' });
    expect(none.statusCode).toBe(401);
    expect(ErrorBodySchema.parse(none.json()).code).toBe('unauthenticated');
  });

  test('/api/openapi.json lists every registered route with its request and response schemas', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json<OpenApiDocument>();
    expect(doc.openapi).toMatch(/^3\./);
    // The demo's simulators are mounted in this app but are not part of the API.
    expect(Object.keys(doc.paths).filter((path) => path.startsWith('/sims'))).toEqual([]);
    for (const route of contractRoutes) {
      const path = route.path.replace(/:([A-Za-z]+)/g, '{$1}').replace(/\*$/, '{*}');
      const operation = doc.paths[path]?.[route.method.toLowerCase()];
      expect(operation, key(route)).toBeDefined();
      for (const status of Object.keys(route.responses)) {
        const content = operation!.responses[status]?.content;
        expect(content, `${key(route)} ${status}`).toBeDefined();
        if (Number(status) >= 400) expect(Object.keys(content!)).toEqual(['application/json']);
      }
      if (route.produces)
        expect(Object.keys(operation!.responses['200']?.content ?? {})).toEqual([route.produces]);
      if (route.body) expect(operation!.requestBody, `${key(route)} body`).toBeDefined();
      if (route.query || route.params)
        expect(operation!.parameters?.length, `${key(route)} parameters`).toBeGreaterThan(0);
      if (route.auth !== 'public') expect(operation!.security, key(route)).toEqual([{ bearer: [] }]);
    }
  });

  test('/api/docs renders from files served by the server itself (offline)', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/api/docs/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    const scripts = [...page.body.matchAll(/<script src="([^"]+)"/g)].map((m) => m[1]!);
    expect(scripts.length).toBeGreaterThan(0);
    for (const src of scripts) {
      expect(src, 'no script from another origin').not.toMatch(/^https?:/);
      const script = await t.app.inject({ method: 'GET', url: new URL(src, 'http://x/api/docs/').pathname });
      expect(script.statusCode, src).toBe(200);
    }
  });
});
