import crypto from 'node:crypto';
import {
  SESSION_TRACKING_PER_ACCOUNT_PER_MINUTE,
  SESSION_TRACKING_PER_ADDRESS_PER_MINUTE,
} from '@flaglight/contract';
import type { LightMyRequestResponse } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { VERIFY_SUBJECT, verifyEmailByMail, waitForMail } from './account-helpers.js';
import { buildTestApp, dialects, type TestApp } from './helper.js';
import { signUp } from './live-helpers.js';

/** Words an attacker would like a fan to read in a mail from us. */
const HOSTILE = 'Your account is locked: visit https://flaglight-support.example/unlock';

type Post = (
  url: string,
  payload: object,
  auth?: string,
  remoteAddress?: string,
) => Promise<LightMyRequestResponse>;

/** The running suite's app, the demo's live session, and a signed POST (the fan's token by default). */
interface TrackingFixture {
  app: () => TestApp;
  liveKey: () => number;
  post: Post;
}

/** Track and end are limited per account and per client address, each route on its own budget. */
function trackingLimitTests(fx: TrackingFixture) {
  test('track and end are limited per account, whatever the address: 429 with Retry-After', async () => {
    const fan = await signUp(fx.app(), 'busy@example.com');
    const statuses: number[] = [];
    for (let i = 0; i <= SESSION_TRACKING_PER_ACCOUNT_PER_MINUTE; i++) {
      const res = await fx.post(
        '/api/sessions/track',
        { sessionData: { session_key: fx.liveKey() } },
        fan,
        `198.51.100.${i + 1}`,
      );
      statuses.push(res.statusCode);
      if (res.statusCode === 429) {
        expect(res.json()).toEqual({
          error: expect.stringMatching(/^Too many requests\. Please wait /),
          code: 'rate_limited',
        });
        expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      }
    }
    expect(statuses.slice(0, -1).every((status) => status === 200)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
    const ends: number[] = [];
    for (let i = 0; i <= SESSION_TRACKING_PER_ACCOUNT_PER_MINUTE; i++)
      ends.push(
        (await fx.post('/api/sessions/end', { sessionId: 'none' }, fan, `198.51.100.${i + 1}`)).statusCode,
      );
    expect(ends.slice(0, -1).every((status) => status === 404)).toBe(true);
    expect(ends.at(-1)).toBe(429);
  });

  test('track and end are limited per client address, whatever the accounts: 429 with Retry-After', async () => {
    const address = '203.0.113.77';
    const accounts = await Promise.all(
      Array.from({ length: Math.ceil(SESSION_TRACKING_PER_ADDRESS_PER_MINUTE / 15) + 1 }, () =>
        signUp(fx.app()),
      ),
    );
    const statuses: number[] = [];
    for (const account of accounts) {
      for (let i = 0; i < 15; i++) {
        const res = await fx.post('/api/sessions/end', { sessionId: 'none' }, account, address);
        statuses.push(res.statusCode);
      }
    }
    expect(statuses.slice(0, SESSION_TRACKING_PER_ADDRESS_PER_MINUTE).every((s) => s === 404)).toBe(true);
    expect(statuses.slice(SESSION_TRACKING_PER_ADDRESS_PER_MINUTE).every((s) => s === 429)).toBe(true);
    // Each route keeps its own budget: tracking from that address still works.
    expect((await fx.post('/api/sessions/track', { sessionData: {} }, accounts[0], address)).statusCode).toBe(
      200,
    );
    const last = await fx.post('/api/sessions/end', { sessionId: 'none' }, accounts[0], address);
    expect(last.statusCode).toBe(429);
    expect(last.json()).toEqual({
      error: expect.stringMatching(/^Too many requests\. Please wait /),
      code: 'rate_limited',
    });
    expect(Number(last.headers['retry-after'])).toBeGreaterThan(0);
    // Another address is not held back.
    expect(
      (await fx.post('/api/sessions/end', { sessionId: 'none' }, accounts[0], '203.0.113.78')).statusCode,
    ).toBe(404);
  });
}

function trackingSuite(dialect: (typeof dialects)[number]) {
  let t: TestApp;
  let token: string;
  /** The session live in the demo (the OpenF1 simulator's replay), and its name as the server gives it. */
  let liveKey: number;
  let liveTitle: string;
  beforeAll(async () => {
    t = await buildTestApp({ dialect, env: { AUTH_RATE_LIMIT_PER_MINUTE: '1000' } });
    token = await signUp(t, 'watcher@example.com');
    await verifyEmailByMail(t, 'watcher@example.com', token);
    const live = await t.context.live.hub.currentLiveSession();
    if (!live) throw new Error('the demo has no live session');
    liveKey = live.session_key;
    const current = (await t.app.inject({ url: '/api/f1/current' })).json();
    liveTitle = `${current.data.race_name} – ${current.data.name}`;
  });
  afterAll(() => t.close());

  const post = (url: string, payload: object, auth = token, remoteAddress = '127.0.0.1') =>
    t.app.inject({
      method: 'POST',
      url,
      payload,
      remoteAddress,
      headers: auth ? { authorization: `Bearer ${auth}` } : {},
    });

  /** The post-race mails an address got (not the sign-up's confirmation). */
  const raceMails = (to: string) =>
    t.context.sims!.mail.control.messagesTo(to).filter((m) => m.subject !== VERIFY_SUBJECT);

  /** Tracks the live session with the attacker's words in every name, then ends it: the end's answer. */
  async function trackAndEnd(bearer: string, sessionKey: number | string = liveKey, remoteAddress?: string) {
    const hostile = {
      session_key: sessionKey,
      race_name: HOSTILE,
      session_name: HOSTILE,
      circuit_name: HOSTILE,
    };
    const tracked = await post('/api/sessions/track', { sessionData: hostile }, bearer, remoteAddress);
    expect(tracked.statusCode, tracked.body).toBe(200);
    const ended = await post(
      '/api/sessions/end',
      { sessionId: tracked.json().sessionId },
      bearer,
      remoteAddress,
    );
    expect(ended.statusCode, ended.body).toBe(200);
    return ended.json<{ success: true; emailSent: boolean }>();
  }

  test('ending a tracked session sends the post-race e-mail once, named as the server knows the session', async () => {
    const tracked = await post('/api/sessions/track', {
      sessionData: {
        session_key: liveKey,
        session_name: 'Race',
        race_name: 'Singapore Grand Prix',
        extra: true,
      },
    });
    expect(tracked.statusCode).toBe(200);
    const { sessionId } = tracked.json();
    expect((await post('/api/sessions/end', { sessionId })).json()).toEqual({
      success: true,
      emailSent: true,
    });
    expect((await post('/api/sessions/end', { sessionId })).json()).toEqual({
      success: true,
      emailSent: false,
    });
    const mail = await waitForMail(t, 'watcher@example.com', `Chequered flag: ${liveTitle}`);
    expect(mail.text).not.toContain('Singapore');
    await new Promise((r) => setTimeout(r, 200));
    expect(raceMails('watcher@example.com')).toHaveLength(1);
  });

  test('an unconfirmed address gets no post-race e-mail, however often track and end are repeated', async () => {
    // Someone signs up with a stranger's address and never confirms it.
    const squatter = await signUp(t, 'stranger@example.com');
    for (let i = 0; i < 8; i++)
      expect(await trackAndEnd(squatter)).toEqual({ success: true, emailSent: false });
    // The mailbox's owner confirms it: the next end of the same session is the first e-mail it gets.
    await verifyEmailByMail(t, 'stranger@example.com', squatter);
    expect(await trackAndEnd(squatter)).toEqual({ success: true, emailSent: true });
    await waitForMail(t, 'stranger@example.com', `Chequered flag: ${liveTitle}`);
    await new Promise((r) => setTimeout(r, 200));
    expect(raceMails('stranger@example.com')).toHaveLength(1);
  });

  test("a confirmed account gets one e-mail per session, in the server's words, never the client's", async () => {
    const fan = await signUp(t, 'repeat@example.com');
    await verifyEmailByMail(t, 'repeat@example.com', fan);
    const answers = [];
    for (let i = 0; i < 8; i++) answers.push((await trackAndEnd(fan)).emailSent);
    expect(answers).toEqual([true, false, false, false, false, false, false, false]);
    // Sessions the server does not know (past, made up) are no reason to mail.
    for (const key of [9165, 1, '100001x', 'latest'])
      expect(await trackAndEnd(fan, key)).toEqual({ success: true, emailSent: false });
    const mail = await waitForMail(t, 'repeat@example.com', `Chequered flag: ${liveTitle}`);
    await new Promise((r) => setTimeout(r, 200));
    const mails = t.context.sims!.mail.control.messagesTo('repeat@example.com');
    expect(mails.filter((m) => m.subject !== VERIFY_SUBJECT)).toHaveLength(1);
    for (const part of [mail.subject, mail.text, mails.at(-1)!.html ?? ''])
      expect(part).not.toMatch(/locked|flaglight-support/);
  });

  test('ending many tracked copies of one session at once sends one e-mail', async () => {
    const fan = await signUp(t, 'race@example.com');
    await verifyEmailByMail(t, 'race@example.com', fan);
    const ids = await Promise.all(
      Array.from({ length: 6 }, async () => {
        const res = await post('/api/sessions/track', { sessionData: { session_key: liveKey } }, fan);
        return res.json().sessionId as string;
      }),
    );
    const ends = await Promise.all(ids.map((sessionId) => post('/api/sessions/end', { sessionId }, fan)));
    expect(ends.map((res) => res.json().emailSent).filter(Boolean)).toEqual([true]);
    await waitForMail(t, 'race@example.com', `Chequered flag: ${liveTitle}`);
    await new Promise((r) => setTimeout(r, 200));
    expect(raceMails('race@example.com')).toHaveLength(1);
  });

  trackingLimitTests({ app: () => t, liveKey: () => liveKey, post });

  test('a deeply nested or oversized sessionData is a clear 400, never a crash', async () => {
    // 10,000 levels: serializing it used to overflow the stack (a 500).
    const deep = await t.app.inject({
      method: 'POST',
      url: '/api/sessions/track',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      payload: `{"sessionData":{"extra":${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}}}`,
    });
    expect(deep.statusCode).toBe(400);
    expect(deep.json()).toEqual({ error: expect.stringMatching(/nested too deeply/), code: 'invalid_input' });
    // Nine levels is one too many for sessionData (at most 8).
    let nine: Record<string, unknown> = { a: 1 };
    for (let i = 0; i < 7; i++) nine = { a: nine };
    const tooDeep = await post('/api/sessions/track', { sessionData: { extra: nine } });
    expect(tooDeep.statusCode).toBe(400);
    expect(tooDeep.json().error).toBe('sessionData: sessionData is nested too deeply (at most 8 levels)');
    expect((await post('/api/sessions/track', { sessionData: { extra: nine.a } })).statusCode).toBe(200);
    const big = await post('/api/sessions/track', { sessionData: { extra: 'x'.repeat(9000) } });
    expect(big.statusCode).toBe(400);
    expect(big.json().error).toMatch(/too large \(at most 8192 characters/);
    const surrogate = await post('/api/sessions/track', { sessionData: { session_name: 'Race \uD800' } });
    expect(surrogate.statusCode).toBe(400);
    expect(surrogate.json()).toEqual({
      error: 'sessionData.session_name is not valid Unicode text',
      code: 'invalid_input',
    });
  });

  test('someone else’s or an unknown session is a 404; signed out is a 401', async () => {
    expect((await post('/api/sessions/end', { sessionId: 'nope' })).statusCode).toBe(404);
    expect((await post('/api/sessions/track', { sessionData: {} }, '')).statusCode).toBe(401);
    expect((await post('/api/sessions/track', { sessionData: 'x' })).statusCode).toBe(400);
  });
}

for (const dialect of dialects) {
  describe(`session tracking on ${dialect}`, () => trackingSuite(dialect));
}

const TEST_REDIS_URL = process.env.TEST_REDIS_URL;

describe.skipIf(!TEST_REDIS_URL)('session tracking limits counted in Redis (set TEST_REDIS_URL)', () => {
  test('two instances share one count per client address', async () => {
    const prefix = `flaglight-test-${crypto.randomBytes(4).toString('hex')}:`;
    const env = { AUTH_RATE_LIMIT_PER_MINUTE: '1000', REDIS_URL: TEST_REDIS_URL!, REDIS_KEY_PREFIX: prefix };
    const instances = [await buildTestApp({ env }), await buildTestApp({ env })];
    try {
      const perAccount = 15;
      const accounts = await Promise.all(
        Array.from(
          { length: Math.ceil(SESSION_TRACKING_PER_ADDRESS_PER_MINUTE / perAccount) },
          async (_, i) => {
            const t = instances[i % 2]!;
            return { t, token: await signUp(t) };
          },
        ),
      );
      const end = ({ t, token }: (typeof accounts)[number]) =>
        t.app.inject({
          method: 'POST',
          url: '/api/sessions/end',
          payload: { sessionId: 'none' },
          remoteAddress: '192.0.2.44',
          headers: { authorization: `Bearer ${token}` },
        });
      const statuses: number[] = [];
      for (let i = 0; i < perAccount; i++)
        for (const account of accounts) statuses.push((await end(account)).statusCode);
      expect(statuses).toHaveLength(SESSION_TRACKING_PER_ADDRESS_PER_MINUTE);
      expect(statuses.every((status) => status === 404)).toBe(true);
      for (const account of accounts.slice(0, 2)) expect((await end(account)).statusCode).toBe(429);
    } finally {
      for (const t of instances) await t.close();
      const admin = new Redis(TEST_REDIS_URL!);
      const keys = await admin.keys(`${prefix}*`);
      if (keys.length) await admin.del(...keys);
      admin.disconnect();
    }
  });
});
