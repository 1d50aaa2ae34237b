import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { toUser } from '../auth/repository.js';
import type { AuthService } from '../auth/service.js';
import type { PaymentService } from './service.js';

export async function paymentRoutes(
  fastify: FastifyInstance,
  opts: { auth: AuthService; payments: PaymentService; adminEmails: string[] },
) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const freshUser = async (id: string | number) => {
    const row = await opts.auth.users.findById(String(id));
    return row ? toUser(row, opts.adminEmails) : null;
  };

  app.post('/api/payments/checkout', async (request) => {
    const { user } = await opts.auth.authenticate(request.headers.authorization);
    return opts.payments.startCheckout(user);
  });

  app.post(
    '/api/payments/upgrade-after-payment',
    { schema: { body: z.object({ sessionId: z.string().min(1).max(300) }) } },
    async (request) => {
      const { user } = await opts.auth.authenticate(request.headers.authorization);
      const result = await opts.payments.upgradeAfterPayment(user, request.body.sessionId);
      return { success: true, ...result, user: await freshUser(user.id) };
    },
  );

  app.post('/api/payments/check-payments', async (request) => {
    const { user } = await opts.auth.authenticate(request.headers.authorization);
    const result = await opts.payments.checkPayments(user);
    return { success: true, ...result, user: await freshUser(user.id) };
  });

  // The webhook needs the exact bytes Stripe signed, so this scope keeps the body as a string.
  await app.register(async (scope) => {
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) =>
      done(null, body),
    );
    scope.post('/api/payments/webhook', async (request) => {
      const signature = request.headers['stripe-signature'];
      await opts.payments.handleWebhook(
        typeof request.body === 'string' ? request.body : '',
        typeof signature === 'string' ? signature : undefined,
      );
      return { received: true };
    });
  });
}
