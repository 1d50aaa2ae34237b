import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { LICENCE_MESSAGES } from '../src/licences/service.js';
import { buildTestApp, dialects, type TestApp } from './helper.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

function licenceSuite(dialect: (typeof dialects)[number]) {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ dialect, env: { AUTH_RATE_LIMIT_PER_MINUTE: '1000' } });
  });
  afterAll(() => t.close());

  const signup = async (email: string) =>
    (
      await t.app.inject({
        method: 'POST',
        url: '/auth/signup',
        payload: {
          email,
          password: 'Secret!123',
          plan: 'trial',
          turnstileToken: t.context.sims!.turnstile.control.issueToken(),
        },
      })
    ).json().token as string;
  const verify = (token: string, licenseKey: unknown) =>
    t.app.inject({
      method: 'POST',
      url: '/api/license/verify',
      payload: { licenseKey },
      headers: { authorization: `Bearer ${token}` },
    });
  const status = async (token: string) =>
    (
      await t.app.inject({
        method: 'GET',
        url: '/api/license/status',
        headers: { authorization: `Bearer ${token}` },
      })
    ).json();

  test('a trial user has no active licence; a key makes the plan lifetime, once', async () => {
    const token = await signup('key@example.com');
    expect(await status(token)).toEqual({ hasActiveLicense: false, licenseDetails: null });
    const key = await t.context.licences.issue({ plan: 'lifetime', source: 'admin' });
    expect(key).toMatch(/^[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}$/);
    const res = await verify(token, ` ${key.toLowerCase()} `);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ success: true, user: { plan: 'lifetime' } });
    expect(await status(token)).toMatchObject({
      hasActiveLicense: true,
      licenseDetails: { activatedAt: expect.any(String) },
    });

    const other = await signup('other@example.com');
    const reuse = await verify(other, key);
    expect(reuse.statusCode).toBe(400);
    expect(reuse.json()).toEqual({ error: LICENCE_MESSAGES.invalidKey, code: 'invalid_input' });
  });

  test('a blank key, a made-up key and no sign-in are refused clearly', async () => {
    const token = await signup('blank@example.com');
    expect((await verify(token, '   ')).json()).toEqual({
      error: 'Please enter a license key.',
      code: 'invalid_input',
    });
    expect((await verify(token, 'ABCD-EFGH-JKLM-NPQR')).json()).toEqual({
      error: LICENCE_MESSAGES.invalidKey,
      code: 'invalid_input',
    });
    expect((await verify(token, 42)).statusCode).toBe(400);
    const anonymous = await t.app.inject({
      method: 'POST',
      url: '/api/license/verify',
      payload: { licenseKey: 'x' },
    });
    expect(anonymous.statusCode).toBe(401);
  });
}

for (const dialect of dialects) {
  describe(`licences on ${dialect}`, () => licenceSuite(dialect));
}

describe('npm run licence', () => {
  test('issues lifetime keys into the configured database, and rejects bad usage', async () => {
    const t = await buildTestApp();
    try {
      const env = { ...process.env, DATA_DIR: t.config.dataDir, FLAGLIGHT_MODE: 'demo' };
      const ok = spawnSync(
        'npm',
        ['run', '-s', 'licence', '--', 'issue', '--plan', 'lifetime', '--count', '2'],
        {
          cwd: root,
          env,
          encoding: 'utf8',
        },
      );
      expect(ok.status).toBe(0);
      const keys = ok.stdout.trim().split('\n');
      expect(keys).toHaveLength(2);
      const bad = spawnSync('npm', ['run', '-s', 'licence', '--', 'issue', '--plan', 'gold'], {
        cwd: root,
        env,
        encoding: 'utf8',
      });
      expect(bad.status).toBe(1);
      expect(bad.stderr).toContain('Usage: npm run licence -- issue --plan lifetime|pro');
      // The CLI wrote to the same SQLite file the app reads.
      const signup = await t.app.inject({
        method: 'POST',
        url: '/auth/signup',
        payload: {
          email: 'cli@example.com',
          password: 'Secret!123',
          turnstileToken: t.context.sims!.turnstile.control.issueToken(),
        },
      });
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/license/verify',
        payload: { licenseKey: keys[0] },
        headers: { authorization: `Bearer ${signup.json().token}` },
      });
      expect(res.json().user.plan).toBe('lifetime');
    } finally {
      await t.close();
    }
  });
});
