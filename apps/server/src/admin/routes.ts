import { api } from '@flaglight/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { fromContract } from '../http/contract-route.js';
import type { AdminService } from './service.js';

/** SPEC §6 Admin. The contract declares every route `admin`: 401 signed out, 403 non-admin. */
export async function adminRoutes(fastify: FastifyInstance, opts: { admin: AdminService }) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { admin } = opts;

  app.route({ ...fromContract(api.admin.users), handler: async () => ({ users: await admin.users() }) });

  app.route({ ...fromContract(api.admin.stats), handler: async () => admin.stats() });

  app.route({
    ...fromContract(api.admin.setPlan),
    handler: async (request) => ({ user: await admin.upgrade(request.params.id, request.body.plan) }),
  });

  app.route({
    ...fromContract(api.admin.deleteUser),
    handler: async (request) => {
      await admin.delete(request.params.id);
      return { ok: true as const };
    },
  });
}
