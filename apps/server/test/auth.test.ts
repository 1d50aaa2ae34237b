import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { AUTH_MESSAGES, RESET_TOKEN_TTL_MS } from '../src/auth/service.js';
import { linkToken, RESET_SUBJECT, waitForMail } from './account-helpers.js';
import { buildTestApp, dialects, type TestApp } from './helper.js';

const STRONG = 'Sunday!Race1';

const START = new Date('2026-11-21T12:00:00.000Z').getTime();

// One app per dialect, shared by every theme below and run in order.
let t: TestApp;
let clock = START;

function useAuthApp(dialect: (typeof dialects)[number]) {
  beforeAll(async () => {
    clock = START;
    t = await buildTestApp({
      dialect,
      now: () => new Date(clock),
      env: { AUTH_RATE_LIMIT_PER_MINUTE: '1000' },
    });
  });
  afterAll(() => t.close());
}

const bot = () => t.context.sims!.turnstile.control.issueToken();
const post = (url: string, payload: unknown, token?: string) =>
  t.app.inject({
    method: 'POST',
    url,
    payload: payload as object,
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
const get = (url: string, token?: string) =>
  t.app.inject({ method: 'GET', url, headers: token ? { authorization: `Bearer ${token}` } : {} });
const signup = (email: string, password = STRONG) =>
  post('/auth/signup', { email, password, plan: 'trial', turnstileToken: bot() });

function signUpTests() {
  test('sign-up creates a trial user and answers a token and the user', async () => {
    const res = await signup('Fan@Example.com');
    expect(res.json().error).toBeUndefined();
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body.token).toEqual(expect.any(String));
    expect(body.user).toMatchObject({
      email: 'fan@example.com',
      plan: 'trial',
      isAdmin: false,
      createdAt: '2026-11-21T12:00:00.000Z',
      lastLogin: '2026-11-21T12:00:00.000Z',
    });
    // DESIGN §6: the later of 7 days and the end of the next race weekend.
    expect(Date.parse(body.user.trialExpires)).toBeGreaterThanOrEqual(clock + 7 * 24 * 3600 * 1000);
    const me = await get('/api/auth/me', body.token);
    expect(me.statusCode).toBe(200);
    expect(me.json().user.email).toBe('fan@example.com');
  });

  test('sign-up without the bot check says so', async () => {
    const res = await post('/auth/signup', { email: 'a@example.com', password: STRONG, plan: 'trial' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      error: 'Please complete the security verification',
      code: 'bot_check_failed',
    });
  });

  test('a made-up or reused bot-check token is refused', async () => {
    const made = await post('/auth/signup', {
      email: 'b@example.com',
      password: STRONG,
      turnstileToken: 'forged',
    });
    expect(made.statusCode).toBe(400);
    expect(made.json()).toEqual({
      error: 'Security verification failed. Please try again.',
      code: 'bot_check_failed',
    });
    const token = bot();
    expect(
      (await post('/auth/signup', { email: 'c@example.com', password: STRONG, turnstileToken: token }))
        .statusCode,
    ).toBe(201);
    const reused = await post('/auth/signup', {
      email: 'd@example.com',
      password: STRONG,
      turnstileToken: token,
    });
    expect(reused.statusCode).toBe(400);
    expect(reused.json()).toEqual({
      error: 'Security verification expired. Please verify again.',
      code: 'bot_check_failed',
    });
  });

  test.each([
    ['short', 'Password must be at least 8 characters long'],
    [
      'longenough1',
      'Password must contain at least one uppercase letter, one lowercase letter, one number, and one special character (@$!%*?&)',
    ],
  ])('sign-up refuses the weak password %s with SPEC §5 text', async (password, error) => {
    const res = await signup('weak@example.com', password);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error, code: 'invalid_input' });
  });

  test('an e-mail that is taken is a 409', async () => {
    await signup('taken@example.com');
    const res = await signup('TAKEN@example.com');
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ error: AUTH_MESSAGES.emailTaken, code: 'conflict' });
  });
}

function signInAndOutTests() {
  test('login answers a token; a wrong password and an unknown e-mail get the same 401', async () => {
    await signup('login@example.com');
    const ok = await post('/auth/login', {
      email: 'login@example.com',
      password: STRONG,
      turnstileToken: bot(),
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().user.email).toBe('login@example.com');
    const alias = await post('/api/auth/login', {
      email: 'login@example.com',
      password: STRONG,
      turnstileToken: bot(),
    });
    expect(alias.statusCode).toBe(200);
    for (const body of [
      { email: 'login@example.com', password: 'Wrong!Pass1' },
      { email: 'nobody@example.com', password: STRONG },
    ]) {
      const res = await post('/auth/login', { ...body, turnstileToken: bot() });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ error: 'Invalid email or password', code: 'unauthenticated' });
    }
  });

  test('logout revokes the token on the server', async () => {
    const { token } = (await signup('logout@example.com')).json();
    expect((await get('/auth/verify', token)).json()).toMatchObject({ valid: true });
    expect((await post('/auth/logout', {}, token)).json()).toEqual({ ok: true });
    const after = await get('/api/auth/me', token);
    expect(after.statusCode).toBe(401);
    expect(after.json()).toEqual({ error: AUTH_MESSAGES.sessionExpired, code: 'unauthenticated' });
  });

  test('no token means 401 "No authentication token found"', async () => {
    const res = await get('/api/auth/me');
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ error: 'No authentication token found', code: 'unauthenticated' });
  });
}

