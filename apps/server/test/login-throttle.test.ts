import crypto from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { LOGIN_FREE_FAILURES, loginDelayMs } from '../src/auth/login-throttle.js';
import { linkToken, RESET_SUBJECT, waitForMail } from './account-helpers.js';
import { buildTestApp, type TestApp } from './helper.js';

const STRONG = 'Sunday!Race1';
const WRONG = 'Wrong!Guess1';
const TEST_REDIS_URL = process.env.TEST_REDIS_URL;

/** The app's clock, moved by the tests: no test waits for real time to pass. */
function createClock() {
  let at = new Date('2026-11-21T12:00:00.000Z').getTime();
  return { now: () => new Date(at), advance: (ms: number) => (at += ms) };
}

function client(t: TestApp) {
  const bot = () => t.context.sims!.turnstile.control.issueToken();
  const post = (url: string, payload: object) => t.app.inject({ method: 'POST', url, payload });
  return {
    signup: (email: string) => post('/auth/signup', { email, password: STRONG, turnstileToken: bot() }),
    login: (email: string, password: string, url = '/auth/login') =>
      post(url, { email, password, turnstileToken: bot() }),
    async resetPassword(email: string, password: string) {
      await post('/auth/forgot-password', { email });
      const token = linkToken(await waitForMail(t, email, RESET_SUBJECT), 'reset-password');
      return post('/auth/reset-password', { token, password });
    },
  };
}

async function deleteKeys(prefix: string) {
  const admin = new Redis(TEST_REDIS_URL!);
  const keys = await admin.keys(`${prefix}*`);
  if (keys.length) await admin.del(...keys);
  admin.disconnect();
}

function throttleSuite(redis: boolean) {
  const clock = createClock();
  const prefix = `flaglight-test-${crypto.randomBytes(4).toString('hex')}:`;
  const redisEnv: Record<string, string> = redis
    ? { REDIS_URL: TEST_REDIS_URL!, REDIS_KEY_PREFIX: prefix }
    : {};
  let t: TestApp;
  let c: ReturnType<typeof client>;
  beforeAll(async () => {
    t = await buildTestApp({
      now: clock.now,
      env: { AUTH_RATE_LIMIT_PER_MINUTE: '10000', ...redisEnv },
    });
    c = client(t);
  });
  afterAll(async () => {
    await t.close();
    if (redis) await deleteKeys(prefix);
  });

  /** Guesses until refused, then waits exactly the Retry-After; the waits it was given. */
  async function attack(email: string, refusals: number) {
    const waits: number[] = [];
    const statuses: number[] = [];
    while (waits.length < refusals) {
      const res = await c.login(email, WRONG);
      statuses.push(res.statusCode);
      if (res.statusCode === 429) {
        const seconds = Number(res.headers['retry-after']);
        expect(res.json()).toEqual({
          error: expect.stringMatching(
            /^Too many failed sign-in attempts\. Please wait \d+ (second|minute)s? and try again, or reset your password\.$/,
          ),
          code: 'rate_limited',
          retryAfterSeconds: seconds,
        });
        waits.push(seconds);
        clock.advance(seconds * 1000);
      } else {
        expect(res.statusCode).toBe(401);
      }
    }
    return { waits, statuses };
  }

  test('guessing one account’s password meets growing waits: 1 s, 2 s, 4 s … capped at 15 minutes', async () => {
    await c.signup('victim@example.com');
    const { waits, statuses } = await attack('victim@example.com', 13);
    expect(statuses.slice(0, LOGIN_FREE_FAILURES)).toEqual(Array(LOGIN_FREE_FAILURES).fill(401));
    expect(waits).toEqual([1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 900, 900, 900]);
    // While the wait runs even the right password is refused: the attacker learns nothing from it.
    await c.login('victim@example.com', WRONG);
    const right = await c.login('victim@example.com', STRONG);
    expect(right.statusCode).toBe(429);
    expect(right.json().error).toBe(
      'Too many failed sign-in attempts. Please wait 15 minutes and try again, or reset your password.',
    );
  });

  test('an address without an account gets exactly the same answers (nothing tells them apart)', async () => {
    await c.signup('real@example.com');
    const real = await attack('real@example.com', 6);
    const ghost = await attack('ghost@example.com', 6);
    expect(ghost).toEqual(real);
  });

  test('case variants of an address share one count', async () => {
    await c.signup('cased@example.com');
    for (let i = 0; i < LOGIN_FREE_FAILURES; i++) {
      await c.login(i % 2 ? 'Cased@Example.com' : 'CASED@example.COM', WRONG);
    }
    expect((await c.login('cased@example.com', STRONG)).statusCode).toBe(429);
  });

  test('both sign-in paths share the count', async () => {
    for (let i = 0; i < LOGIN_FREE_FAILURES; i++) {
      await c.login('paths@example.com', WRONG, i % 2 ? '/api/auth/login' : '/auth/login');
    }
    expect((await c.login('paths@example.com', WRONG, '/api/auth/login')).statusCode).toBe(429);
  });

  test('a successful sign-in starts the count afresh', async () => {
    await c.signup('owner@example.com');
    for (let i = 0; i < LOGIN_FREE_FAILURES - 1; i++) {
      expect((await c.login('owner@example.com', WRONG)).statusCode).toBe(401);
    }
    expect((await c.login('owner@example.com', STRONG)).statusCode).toBe(200);
    // Without the reset, the next failure would start a wait and the one after be refused.
    for (let i = 0; i < LOGIN_FREE_FAILURES; i++) {
      expect((await c.login('owner@example.com', WRONG)).statusCode).toBe(401);
    }
    expect((await c.login('owner@example.com', WRONG)).statusCode).toBe(429);
  });

  test('the owner signs in at once after a password reset, however long the attacker made the wait', async () => {
    await c.signup('besieged@example.com');
    const { waits } = await attack('besieged@example.com', 11);
    expect(waits.at(-1)).toBe(900);
    await c.login('besieged@example.com', WRONG);
    expect((await c.login('besieged@example.com', STRONG)).statusCode).toBe(429);

    const reset = await c.resetPassword('besieged@example.com', 'Fresh!Start9');
    expect(reset.statusCode).toBe(200);
    const owner = await c.login('besieged@example.com', 'Fresh!Start9');
    expect(owner.statusCode).toBe(200);
    expect(owner.json().user.email).toBe('besieged@example.com');
  });
}

