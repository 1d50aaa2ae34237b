import { EMAIL_NORMALIZE_MESSAGES } from '@flaglight/core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DEMO_ADMIN_EMAIL, ensureDemoAdmin } from '../src/auth/demo-admin.js';
import {
  AUTH_MESSAGES,
  EMAIL_VERIFICATION_TTL_MS,
  VERIFICATION_MAILS_PER_DAY,
  VERIFICATION_MAILS_PER_HOUR,
} from '../src/auth/service.js';
import {
  linkToken,
  RESET_SUBJECT,
  VERIFY_SUBJECT,
  verifyEmailByMail,
  waitForMail,
} from './account-helpers.js';
import { buildTestApp, dialects, type TestApp } from './helper.js';

const STRONG = 'Sunday!Race1';
const ADMIN_EMAILS = 'boss@example.com,kim@example.com,ops@example.com,chief@example.com,chair@example.com';

const START = new Date('2026-11-21T12:00:00.000Z').getTime();

// One app per dialect, shared by every theme below and run in order.
let t: TestApp;
let clock = START;

function useVerificationApp(dialect: (typeof dialects)[number]) {
  beforeAll(async () => {
    clock = START;
    t = await buildTestApp({
      dialect,
      now: () => new Date(clock),
      env: { AUTH_RATE_LIMIT_PER_MINUTE: '1000', ADMIN_EMAILS },
    });
  });
  afterAll(() => t.close());
}

