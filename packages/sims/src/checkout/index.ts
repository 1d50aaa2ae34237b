import crypto from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import { systemClock, type Clock } from '../shared/clock.js';
import { isAllowedRedirect, refuseRedirect } from '../shared/redirects.js';
import { CHECKOUT_NOT_FOUND_PAGE, renderCheckoutPage } from './hosted-page.js';
import { type CheckoutSession, type SessionForm } from './types.js';

export const DEMO_STRIPE_SECRET_KEY = 'sk_test_flaglight_demo';
export const DEMO_STRIPE_WEBHOOK_SECRET = 'whsec_flaglight_demo';

export type { CheckoutSession } from './types.js';

export type WebhookSink = (payload: string, headers: Record<string, string>) => Promise<void>;

export interface CheckoutSimOptions {
  secretKey?: string;
  webhookSecret?: string;
  /** Where the hosted page lives as the browser sees it (demo: /sims/checkout). */
  pagePath?: string;
  /** Delivers signed webhook events (demo: POST to the app's /api/payments/webhook). */
  webhookSink?: WebhookSink;
  /**
   * Origins the hosted page may send the browser back to, besides its own and loopback ones
   * (demo: PUBLIC_URL's). A success or cancel URL elsewhere gets a 400 page, not a redirect.
   */
  appOrigins?: readonly string[];
  now?: Clock;
}

/** Stripe's signature scheme: `t=<unix>,v1=<hex HMAC-SHA256 of "t.payload">`. */
export function signStripePayload(payload: string, secret: string, timestampSeconds: number): string {
  const v1 = crypto.createHmac('sha256', secret).update(`${timestampSeconds}.${payload}`).digest('hex');
  return `t=${timestampSeconds},v1=${v1}`;
}

/** Parses Stripe's form encoding (`line_items[0][price_data][currency]=aud`) into nested objects. */
export function parseStripeForm(body: string): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const parts = key.split(/\[|\]\[|\]/).filter((p) => p !== '');
    let node: Record<string, unknown> = root;
    parts.forEach((part, i) => {
      if (i === parts.length - 1) node[part] = value;
      else node = (node[part] ??= {}) as Record<string, unknown>;
    });
  }
  return root;
}

/** A new open session from the SDK's form, or what is wrong with the form (Stripe's 400 message). */
function sessionFromForm(body: SessionForm, pagePath: string, nowMs: number): CheckoutSession | string {
  const item = body.line_items?.['0'];
  const unitAmount = Number(item?.price_data?.unit_amount);
  const quantity = Number(item?.quantity ?? 1);
  const currency = String(item?.price_data?.currency ?? '');
  if (body.mode !== 'payment') return 'Only mode=payment is simulated.';
  if (!body.success_url || !body.cancel_url) return 'Missing success_url or cancel_url.';
  if (!Number.isInteger(unitAmount) || unitAmount <= 0 || !currency) {
    return 'Invalid line_items[0][price_data].';
  }
  const id = `cs_test_${crypto.randomBytes(16).toString('hex')}`;
  return {
    id,
    object: 'checkout.session',
    mode: 'payment',
    status: 'open',
    payment_status: 'unpaid',
    amount_total: unitAmount * quantity,
    currency: currency.toLowerCase(),
    client_reference_id: body.client_reference_id ?? null,
    customer_email: body.customer_email ?? null,
    metadata: body.metadata ?? {},
    // Stripe picks the methods enabled in the dashboard when none are named: ours are these.
    payment_method_types: body.payment_method_types
      ? Object.values(body.payment_method_types)
      : ['card', 'paypal', 'apple_pay'],
    success_url: String(body.success_url),
    cancel_url: String(body.cancel_url),
    url: `${pagePath}/pay/${id}`,
    created: Math.floor(nowMs / 1000),
    line_items_description: String(item?.price_data?.product_data?.name ?? 'Purchase'),
  };
}

/**
 * A stand-in for Stripe Checkout: the API the stripe SDK calls (`/v1/checkout/sessions`, bearer
 * secret key, form-encoded bodies) and a hosted page a browser can pay or cancel on, which
 * redirects to the session's URLs and sends a signed `checkout.session.completed` webhook.
 */