describe('failed sign-in throttle, counted in the process', () => throttleSuite(false));

describe.skipIf(!TEST_REDIS_URL)('failed sign-in throttle, counted in Redis (set TEST_REDIS_URL)', () => {
  throttleSuite(true);

  test('two instances share one count per address', async () => {
    const clock = createClock();
    const env = {
      AUTH_RATE_LIMIT_PER_MINUTE: '10000',
      REDIS_URL: TEST_REDIS_URL!,
      REDIS_KEY_PREFIX: `flaglight-test-${crypto.randomBytes(4).toString('hex')}:`,
    };
    const one = await buildTestApp({ now: clock.now, env });
    const two = await buildTestApp({ now: clock.now, env });
    try {
      for (let i = 0; i < LOGIN_FREE_FAILURES; i++) {
        const app = i % 2 ? two : one;
        expect((await client(app).login('shared@example.com', WRONG)).statusCode).toBe(401);
      }
      const refused = await client(two).login('shared@example.com', WRONG);
      expect(refused.statusCode).toBe(429);
      expect(refused.headers['retry-after']).toBe('1');
    } finally {
      await one.close();
      await two.close();
      await deleteKeys(env.REDIS_KEY_PREFIX);
    }
  });
});

test('the waits double from 1 s after the free failures and stop at 15 minutes', () => {
  expect(loginDelayMs(LOGIN_FREE_FAILURES - 1)).toBe(0);
  expect(loginDelayMs(LOGIN_FREE_FAILURES)).toBe(1_000);
  expect(loginDelayMs(LOGIN_FREE_FAILURES + 3)).toBe(8_000);
  expect(loginDelayMs(LOGIN_FREE_FAILURES + 500)).toBe(15 * 60_000);
});
