import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { hashLicenceKey } from '../src/licences/keys.js';
import { PAYMENT_MESSAGES } from '../src/payments/service.js';
import { VERIFY_SUBJECT, verifyEmailByMail } from './account-helpers.js';
import { buildTestApp, dialects, type TestApp } from './helper.js';

function paymentSuite(dialect: (typeof dialects)[number]) {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({
      dialect,
      env: { AUTH_RATE_LIMIT_PER_MINUTE: '1000', ADMIN_EMAILS: 'boss@example.com' },
    });
  });
  afterAll(() => t.close());

  const sims = () => t.context.sims!;
  const signup = async (email: string) =>
    (
      await t.app.inject({
        method: 'POST',
        url: '/auth/signup',
        payload: { email, password: 'Secret!123', turnstileToken: sims().turnstile.control.issueToken() },
      })
    ).json().token as string;
  const post = (url: string, token: string, payload?: object) =>
    t.app.inject({
      method: 'POST',
      url,
      headers: { authorization: `Bearer ${token}` },
      ...(payload ? { payload } : {}),
    });
  const me = async (token: string) =>
    (
      await t.app.inject({
        method: 'GET',
        url: '/api/auth/me',
        headers: { authorization: `Bearer ${token}` },
      })
    ).json().user;
  const deliver = (sessionId: string) => {
    const event = sims().checkout.control.webhookFor(sessionId)!;
    return t.app.inject({
      method: 'POST',
      url: '/api/payments/webhook',
      headers: { 'content-type': 'application/json', 'stripe-signature': event.signature },
      payload: event.payload,
    });
  };

  test('a session id that is not valid text is a 400 before the payment service is asked', async () => {
    const token = await signup('surrogate@example.com');
    for (const sessionId of ['cs_\uD800', 'cs_\uDC00x', 'cs_1\r\nX-Injected: 1', 'cs_\u0000']) {
      const res = await post('/api/payments/upgrade-after-payment', token, { sessionId });
      expect(res.statusCode, JSON.stringify(sessionId)).toBe(400);
      expect(res.json().code).toBe('invalid_input');
      expect(res.json().error).toMatch(/^sessionId/);
    }
    expect((await me(token)).plan).toBe('trial');
  });

  test('checkout → pay → signed webhook upgrades to lifetime once, with revenue and licence details', async () => {
    const token = await signup('payer@example.com');
    const start = await post('/api/payments/checkout', token);
    expect(start.statusCode).toBe(200);
    const { url, sessionId } = start.json();
    expect(url).toBe(`/sims/checkout/pay/${sessionId}`);
    expect(sims().checkout.control.session(sessionId)).toMatchObject({ amount_total: 2000, currency: 'aud' });

    await sims().checkout.control.complete(sessionId);
    expect((await deliver(sessionId)).json()).toEqual({ received: true });
    expect((await deliver(sessionId)).json()).toEqual({ received: true });
    expect((await me(token)).plan).toBe('lifetime');
    const licences = await t.context.db
      .selectFrom('licences')
      .selectAll()
      .where('source', '=', 'payment')
      .execute();
    expect(licences).toHaveLength(1);

    const again = await post('/api/payments/upgrade-after-payment', token, { sessionId });
    expect(again.json()).toMatchObject({ success: true, upgraded: false, user: { plan: 'lifetime' } });

    const status = await t.app.inject({
      method: 'GET',
      url: '/api/license/status',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(status.json()).toMatchObject({
      hasActiveLicense: true,
      licenseDetails: { currency: 'AUD', amount: 20 },
    });

    const boss = await signup('boss@example.com');
    await verifyEmailByMail(t, 'boss@example.com', boss);
    const stats = await t.app.inject({
      method: 'GET',
      url: '/admin/stats',
      headers: { authorization: `Bearer ${boss}` },
    });
    expect(stats.json()).toMatchObject({ revenueTotal: 20, totalRevenue: 20, lifetimeUsers: 1 });

    const lifetimeAgain = await post('/api/payments/checkout', token);
    expect(lifetimeAgain.statusCode).toBe(409);
  });

  test('the return page upgrades when the webhook has not arrived; a payment check finds a missed one', async () => {
    const a = await signup('returner@example.com');
    const first = (await post('/api/payments/checkout', a)).json();
    expect(
      (await post('/api/payments/upgrade-after-payment', a, { sessionId: first.sessionId })).statusCode,
    ).toBe(409);
    await sims().checkout.control.complete(first.sessionId);
    const res = await post('/api/payments/upgrade-after-payment', a, { sessionId: first.sessionId });
    expect(res.json()).toMatchObject({ success: true, upgraded: true, user: { plan: 'lifetime' } });

    const b = await signup('checker@example.com');
    const second = (await post('/api/payments/checkout', b)).json();
    await sims().checkout.control.complete(second.sessionId);
    const check = await post('/api/payments/check-payments', b);
    expect(check.json()).toMatchObject({
      success: true,
      upgraded: true,
      checked: 1,
      user: { plan: 'lifetime' },
    });
  });

  test('someone else’s session, a forged webhook and an outage are refused without half-upgrades', async () => {
    const owner = await signup('owner@example.com');
    const thief = await signup('thief@example.com');
    const { sessionId } = (await post('/api/payments/checkout', owner)).json();
    await sims().checkout.control.complete(sessionId);
    const stolen = await post('/api/payments/upgrade-after-payment', thief, { sessionId });
    expect(stolen.statusCode).toBe(404);
    expect((await me(thief)).plan).toBe('trial');

    const forged = await t.app.inject({
      method: 'POST',
      url: '/api/payments/webhook',
      headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=deadbeef' },
      payload: sims().checkout.control.webhookFor(sessionId)!.payload,
    });
    expect(forged.statusCode).toBe(400);
    expect(forged.json()).toEqual({ error: PAYMENT_MESSAGES.badSignature, code: 'invalid_input' });
    expect((await me(owner)).plan).toBe('trial');

    const down = await signup('outage@example.com');
    sims().checkout.control.setDown(true);
    const res = await post('/api/payments/checkout', down);
    sims().checkout.control.setDown(false);
    expect(res.statusCode).toBe(502);
    expect(res.json()).toEqual({ error: PAYMENT_MESSAGES.unavailable, code: 'upstream_unavailable' });
    const rows = await t.context.db
      .selectFrom('payments')
      .selectAll()
      .where('user_id', '=', (await me(down)).id)
      .execute();
    expect(rows).toEqual([]);
  });

  test('one receipt e-mail, and its licence key is the one stored for the payment', async () => {
    const token = await signup('receipt@example.com');
    const { sessionId } = (await post('/api/payments/checkout', token)).json();
    await sims().checkout.control.complete(sessionId);
    await deliver(sessionId);
    await deliver(sessionId);
    // The sign-up's confirmation mail goes to the same address; only receipts count here.
    const receipts = () =>
      sims()
        .mail.control.messagesTo('receipt@example.com')
        .filter((m) => m.subject !== VERIFY_SUBJECT);
    let mails = receipts();
    for (let i = 0; i < 100 && mails.length === 0; i++) {
      await new Promise((r) => setTimeout(r, 20));
      mails = receipts();
    }
    await new Promise((r) => setTimeout(r, 100));
    mails = receipts();
    expect(mails).toHaveLength(1);
    expect(mails[0]?.subject).toBe('Your Flaglight lifetime access receipt');
    const key = /Licence key: (\S+)/.exec(mails[0]?.text ?? '')?.[1];
    expect(key).toMatch(/^[A-Z2-9]{4}(-[A-Z2-9]{4}){3}$/);
    const stored = await t.context.db
      .selectFrom('licences')
      .select('key_hash')
      .where('redeemed_by', '=', (await me(token)).id)
      .execute();
    expect(stored).toEqual([{ key_hash: hashLicenceKey(key!) }]);
  });
}

for (const dialect of dialects) {
  describe(`payments on ${dialect}`, () => paymentSuite(dialect));
}
