import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { hashPassword } from '../src/auth/passwords.js';
import { buildTestApp, dialects, type TestApp } from './helper.js';

type Role = 'signedOut' | 'trial' | 'lifetime' | 'pro' | 'admin' | 'operator';

function adminSuite(dialect: (typeof dialects)[number]) {
  let t: TestApp;
  const tokens: Partial<Record<Role, string>> = {};
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    t = await buildTestApp({
      dialect,
      env: { ADMIN_EMAILS: 'ops@flaglight.test', AUTH_RATE_LIMIT_PER_MINUTE: '1000' },
    });
    const users = t.context.auth.users;
    const passwordHash = await hashPassword('Secret!123');
    const make = async (
      role: Exclude<Role, 'signedOut'>,
      plan: 'trial' | 'lifetime' | 'pro',
      isAdmin = false,
    ) => {
      const email = role === 'operator' ? 'ops@flaglight.test' : `${role}@example.com`;
      const row = await users.insert({
        email,
        passwordHash,
        plan,
        isAdmin,
        now: new Date(),
        trialExpires: null,
        // The operator proved its address (ADMIN_EMAILS rights need it).
        emailVerifiedAt: role === 'operator' ? new Date() : null,
      });
      ids[role] = row!.id;
      const login = await t.app.inject({
        method: 'POST',
        url: '/auth/login',
        payload: {
          email,
          password: 'Secret!123',
          turnstileToken: t.context.sims!.turnstile.control.issueToken(),
        },
      });
      tokens[role] = login.json().token;
    };
    await make('trial', 'trial');
    await make('lifetime', 'lifetime');
    await make('pro', 'pro');
    await make('admin', 'lifetime', true);
    await make('operator', 'trial');
  });
  afterAll(() => t.close());

  const call = (role: Role, method: 'GET' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({
      method,
      url,
      ...(payload ? { payload } : {}),
      headers: tokens[role as Exclude<Role, 'signedOut'>]
        ? { authorization: `Bearer ${tokens[role as Exclude<Role, 'signedOut'>]}` }
        : {},
    });

  const routes = (): Array<[string, 'GET' | 'PUT' | 'DELETE', string, object | undefined]> => [
    ['list users', 'GET', '/admin/users', undefined],
    ['stats', 'GET', '/admin/stats', undefined],
    ['upgrade', 'PUT', `/admin/users/${ids.trial}/plan`, { plan: 'lifetime' }],
    ['delete', 'DELETE', `/admin/users/${ids.pro}`, undefined],
  ];

  test('every admin route answers 401 signed out and 403 to trial, lifetime and pro users', async () => {
    for (const [name, method, url, payload] of routes()) {
      expect((await call('signedOut', method, url, payload)).statusCode, `${name} signed out`).toBe(401);
      for (const role of ['trial', 'lifetime', 'pro'] as const) {
        const res = await call(role, method, url, payload);
        expect(res.statusCode, `${name} as ${role}`).toBe(403);
        expect(res.json()).toEqual({ error: 'Admin access required', code: 'forbidden' });
      }
    }
  });

  test('the account routes answer each role as expected (route × role)', async () => {
    type Expect = Record<Role, number>;
    const all = (signedOut: number, rest: number): Expect => ({
      signedOut,
      trial: rest,
      lifetime: rest,
      pro: rest,
      admin: rest,
      operator: rest,
    });
    const matrix: Array<[string, 'GET' | 'POST', string, object | undefined, Expect]> = [
      ['me', 'GET', '/api/auth/me', undefined, all(401, 200)],
      ['verify', 'GET', '/auth/verify', undefined, all(401, 200)],
      ['licence status', 'GET', '/api/license/status', undefined, all(401, 200)],
      ['licence verify (blank)', 'POST', '/api/license/verify', { licenseKey: ' ' }, all(401, 400)],
      ['check payments', 'POST', '/api/payments/check-payments', undefined, all(401, 200)],
      [
        'upgrade after payment (unknown)',
        'POST',
        '/api/payments/upgrade-after-payment',
        { sessionId: 'cs_unknown' },
        all(401, 404),
      ],
      ['track session', 'POST', '/api/sessions/track', { sessionData: { session_key: 1 } }, all(401, 200)],
      [
        'start checkout',
        'POST',
        '/api/payments/checkout',
        undefined,
        { signedOut: 401, trial: 200, lifetime: 409, pro: 409, admin: 409, operator: 200 },
      ],
    ];
    for (const [name, method, url, payload, expected] of matrix) {
      for (const role of Object.keys(expected) as Role[]) {
        const res = await t.app.inject({
          method,
          url,
          ...(payload ? { payload } : {}),
          headers: tokens[role as Exclude<Role, 'signedOut'>]
            ? { authorization: `Bearer ${tokens[role as Exclude<Role, 'signedOut'>]}` }
            : {},
        });
        expect(res.statusCode, `${name} as ${role}`).toBe(expected[role]);
      }
    }
  });

  test('an admin sees users and stats; an ADMIN_EMAILS operator is an admin too', async () => {
    for (const role of ['admin', 'operator'] as const) {
      const list = await call(role, 'GET', '/admin/users');
      expect(list.statusCode).toBe(200);
      const users = list.json().users as Array<{ email: string; isAdmin: boolean }>;
      expect(users.map((u) => u.email).sort()).toEqual(
        [
          'admin@example.com',
          'lifetime@example.com',
          'ops@flaglight.test',
          'pro@example.com',
          'trial@example.com',
        ].sort(),
      );
      expect(users.find((u) => u.email === 'ops@flaglight.test')?.isAdmin).toBe(true);
    }
    const stats = (await call('admin', 'GET', '/admin/stats')).json();
    expect(stats).toMatchObject({
      totalUsers: 5,
      trialUsers: 2,
      lifetimeUsers: 2,
      revenueTotal: 0,
      totalRevenue: 0,
    });
  });

  test('an admin upgrades a trial user to lifetime, once', async () => {
    const res = await call('admin', 'PUT', `/admin/users/${ids.trial}/plan`, { plan: 'lifetime' });
    expect(res.statusCode).toBe(200);
    expect(res.json().user.plan).toBe('lifetime');
    const again = await call('admin', 'PUT', `/admin/users/${ids.trial}/plan`, { plan: 'lifetime' });
    expect(again.statusCode).toBe(409);
    expect(
      (await call('admin', 'PUT', `/admin/users/${ids.operator}/plan`, { plan: 'lifetime' })).statusCode,
    ).toBe(409);
    const bad = await call('admin', 'PUT', `/admin/users/${ids.pro}/plan`, { plan: 'gold' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toEqual(expect.any(String));
  });

  test('an admin deletes a non-admin user but never an admin', async () => {
    expect((await call('admin', 'DELETE', `/admin/users/${ids.admin}`)).statusCode).toBe(409);
    expect((await call('admin', 'DELETE', `/admin/users/${ids.operator}`)).statusCode).toBe(409);
    const res = await call('admin', 'DELETE', `/admin/users/${ids.pro}`);
    expect(res.json()).toEqual({ ok: true });
    expect((await call('pro', 'GET', '/api/auth/me')).statusCode).toBe(401);
    expect((await call('admin', 'DELETE', `/admin/users/${ids.pro}`)).statusCode).toBe(404);
  });
}

for (const dialect of dialects) {
  describe(`admin on ${dialect}`, () => adminSuite(dialect));
}
