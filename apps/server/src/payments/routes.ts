import { api } from '@flaglight/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AuthService } from '../auth/service.js';
import { signedInUser } from '../http/auth.js';
import { fromContract } from '../http/contract-route.js';
import { readPageOrigin } from './page-origin.js';
import type { PaymentService } from './service.js';

export async function paymentRoutes(
  fastify: FastifyInstance,
  opts: { auth: AuthService; payments: PaymentService },
) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { auth, payments } = opts;

  app.route({
    ...fromContract(api.payments.checkout),
    handler: async (request) => payments.startCheckout(signedInUser(request), readPageOrigin(request)),
  });

  app.route({
    ...fromContract(api.payments.upgradeAfterPayment),
    handler: async (request) => {
      const user = signedInUser(request);
      const result = await payments.upgradeAfterPayment(user, request.body.sessionId);
      return { success: true as const, ...result, user: await auth.freshUser(user.id) };
    },
  });

  app.route({
    ...fromContract(api.payments.checkPayments),
    handler: async (request) => {
      const user = signedInUser(request);
      const result = await payments.checkPayments(user);
      return { success: true as const, ...result, user: await auth.freshUser(user.id) };
    },
  });

  // The webhook needs the exact bytes Stripe signed, so this scope keeps the body as a string.
  await app.register(async (scope) => {
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) =>
      done(null, body),
    );
    scope.withTypeProvider<ZodTypeProvider>().route({
      ...fromContract(api.payments.webhook),
      handler: async (request) => {
        const signature = request.headers['stripe-signature'];
        await payments.handleWebhook(request.body, typeof signature === 'string' ? signature : undefined);
        return { received: true as const };
      },
    });
  });
}
