import { LIFETIME_PRICE_AUD, type User } from '@flaglight/core';
import type { Logger } from 'pino';
import Stripe from 'stripe';
import { createUsersRepository } from '../auth/repository.js';
import type { Db } from '../db/database.js';
import { HttpError } from '../http/errors.js';
import { generateLicenceKey, hashLicenceKey } from '../licences/keys.js';
import type { Mailer } from '../mail/mailer.js';
import { sendLifetimeReceipt } from './receipt.js';
import { createPaymentsRepository } from './repository.js';

export const LIFETIME_AMOUNT_CENTS = LIFETIME_PRICE_AUD * 100;
export const LIFETIME_CURRENCY = 'aud';

export const PAYMENT_MESSAGES = {
  unavailable: 'Payments are unavailable right now. Please try again in a few minutes.',
  notConfigured: 'Payments are not set up on this server.',
  alreadyLifetime: 'Your account already has lifetime access.',
  notPaid: 'This payment has not been completed.',
  unknownSession: 'Payment session not found.',
  badSignature: 'Invalid webhook signature',
} as const;

/** Builds the one Stripe client of the app; `apiUrl` points it at the checkout simulator. */
export function createStripeClient(secretKey: string, apiUrl: string | undefined): Stripe {
  if (!apiUrl) return new Stripe(secretKey, { maxNetworkRetries: 2, timeout: 20_000 });
  const url = new URL(apiUrl);
  return new Stripe(secretKey, {
    host: url.hostname,
    port: url.port || (url.protocol === 'https:' ? 443 : 80),
    protocol: url.protocol === 'https:' ? 'https' : 'http',
    maxNetworkRetries: 1,
    timeout: 10_000,
  });
}

export interface PaymentDeps {
  db: Db;
  stripe: Stripe | undefined;
  webhookSecret: string | undefined;
  publicUrl: string;
  /** Origins a checkout may return the browser to (Config.appOrigins: set by the operator only). */
  appOrigins: readonly string[];
  mailer: Mailer;
  logger: Logger;
  now: () => Date;
}

/** The Checkout session of the lifetime licence for `user`, returning to the app at `base`. */
function lifetimeCheckout(user: User, base: string): Stripe.Checkout.SessionCreateParams {
  return {
    mode: 'payment',
    line_items: [
      {
        quantity: 1,
        price_data: {
          currency: LIFETIME_CURRENCY,
          unit_amount: LIFETIME_AMOUNT_CENTS,
          product_data: { name: 'Flaglight Lifetime Access' },
        },
      },
    ],
    customer_email: user.email,
    client_reference_id: String(user.id),
    metadata: { userId: String(user.id) },
    success_url: `${base}/#/dashboard?payment=success&session_id={CHECKOUT_SESSION_ID}`,
    cancel_url: `${base}/#/dashboard?payment=cancelled`,
  };
}

