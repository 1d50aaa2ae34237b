import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { VERIFY_SUBJECT } from './account-helpers.js';
import { buildTestApp, dialects, type TestApp } from './helper.js';

function trackingSuite(dialect: (typeof dialects)[number]) {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await buildTestApp({ dialect });
    token = (
      await t.app.inject({
        method: 'POST',
        url: '/auth/signup',
        payload: {
          email: 'watcher@example.com',
          password: 'Secret!123',
          turnstileToken: t.context.sims!.turnstile.control.issueToken(),
        },
      })
    ).json().token;
  });
  afterAll(() => t.close());

  const post = (url: string, payload: object, auth = token) =>
    t.app.inject({ method: 'POST', url, payload, headers: auth ? { authorization: `Bearer ${auth}` } : {} });

  test('ending a tracked session sends the post-race e-mail once', async () => {
    const tracked = await post('/api/sessions/track', {
      sessionData: {
        session_key: 9165,
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
    // The sign-up's confirmation mail goes to the same address; only post-race mails count here.
    const raceMails = () =>
      t.context
        .sims!.mail.control.messagesTo('watcher@example.com')
        .filter((m) => m.subject !== VERIFY_SUBJECT);
    let mails: unknown[] = [];
    for (let i = 0; i < 100 && mails.length === 0; i++) {
      mails = raceMails();
      if (mails.length === 0) await new Promise((r) => setTimeout(r, 20));
    }
    await new Promise((r) => setTimeout(r, 100));
    mails = raceMails();
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ subject: 'Chequered flag: Singapore Grand Prix – Race' });
  });

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