function passwordResetTests() {
  test('forgot → e-mail in the catcher → reset → sign in with the new password; the link works once', async () => {
    await signup('reset@example.com');
    const old = (
      await post('/auth/login', { email: 'reset@example.com', password: STRONG, turnstileToken: bot() })
    ).json();
    const forgot = await post('/auth/forgot-password', { email: 'reset@example.com' });
    expect(forgot.statusCode).toBe(200);
    expect(forgot.json()).toEqual({ message: AUTH_MESSAGES.resetRequested });
    const unknown = await post('/auth/forgot-password', { email: 'ghost@example.com' });
    expect(unknown.json()).toEqual(forgot.json());

    const token = linkToken(await waitForMail(t, 'reset@example.com', RESET_SUBJECT), 'reset-password');
    expect(t.context.sims!.mail.control.messagesTo('ghost@example.com')).toEqual([]);

    const mismatch = await post('/auth/reset-password', {
      token,
      password: 'New!Pass99',
      confirmPassword: 'Other!Pass9',
    });
    expect(mismatch.json()).toEqual({ error: 'Passwords do not match', code: 'invalid_input' });
    const reset = await post('/auth/reset-password', { token, password: 'New!Pass99' });
    expect(reset.statusCode).toBe(200);
    // The old session ended with the old password.
    expect((await get('/api/auth/me', old.token)).statusCode).toBe(401);
    const again = await post('/auth/reset-password', { token, password: 'Newer!Pass9' });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ error: AUTH_MESSAGES.resetLinkInvalid, code: 'invalid_input' });
    const login = await post('/auth/login', {
      email: 'reset@example.com',
      password: 'New!Pass99',
      turnstileToken: bot(),
    });
    expect(login.statusCode).toBe(200);
  });

  test('a reset spends every other reset link of the account and ends every session opened before it', async () => {
    const { token: signupSession } = (await signup('tworeset@example.com')).json();
    const login = (password: string) =>
      post('/auth/login', { email: 'tworeset@example.com', password, turnstileToken: bot() });
    const otherDevice = (await login(STRONG)).json().token as string;
    await post('/auth/forgot-password', { email: 'tworeset@example.com' });
    const first = linkToken(await waitForMail(t, 'tworeset@example.com', RESET_SUBJECT), 'reset-password');
    await post('/auth/forgot-password', { email: 'tworeset@example.com' });
    const second = linkToken(
      await waitForMail(t, 'tworeset@example.com', RESET_SUBJECT, { after: 1 }),
      'reset-password',
    );
    expect(second).not.toBe(first);

    expect((await post('/auth/reset-password', { token: second, password: 'New!Pass99' })).statusCode).toBe(
      200,
    );
    // The attack: the older link, still in the mailbox (or someone else's hands), resets again.
    const old = await post('/auth/reset-password', { token: first, password: 'Hijack!Pass1' });
    expect(old.statusCode).toBe(400);
    expect(old.json()).toEqual({ error: AUTH_MESSAGES.resetLinkInvalid, code: 'invalid_input' });
    for (const session of [signupSession, otherDevice]) {
      expect((await get('/api/auth/me', session)).statusCode).toBe(401);
    }
    expect((await login('Hijack!Pass1')).statusCode).toBe(401);
    expect((await login('New!Pass99')).statusCode).toBe(200);
  });

  test('a reset link expires after one hour', async () => {
    await signup('late@example.com');
    await post('/auth/forgot-password', { email: 'late@example.com' });
    const token = linkToken(await waitForMail(t, 'late@example.com', RESET_SUBJECT), 'reset-password');
    clock += RESET_TOKEN_TTL_MS + 1000;
    const res = await post('/auth/reset-password', { token, password: 'New!Pass99' });
    expect(res.json()).toEqual({ error: AUTH_MESSAGES.resetLinkInvalid, code: 'invalid_input' });
  });

  test('with the mail server down, forgot-password still answers the same and nothing breaks', async () => {
    await signup('nomail@example.com');
    t.context.sims!.mail.control.setDown(true);
    try {
      const res = await post('/auth/forgot-password', { email: 'nomail@example.com' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ message: AUTH_MESSAGES.resetRequested });
      await new Promise((r) => setTimeout(r, 200));
      expect(
        t.context
          .sims!.mail.control.messagesTo('nomail@example.com')
          .filter((m) => m.subject === RESET_SUBJECT),
      ).toEqual([]);
    } finally {
      t.context.sims!.mail.control.setDown(false);
    }
  });

  test('a reset without a token gets the invalid-link text', async () => {
    const res = await post('/auth/reset-password', { password: 'New!Pass99' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      error: 'Invalid reset link. Please request a new password reset.',
      code: 'invalid_input',
    });
  });
}

for (const dialect of dialects) {
  describe(`accounts on ${dialect}`, () => {
    useAuthApp(dialect);
    describe('signing up', signUpTests);
    describe('signing in and out', signInAndOutTests);
    describe('resetting a password', passwordResetTests);
  });
}

describe('rate limits', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ env: { AUTH_RATE_LIMIT_PER_MINUTE: '3' } });
  });
  afterAll(() => t.close());

  test('too many sign-in attempts get a 429 with a clear error', async () => {
    const attempt = () =>
      t.app.inject({
        method: 'POST',
        url: '/auth/login',
        payload: { email: 'x@example.com', password: 'x', turnstileToken: 'y' },
      });
    for (let i = 0; i < 3; i++) expect((await attempt()).statusCode).not.toBe(429);
    const res = await attempt();
    expect(res.statusCode).toBe(429);
    expect(res.json().error).toMatch(/^Too many requests\. Please wait .+ and try again\.$/);
  });
});