const bot = () => t.context.sims!.turnstile.control.issueToken();
const call = (method: 'GET' | 'POST' | 'DELETE', url: string, token?: string, payload?: object) =>
  t.app.inject({
    method,
    url,
    ...(payload ? { payload } : method === 'POST' ? { payload: {} } : {}),
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
const signup = (email: string, password = STRONG) =>
  call('POST', '/auth/signup', undefined, { email, password, plan: 'trial', turnstileToken: bot() });
const login = (email: string, password = STRONG) =>
  call('POST', '/auth/login', undefined, { email, password, turnstileToken: bot() });
const me = async (token: string) => (await call('GET', '/api/auth/me', token)).json().user;

/** An address in ADMIN_EMAILS grants rights only to whoever proves the mailbox. */
function adminAddressTests() {
  test('signing up with an ADMIN_EMAILS address gives no admin rights until the mailed link is opened', async () => {
    const res = await signup('boss@example.com');
    expect(res.statusCode).toBe(201);
    const { token, user } = res.json();
    expect(user).toMatchObject({ email: 'boss@example.com', isAdmin: false, emailVerified: false });
    // The attack: a stranger signs up with the operator's address and opens the admin API.
    const denied = await call('GET', '/admin/users', token);
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toEqual({ error: 'Admin access required', code: 'forbidden' });

    const mail = await waitForMail(t, 'boss@example.com', VERIFY_SUBJECT);
    expect(mail.text).toContain('within 48 hours');
    const confirm = await call('POST', '/api/auth/verify-email', token, {
      token: linkToken(mail, 'verify-email'),
    });
    expect(confirm.statusCode).toBe(200);
    expect(confirm.json()).toEqual({ success: true, message: AUTH_MESSAGES.emailVerified });
    expect(await me(token)).toMatchObject({ isAdmin: true, emailVerified: true });
    expect((await call('GET', '/admin/users', token)).statusCode).toBe(200);
  });

  test('case variants, the Kelvin sign and full-width letters are the same account (409)', async () => {
    expect((await signup('kim@example.com')).statusCode).toBe(201);
    for (const variant of [
      'Boss@Example.com',
      ' BOSS@EXAMPLE.COM ',
      'ｂｏｓｓ@example.com',
      '\u212Aim@example.com', // KELVIN SIGN, which looks like K
      'KIM@example.com',
    ]) {
      const res = await signup(variant);
      expect(res.statusCode, variant).toBe(409);
      expect(res.json()).toEqual({ error: AUTH_MESSAGES.emailTaken, code: 'conflict' });
    }
    // The owner signs in with any spelling of the address; it is one account.
    const variant = await login('\u212AIM@Example.COM');
    expect(variant.statusCode).toBe(200);
    expect(variant.json().user.email).toBe('kim@example.com');
  });

  test.each([
    ['a zero-width space', 'boss\u200B@example.com'],
    ['a zero-width joiner', 'bo\u200Dss@example.com'],
    ['a right-to-left override', 'boss@example.com\u202E'],
    ['a byte-order mark inside', 'bo\uFEFFss@example.com'],
    ['a no-break space inside', 'boss\u00A0@example.com'],
    ['a control character', 'boss\u0007@example.com'],
  ])('an address with %s is refused with a 400 on every route that takes one', async (_what, address) => {
    for (const [url, body] of [
      ['/auth/signup', { email: address, password: STRONG, turnstileToken: bot() }],
      ['/auth/login', { email: address, password: STRONG, turnstileToken: bot() }],
      ['/api/auth/login', { email: address, password: STRONG, turnstileToken: bot() }],
      ['/auth/forgot-password', { email: address }],
    ] as const) {
      const res = await call('POST', url, undefined, body);
      expect(res.statusCode, `${url} ${JSON.stringify(address)}`).toBe(400);
      expect(res.json()).toEqual({
        error: `email: ${EMAIL_NORMALIZE_MESSAGES.invisibleCharacters}`,
        code: 'invalid_input',
      });
    }
  });

  test("the real owner takes a squatted admin address over with forgot-password; the squatter's sessions end", async () => {
    const squatter = (await signup('ops@example.com', 'Squat!Pass1')).json().token as string;
    const squatterOther = (await login('ops@example.com', 'Squat!Pass1')).json().token as string;
    expect((await call('GET', '/admin/users', squatter)).statusCode).toBe(403);

    // The owner of the mailbox does not sign up (409): "Forgot your password?" instead.
    expect((await signup('Ops@Example.com', 'Owner!Pass1')).statusCode).toBe(409);
    await call('POST', '/auth/forgot-password', undefined, { email: 'OPS@example.com' });
    const reset = linkToken(await waitForMail(t, 'ops@example.com', RESET_SUBJECT), 'reset-password');
    const done = await call('POST', '/auth/reset-password', undefined, {
      token: reset,
      password: 'Owner!Pass1',
    });
    expect(done.statusCode).toBe(200);

    for (const session of [squatter, squatterOther]) {
      expect((await call('GET', '/api/auth/me', session)).statusCode).toBe(401);
    }
    expect((await login('ops@example.com', 'Squat!Pass1')).statusCode).toBe(401);
    const owner = await login('ops@example.com', 'Owner!Pass1');
    expect(owner.json().user).toMatchObject({ isAdmin: true, emailVerified: true });
    expect((await call('GET', '/admin/users', owner.json().token)).statusCode).toBe(200);
  });

  test('an admin deletes an unverified account on an ADMIN_EMAILS address (it is no admin)', async () => {
    const admin = (await login('boss@example.com')).json().token as string;
    const squatter = (await signup('chief@example.com')).json();
    const users = (await call('GET', '/admin/users', admin)).json().users as Array<{
      id: string;
      email: string;
      isAdmin: boolean;
    }>;
    expect(users.find((u) => u.email === 'chief@example.com')?.isAdmin).toBe(false);
    const res = await call('DELETE', `/admin/users/${squatter.user.id}`, admin);
    expect(res.statusCode).toBe(200);
    expect((await call('GET', '/api/auth/me', squatter.token)).statusCode).toBe(401);
    // A verified ADMIN_EMAILS account stays undeletable.
    const bossId = users.find((u) => u.email === 'boss@example.com')!.id;
    expect((await call('DELETE', `/admin/users/${bossId}`, admin)).statusCode).toBe(409);
  });

  test("the mailbox's owner opening the squatter's link does not confirm the squatter (signed out 401, another account 400)", async () => {
    // A squatter signs up with an ADMIN_EMAILS address; the mail goes to the address's real owner.
    const squatter = (await signup('chair@example.com', 'Squat!Pass1')).json().token as string;
    const link = linkToken(await waitForMail(t, 'chair@example.com', VERIFY_SUBJECT), 'verify-email');

    // The owner clicks the link signed out: the route needs a session, like every user route.
    const signedOut = await call('POST', '/api/auth/verify-email', undefined, { token: link });
    expect(signedOut.statusCode).toBe(401);
    expect(signedOut.json()).toEqual({ error: AUTH_MESSAGES.noToken, code: 'unauthenticated' });

    // Or signed in as their own, other account: refused, and the link is not spent.
    const owner = (await signup('owner-elsewhere@example.com')).json().token as string;
    const otherAccount = await call('POST', '/api/auth/verify-email', owner, { token: link });
    expect(otherAccount.statusCode).toBe(400);
    expect(otherAccount.json()).toEqual({
      error: AUTH_MESSAGES.verifyLinkOtherAccount,
      code: 'invalid_input',
    });
    expect(await me(owner)).toMatchObject({ emailVerified: false });

    // The squatter is still no admin.
    expect(await me(squatter)).toMatchObject({
      email: 'chair@example.com',
      isAdmin: false,
      emailVerified: false,
    });
    expect((await call('GET', '/admin/users', squatter)).statusCode).toBe(403);

    // The link still works for the account it was made for (it was not spent above).
    const own = await call('POST', '/api/auth/verify-email', squatter, { token: link });
    expect(own.statusCode).toBe(200);
    expect(await me(squatter)).toMatchObject({ isAdmin: true, emailVerified: true });
    // Spent now: another account gets the plain "invalid, used or expired" answer.
    const spent = await call('POST', '/api/auth/verify-email', owner, { token: link });
    expect(spent.json()).toEqual({ error: AUTH_MESSAGES.verifyLinkInvalid, code: 'invalid_input' });
  });
}

function confirmationLinkTests() {
  test('a confirmation link works once', async () => {
    const { token } = (await signup('once@example.com')).json();
    const link = linkToken(await waitForMail(t, 'once@example.com', VERIFY_SUBJECT), 'verify-email');
    expect((await call('POST', '/api/auth/verify-email', token, { token: link })).statusCode).toBe(200);
    const again = await call('POST', '/api/auth/verify-email', token, { token: link });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ error: AUTH_MESSAGES.verifyLinkInvalid, code: 'invalid_input' });
    expect(await me(token)).toMatchObject({ emailVerified: true });
    for (const made of ['', 'made-up-token']) {
      const res = await call('POST', '/api/auth/verify-email', token, { token: made });
      expect(res.json()).toEqual({ error: AUTH_MESSAGES.verifyLinkInvalid, code: 'invalid_input' });
    }
  });

  test('a confirmation link stops working after 48 hours', async () => {
    const { token } = (await signup('slow@example.com')).json();
    const link = linkToken(await waitForMail(t, 'slow@example.com', VERIFY_SUBJECT), 'verify-email');
    clock += EMAIL_VERIFICATION_TTL_MS + 1000;
    const res = await call('POST', '/api/auth/verify-email', token, { token: link });
    expect(res.statusCode).toBe(400);
    expect(await me(token)).toMatchObject({ emailVerified: false });
  });

  test('the resend button sends a new link a few times an hour, then answers 429 with Retry-After', async () => {
    const { token } = (await signup('resend@example.com')).json();
    await waitForMail(t, 'resend@example.com', VERIFY_SUBJECT);
    // The sign-up's mail counts: VERIFICATION_MAILS_PER_HOUR - 1 resends go out.
    for (let i = 1; i < VERIFICATION_MAILS_PER_HOUR; i++) {
      const res = await call('POST', '/api/auth/resend-verification', token);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ sent: true, message: AUTH_MESSAGES.verificationSent });
      await waitForMail(t, 'resend@example.com', VERIFY_SUBJECT, { after: i });
    }
    clock += 10 * 60 * 1000;
    const over = await call('POST', '/api/auth/resend-verification', token);
    expect(over.statusCode).toBe(429);
    expect(over.json()).toEqual({
      error: 'Too many requests. Please wait 50 minutes and try again.',
      code: 'rate_limited',
    });
    expect(over.headers['retry-after']).toBe('3000');

    clock += 50 * 60 * 1000;
    expect((await call('POST', '/api/auth/resend-verification', token)).statusCode).toBe(200);
    const newest = await waitForMail(t, 'resend@example.com', VERIFY_SUBJECT, {
      after: VERIFICATION_MAILS_PER_HOUR,
    });
    expect(
      (await call('POST', '/api/auth/verify-email', token, { token: linkToken(newest, 'verify-email') }))
        .statusCode,
    ).toBe(200);
    // Confirmed: nothing more to send.
    expect((await call('POST', '/api/auth/resend-verification', token)).json()).toEqual({
      sent: false,
      message: AUTH_MESSAGES.alreadyVerified,
    });
  });

  test('at most VERIFICATION_MAILS_PER_DAY a day, so whoever typed a stranger’s address cannot keep mailing them', async () => {
    const { token } = (await signup('daily@example.com')).json();
    let sent = 1; // the sign-up's
    for (let hour = 0; hour < 6; hour++) {
      while ((await call('POST', '/api/auth/resend-verification', token)).statusCode === 200) sent++;
      clock += 60 * 60 * 1000 + 1000;
    }
    expect(sent).toBe(VERIFICATION_MAILS_PER_DAY);
    const over = await call('POST', '/api/auth/resend-verification', token);
    expect(over.statusCode).toBe(429);
    expect(over.json()).toEqual({
      error: 'Too many requests. Please wait 18 hours and try again.',
      code: 'rate_limited',
    });
  });

  test('the test helper proves an address through the real link', async () => {
    const { token } = (await signup('helper@example.com')).json();
    await verifyEmailByMail(t, 'helper@example.com', token);
    expect(await me(token)).toMatchObject({ emailVerified: true });
  });

  test('the demo admin is created verified', async () => {
    await ensureDemoAdmin(t.context);
    const row = await t.context.auth.users.findByEmail(DEMO_ADMIN_EMAIL);
    expect(row?.email_verified_at).not.toBeNull();
    expect((await t.context.auth.freshUser(row!.id))?.isAdmin).toBe(true);
  });
}

for (const dialect of dialects) {
  describe(`e-mail verification on ${dialect}`, () => {
    useVerificationApp(dialect);
    describe('admin addresses and who owns them', adminAddressTests);
    describe('confirmation links and their mails', confirmationLinkTests);
  });
}
