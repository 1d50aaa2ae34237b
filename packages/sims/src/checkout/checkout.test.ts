import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startCheckoutSim } from './index.js';

describe('checkout simulator', () => {
  let sim: Awaited<ReturnType<typeof startCheckoutSim>>;
  let stripe: Stripe;
  const delivered: Array<{ payload: string; signature: string }> = [];
  beforeAll(async () => {
    sim = await startCheckoutSim({
      webhookSink: async (payload, headers) => {
        delivered.push({ payload, signature: headers['stripe-signature'] ?? '' });
      },
    });
    const url = new URL(sim.url);
    stripe = new Stripe(sim.secretKey, {
      host: url.hostname,
      port: url.port,
      protocol: 'http',
      maxNetworkRetries: 0,
    });
  });
  afterAll(() => sim.close());

  const create = () =>
    stripe.checkout.sessions.create({
      mode: 'payment',
      line_items: [
        {
          quantity: 1,
          price_data: {
            currency: 'aud',
            unit_amount: 2000,
            product_data: { name: 'Flaglight Lifetime Access' },
          },
        },
      ],
      client_reference_id: 'user-1',
      metadata: { userId: 'user-1' },
      success_url: 'http://localhost:3000/#/dashboard?payment=success&session_id={CHECKOUT_SESSION_ID}',
      cancel_url: 'http://localhost:3000/#/dashboard?payment=cancelled',
    });

  test('the stripe SDK creates and retrieves a session', async () => {
    const session = await create();
    expect(session).toMatchObject({
      status: 'open',
      payment_status: 'unpaid',
      amount_total: 2000,
      currency: 'aud',
    });
    expect(session.url).toBe(`/pay/${session.id}`);
    expect((await stripe.checkout.sessions.retrieve(session.id)).metadata).toEqual({ userId: 'user-1' });
  });

  test('paying on the hosted page redirects with the session id and sends a verifiable webhook', async () => {
    const session = await create();
    const page = await fetch(`${sim.url}/pay/${session.id}`);
    expect(await page.text()).toContain('Pay A$20.00');
    const res = await fetch(`${sim.url}/pay/${session.id}/complete`, { method: 'POST', redirect: 'manual' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(
      `http://localhost:3000/#/dashboard?payment=success&session_id=${session.id}`,
    );
    const event = stripe.webhooks.constructEvent(
      delivered.at(-1)!.payload,
      delivered.at(-1)!.signature,
      sim.webhookSecret,
    );
    expect(event.type).toBe('checkout.session.completed');
    expect((event.data.object as Stripe.Checkout.Session).payment_status).toBe('paid');
    expect(() =>
      stripe.webhooks.constructEvent(delivered.at(-1)!.payload, delivered.at(-1)!.signature, 'whsec_other'),
    ).toThrow();
  });

  test('cancelling redirects to the cancel URL', async () => {
    const session = await create();
    const res = await fetch(`${sim.url}/pay/${session.id}/cancel`, { method: 'POST', redirect: 'manual' });
    expect(res.headers.get('location')).toBe('http://localhost:3000/#/dashboard?payment=cancelled');
    expect((await stripe.checkout.sessions.retrieve(session.id)).status).toBe('expired');
  });

  test('no open redirect: a success or cancel URL off the app origin gets a 400 page, and nothing is paid', async () => {
    const session = await stripe.checkout.sessions.create({
      mode: 'payment',
      line_items: [
        { quantity: 1, price_data: { currency: 'aud', unit_amount: 2000, product_data: { name: 'X' } } },
      ],
      success_url: 'https://evil.example/phish?session_id={CHECKOUT_SESSION_ID}',
      cancel_url: 'https://evil.example/phish',
    });
    for (const step of ['complete', 'cancel']) {
      const res = await fetch(`${sim.url}/pay/${session.id}/${step}`, { method: 'POST', redirect: 'manual' });
      expect(res.status).toBe(400);
      expect(res.headers.get('location')).toBeNull();
      expect(await res.text()).toContain('Redirect refused');
    }
    expect(sim.control.session(session.id)).toMatchObject({ status: 'open', payment_status: 'unpaid' });
  });

  test('a wrong key is a 401 and an outage a 503, as Stripe answers', async () => {
    const url = new URL(sim.url);
    const wrong = new Stripe('sk_test_wrong', {
      host: url.hostname,
      port: url.port,
      protocol: 'http',
      maxNetworkRetries: 0,
    });
    await expect(wrong.checkout.sessions.retrieve('cs_x')).rejects.toMatchObject({ statusCode: 401 });
    sim.control.setDown(true);
    await expect(create()).rejects.toMatchObject({ statusCode: 503 });
    sim.control.setDown(false);
  });
});
