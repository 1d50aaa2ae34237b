import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { toUser } from '../auth/repository.js';
import type { AuthService } from '../auth/service.js';
import { forbidden, HttpError, notFound } from '../http/errors.js';
import type { PaymentService } from '../payments/service.js';

const idParams = z.object({ id: z.string().min(1).max(100) });

/** SPEC §6 Admin. Every route checks the role on the server: 401 signed out, 403 non-admin. */
export async function adminRoutes(
  fastify: FastifyInstance,
  opts: { auth: AuthService; payments: PaymentService; adminEmails: string[] },
) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { auth, payments } = opts;

  app.addHook('onRequest', async (request) => {
    const { user } = await auth.authenticate(request.headers.authorization);
    if (!user.isAdmin) throw forbidden('Admin access required');
  });

  app.get('/admin/users', async () => {
    const rows = await auth.users.list();
    return { users: rows.map((row) => toUser(row, opts.adminEmails)) };
  });

  app.get('/admin/stats', async () => {
    const counts = await auth.users.countByPlan();
    const revenueTotal = (await payments.paidRevenueCents()) / 100;
    return {
      totalUsers: counts.trial + counts.lifetime + counts.pro,
      trialUsers: counts.trial,
      lifetimeUsers: counts.lifetime,
      proUsers: counts.pro,
      revenueTotal,
      totalRevenue: revenueTotal,
      currency: 'AUD',
    };
  });

  app.put(
    '/admin/users/:id/plan',
    { schema: { params: idParams, body: z.object({ plan: z.literal('lifetime') }) } },
    async (request) => {
      const row = await auth.users.findById(request.params.id);
      if (!row) throw notFound('User not found');
      const user = toUser(row, opts.adminEmails);
      if (user.isAdmin) throw new HttpError(409, 'Admins are not upgraded');
      if (user.plan !== 'trial') throw new HttpError(409, 'Only trial users can be upgraded');
      await auth.users.setPlan(row.id, request.body.plan);
      return { user: { ...user, plan: request.body.plan } };
    },
  );

  app.delete('/admin/users/:id', { schema: { params: idParams } }, async (request) => {
    const row = await auth.users.findById(request.params.id);
    if (!row) throw notFound('User not found');
    if (toUser(row, opts.adminEmails).isAdmin) throw new HttpError(409, 'Admins cannot be deleted');
    await auth.users.delete(row.id);
    return { ok: true };
  });
}