export function createCheckoutSim(options: CheckoutSimOptions = {}) {
  const secretKey = options.secretKey ?? DEMO_STRIPE_SECRET_KEY;
  const webhookSecret = options.webhookSecret ?? DEMO_STRIPE_WEBHOOK_SECRET;
  const pagePath = (options.pagePath ?? '').replace(/\/+$/, '');
  const now = options.now ?? systemClock;
  const sessions = new Map<string, CheckoutSession>();
  let sink = options.webhookSink;
  let down = false;

  function webhookFor(session: CheckoutSession) {
    const payload = JSON.stringify({
      id: `evt_${crypto.randomBytes(12).toString('hex')}`,
      object: 'event',
      type: 'checkout.session.completed',
      created: Math.floor(now() / 1000),
      data: { object: session },
    });
    return { payload, signature: signStripePayload(payload, webhookSecret, Math.floor(now() / 1000)) };
  }

  const control = {
    sessions: () => [...sessions.values()],
    session: (id: string) => sessions.get(id),
    /** While down, the API answers 503 as Stripe does in an outage. */
    setDown(value: boolean) {
      down = value;
    },
    setWebhookSink(next: WebhookSink | undefined) {
      sink = next;
    },
    /** Pays a session as the hosted page would, and delivers the webhook. */
    async complete(id: string): Promise<CheckoutSession | undefined> {
      const session = sessions.get(id);
      if (!session || session.status !== 'open') return session;
      session.status = 'complete';
      session.payment_status = 'paid';
      session.url = null;
      await control.deliverWebhook(id);
      return session;
    },
    /** The signed event for a paid session (to replay a webhook in tests). */
    webhookFor(id: string) {
      const session = sessions.get(id);
      return session ? webhookFor(session) : undefined;
    },
    async deliverWebhook(id: string): Promise<void> {
      const event = control.webhookFor(id);
      if (!event || !sink) return;
      try {
        await sink(event.payload, {
          'content-type': 'application/json',
          'stripe-signature': event.signature,
        });
      } catch {
        // Stripe retries later; the app also reconciles on return (upgrade-after-payment).
      }
    },
  };

  const stripeError = (
    reply: FastifyReply,
    status: number,
    message: string,
    type = 'invalid_request_error',
  ) => reply.status(status).send({ error: { type, message } });

  async function plugin(app: FastifyInstance): Promise<void> {
    app.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string' },
      (_request, body, done) => {
        done(null, parseStripeForm(body as string));
      },
    );

    // The API, as the stripe SDK sees it.
    app.register(async (api) => {
      api.addHook('onRequest', async (request, reply) => {
        if (down) return stripeError(reply, 503, 'The Stripe API is temporarily unavailable.', 'api_error');
        if (request.headers.authorization !== `Bearer ${secretKey}`) {
          return stripeError(reply, 401, 'Invalid API Key provided.');
        }
      });
      api.post('/v1/checkout/sessions', async (request, reply) => {
        const body = (request.body ?? {}) as SessionForm;
        const session = sessionFromForm(body, pagePath, now());
        if (typeof session === 'string') return stripeError(reply, 400, session);
        sessions.set(session.id, session);
        return session;
      });
      api.get('/v1/checkout/sessions/:id', async (request, reply) => {
        const session = sessions.get((request.params as { id: string }).id);
        if (!session) return stripeError(reply, 404, 'No such checkout.session');
        return session;
      });
    });

    // The hosted page a person pays on.
    app.get('/pay/:id', async (request, reply) => {
      const session = sessions.get((request.params as { id: string }).id);
      if (!session) return reply.status(404).type('text/html').send(CHECKOUT_NOT_FOUND_PAGE);
      return reply.type('text/html; charset=utf-8').send(renderCheckoutPage(session, pagePath));
    });
    app.post('/pay/:id/complete', async (request, reply) => {
      const id = (request.params as { id: string }).id;
      const open = sessions.get(id);
      if (!open) return reply.status(404).send({ error: 'Checkout not found' });
      const target = open.success_url.replace('{CHECKOUT_SESSION_ID}', open.id);
      if (!isAllowedRedirect(target, request, options.appOrigins)) return refuseRedirect(reply);
      await control.complete(id);
      return reply.redirect(target, 303);
    });
    app.post('/pay/:id/cancel', async (request, reply) => {
      const session = sessions.get((request.params as { id: string }).id);
      if (!session) return reply.status(404).send({ error: 'Checkout not found' });
      if (!isAllowedRedirect(session.cancel_url, request, options.appOrigins)) return refuseRedirect(reply);
      if (session.status === 'open') session.status = 'expired';
      return reply.redirect(session.cancel_url, 303);
    });
  }

  return { plugin, control, secretKey, webhookSecret };
}

/** The simulator on its own port (tests): the API at /v1, the page at /pay. */
export async function startCheckoutSim(options: CheckoutSimOptions = {}) {
  const sim = createCheckoutSim(options);
  const app = Fastify();
  await app.register(sim.plugin);
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return { ...sim, url, close: () => app.close() };
}
