import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { COMPANION_BUILD_DIR, ConfigError, parseConfig } from './config.js';

describe('parseConfig', () => {
  test('no configuration runs demo mode on port 3000 with SQLite in ./data and the simulators', () => {
    const config = parseConfig({});
    expect(config.mode).toBe('demo');
    expect(config.port).toBe(3000);
    expect(config.database).toEqual({
      kind: 'sqlite',
      file: expect.stringMatching(/data[\\/]flaglight\.db$/),
    });
    // Unset service URLs mean the in-process simulators (the composition root fills them in).
    expect(config.openf1.baseUrl).toBeUndefined();
    expect(config.turnstile.verifyUrl).toBeUndefined();
    expect(config.lifx.apiUrl).toBe('/sims/lifx/v1');
  });

  test('PORT overrides the port and the public URL follows it', () => {
    const config = parseConfig({ PORT: '4100' });
    expect(config.port).toBe(4100);
    expect(config.publicUrl).toBe('http://localhost:4100');
  });

  test("the app's origins are PUBLIC_URL's, with its loopback twins only when it is on loopback", () => {
    expect(parseConfig({ PORT: '4100' }).appOrigins).toEqual([
      'http://localhost:4100',
      'http://127.0.0.1:4100',
      'http://[::1]:4100',
    ]);
    expect(parseConfig({ PUBLIC_URL: 'http://127.0.0.1:3199/' }).appOrigins).toEqual([
      'http://127.0.0.1:3199',
      'http://localhost:3199',
      'http://[::1]:3199',
    ]);
    expect(parseConfig({ PUBLIC_URL: 'https://Flaglight.example/app' }).appOrigins).toEqual([
      'https://flaglight.example',
    ]);
  });

  test('an explicit service URL wins in demo mode too', () => {
    expect(parseConfig({ OPENF1_BASE_URL: 'http://127.0.0.1:9/x/' }).openf1.baseUrl).toBe(
      'http://127.0.0.1:9/x',
    );
  });

  test('a postgres DATABASE_URL selects PostgreSQL', () => {
    expect(parseConfig({ DATABASE_URL: 'postgres://u@h:5432/db' }).database).toEqual({
      kind: 'postgres',
      url: 'postgres://u@h:5432/db',
    });
  });

  test('setting a real key switches to live mode, which then needs APP_SECRET', () => {
    expect(() => parseConfig({ STRIPE_SECRET_KEY: 'sk_live_x' })).toThrow(
      'Invalid configuration: APP_SECRET is required in live mode (at least 32 characters)',
    );
  });

  test('live mode with its keys points at the real services', () => {
    const config = parseConfig({
      FLAGLIGHT_MODE: 'live',
      APP_SECRET: 'x'.repeat(32),
      TURNSTILE_SITE_KEY: 'site',
      TURNSTILE_SECRET_KEY: 'secret',
    });
    expect(config.mode).toBe('live');
    expect(config.openf1.baseUrl).toBe('https://api.openf1.org');
    expect(config.turnstile.verifyUrl).toBe('https://challenges.cloudflare.com/turnstile/v0/siteverify');
  });

  test("demo mode without DOWNLOADS_DIR serves the companion's build folder; live mode nothing", () => {
    // The repository's apps/companion/dist, whatever the working folder.
    expect(COMPANION_BUILD_DIR).toBe(path.resolve(import.meta.dirname, '../../companion/dist'));
    expect(fs.existsSync(path.join(COMPANION_BUILD_DIR, '..', 'scripts', 'package.mjs'))).toBe(true);
    expect(parseConfig({}).downloadsDir).toBe(COMPANION_BUILD_DIR);
    expect(parseConfig({ DOWNLOADS_DIR: 'some/folder' }).downloadsDir).toBe(path.resolve('some/folder'));
    const live = parseConfig({
      FLAGLIGHT_MODE: 'live',
      APP_SECRET: 'x'.repeat(32),
      TURNSTILE_SITE_KEY: 'site',
      TURNSTILE_SECRET_KEY: 'secret',
    });
    expect(live.downloadsDir).toBeUndefined();
  });

  test.each([
    [{ PORT: 'abc' }, 'Invalid configuration: PORT must be a port number'],
    [{ PORT: '70000' }, 'Invalid configuration: PORT must be between 0 and 65535'],
    [{ FLAGLIGHT_MODE: 'prod' }, 'Invalid configuration: FLAGLIGHT_MODE must be "demo" or "live"'],
    [
      { DATABASE_URL: 'mysql://x' },
      'Invalid configuration: DATABASE_URL must be a postgres:// URL or sqlite:<file path>',
    ],
    [{ REDIS_URL: 'http://x' }, 'Invalid configuration: REDIS_URL must be a redis:// URL'],
    [
      { ADMIN_EMAILS: 'a@b.co, nope' },
      'Invalid configuration: ADMIN_EMAILS must be a comma-separated list of e-mail addresses',
    ],
    [
      { LOG_LEVEL: 'loud' },
      'Invalid configuration: LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent',
    ],
    [
      { TRUST_PROXY: 'true' },
      'Invalid configuration: TRUST_PROXY must not be "true" (any client could then choose its own address)',
    ],
    [
      { TRUST_PROXY: '10.0.0.1, proxy.example' },
      'Invalid configuration: TRUST_PROXY must be a hop count (e.g. 1) or a comma-separated list of proxy IP addresses or CIDRs',
    ],
    [{ TRUST_PROXY: '10.0.0.0/33' }, 'Invalid configuration: TRUST_PROXY must be a hop count'],
    [
      { OPENF1_USERNAME: 'me' },
      'Invalid configuration: OPENF1_USERNAME and OPENF1_PASSWORD must be set together',
    ],
  ])('a bad value stops start-up with one line naming the variable: %o', (env, message) => {
    expect(() => parseConfig(env)).toThrow(ConfigError);
    expect(() => parseConfig(env)).toThrow(message);
  });

  test('ADMIN_EMAILS is a trimmed, lower-cased list', () => {
    expect(parseConfig({ ADMIN_EMAILS: ' Boss@Example.com ,ops@example.com' }).adminEmails).toEqual([
      'boss@example.com',
      'ops@example.com',
    ]);
  });

  test('ADMIN_EMAILS are normalized like every address (NFKC), and a hidden character is refused', () => {
    expect(parseConfig({ ADMIN_EMAILS: '\u212Aelvin@Example.com,' }).adminEmails).toEqual([
      'kelvin@example.com',
    ]);
    expect(() => parseConfig({ ADMIN_EMAILS: 'boss\u200B@example.com' })).toThrow(
      'Invalid configuration: ADMIN_EMAILS must be a comma-separated list of e-mail addresses',
    );
  });

  test('TRUST_PROXY is off by default: the socket address is the client', () => {
    expect(parseConfig({}).trustProxy).toBe(false);
    expect(parseConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(parseConfig({ TRUST_PROXY: '0' }).trustProxy).toBe(false);
  });

  test('TRUST_PROXY takes a hop count or a list of proxy addresses and CIDRs', () => {
    expect(parseConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(
      parseConfig({ TRUST_PROXY: ' 10.0.0.0/8, 192.168.1.2 ,::1, fd00::/8,loopback' }).trustProxy,
    ).toEqual(['10.0.0.0/8', '192.168.1.2', '::1', 'fd00::/8', 'loopback']);
  });

  test('demo mode listens on loopback unless HOST is set; live mode on every interface', () => {
    expect(parseConfig({})).toMatchObject({ host: '127.0.0.1', hostFromEnv: false });
    expect(parseConfig({ HOST: '0.0.0.0' })).toMatchObject({ host: '0.0.0.0', hostFromEnv: true });
    const live = parseConfig({
      FLAGLIGHT_MODE: 'live',
      APP_SECRET: 'x'.repeat(32),
      TURNSTILE_SITE_KEY: 'site',
      TURNSTILE_SECRET_KEY: 'secret',
    });
    expect(live).toMatchObject({ host: '0.0.0.0', hostFromEnv: false });
  });
});
