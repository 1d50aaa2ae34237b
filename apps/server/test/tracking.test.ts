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

  test('someone else’s or an unknown session is a 404; signed out is a 401', async () => {
    expect((await post('/api/sessions/end', { sessionId: 'nope' })).statusCode).toBe(404);
    expect((await post('/api/sessions/track', { sessionData: {} }, '')).statusCode).toBe(401);
    expect((await post('/api/sessions/track', { sessionData: 'x' })).statusCode).toBe(400);
  });
}

for (const dialect of dialects) {
  describe(`session tracking on ${dialect}`, () => trackingSuite(dialect));
}