export function createPaymentService(deps: PaymentDeps) {
  const payments = createPaymentsRepository(deps.db);
  const users = createUsersRepository(deps.db);
  const stripe = () => {
    if (!deps.stripe) throw new HttpError(503, PAYMENT_MESSAGES.notConfigured);
    return deps.stripe;
  };

  async function retrieve(sessionId: string): Promise<Stripe.Checkout.Session> {
    try {
      return await stripe().checkout.sessions.retrieve(sessionId);
    } catch (error) {
      if (error instanceof HttpError) throw error;
      if (error instanceof Stripe.errors.StripeInvalidRequestError && error.statusCode === 404) {
        throw new HttpError(404, PAYMENT_MESSAGES.unknownSession);
      }
      deps.logger.error({ err: error }, 'stripe retrieve failed');
      throw new HttpError(502, PAYMENT_MESSAGES.unavailable);
    }
  }

  /**
   * Where a checkout sends the browser back: the app on the origin the fan's page is on, when that
   * is one of the app's origins (the page's CSP, `form-action 'self'`, blocks a redirect to any
   * other); otherwise PUBLIC_URL, so a forged origin can never name another site.
   */
  function returnBase(pageOrigin: string | null): string {
    if (pageOrigin === null || !deps.appOrigins.includes(pageOrigin)) return deps.publicUrl;
    return `${pageOrigin}${new URL(deps.publicUrl).pathname.replace(/\/+$/, '')}`;
  }

  /**
   * Applies a paid checkout once: the payment row is claimed with a conditional update, so the
   * webhook, the return page and a payment check racing each other upgrade the user once.
   */
  async function complete(session: Stripe.Checkout.Session): Promise<{ upgraded: boolean; userId?: string }> {
    if (session.payment_status !== 'paid') return { upgraded: false };
    if (session.amount_total !== LIFETIME_AMOUNT_CENTS || session.currency !== LIFETIME_CURRENCY) {
      deps.logger.error(
        { sessionId: session.id, amount: session.amount_total },
        'paid amount does not match the price',
      );
      return { upgraded: false };
    }
    const key = generateLicenceKey();
    const result = await payments.claimPaidCheckout({
      checkoutSessionId: session.id,
      fallbackUserId: session.metadata?.userId ?? session.client_reference_id ?? null,
      amountCents: LIFETIME_AMOUNT_CENTS,
      currency: LIFETIME_CURRENCY,
      licenceKeyHash: hashLicenceKey(key),
      now: deps.now(),
    });
    if (result.claimed && result.userId) {
      const user = await users.findById(result.userId);
      if (user) sendLifetimeReceipt(deps, { to: user.email, licenceKey: key, sessionId: session.id });
    }
    return { upgraded: result.claimed, ...(result.userId ? { userId: result.userId } : {}) };
  }

  return {
    /**
     * Starts a Stripe Checkout for the A$20 lifetime licence; nothing is stored if Stripe fails.
     * `pageOrigin` is the origin the fan's page states it is on (see `returnBase`).
     */
    async startCheckout(user: User, pageOrigin: string | null): Promise<{ url: string; sessionId: string }> {
      if (user.plan !== 'trial') throw new HttpError(409, PAYMENT_MESSAGES.alreadyLifetime);
      const base = returnBase(pageOrigin);
      let session: Stripe.Checkout.Session;
      try {
        session = await stripe().checkout.sessions.create(lifetimeCheckout(user, base));
      } catch (error) {
        if (error instanceof HttpError) throw error;
        deps.logger.error({ err: error }, 'stripe checkout creation failed');
        throw new HttpError(502, PAYMENT_MESSAGES.unavailable);
      }
      if (!session.url) throw new HttpError(502, PAYMENT_MESSAGES.unavailable);
      await payments.insertOpen({
        userId: String(user.id),
        checkoutSessionId: session.id,
        amountCents: LIFETIME_AMOUNT_CENTS,
        currency: LIFETIME_CURRENCY,
        now: deps.now(),
      });
      return { url: session.url, sessionId: session.id };
    },

    async upgradeAfterPayment(user: User, sessionId: string): Promise<{ upgraded: boolean }> {
      const session = await retrieve(sessionId);
      const owner = session.metadata?.userId ?? session.client_reference_id;
      if (owner !== String(user.id)) throw new HttpError(404, PAYMENT_MESSAGES.unknownSession);
      if (session.payment_status !== 'paid') throw new HttpError(409, PAYMENT_MESSAGES.notPaid);
      return complete(session);
    },

    /** Reconciles the user's open checkouts with Stripe (a missed webhook, a closed tab). */
    async checkPayments(user: User): Promise<{ upgraded: boolean; checked: number }> {
      const open = await payments.listOpenCheckoutIds(String(user.id));
      let upgraded = false;
      for (const checkoutSessionId of open) {
        const session = await retrieve(checkoutSessionId);
        if (session.status === 'expired') await payments.markExpired(session.id);
        upgraded = (await complete(session)).upgraded || upgraded;
      }
      return { upgraded, checked: open.length };
    },

    /** Revenue of every completed payment, in cents (admin stats). */
    async paidRevenueCents(): Promise<number> {
      return payments.sumPaidCents();
    },

    /** Verifies Stripe-Signature and applies `checkout.session.completed` (idempotent). */
    async handleWebhook(rawBody: string, signature: string | undefined): Promise<void> {
      if (!deps.webhookSecret || !deps.stripe) throw new HttpError(503, PAYMENT_MESSAGES.notConfigured);
      let event: Stripe.Event;
      try {
        event = deps.stripe.webhooks.constructEvent(rawBody, signature ?? '', deps.webhookSecret);
      } catch {
        throw new HttpError(400, PAYMENT_MESSAGES.badSignature);
      }
      if (
        event.type === 'checkout.session.completed' ||
        event.type === 'checkout.session.async_payment_succeeded'
      ) {
        await complete(event.data.object);
      }
    },
  };
}

export type PaymentService = ReturnType<typeof createPaymentService>;
