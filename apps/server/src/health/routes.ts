import { api } from '@flaglight/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { fromContract } from '../http/contract-route.js';

export async function healthRoutes(fastify: FastifyInstance): Promise<void> {
  const route = fromContract(api.meta.health);
  fastify.withTypeProvider<ZodTypeProvider>().route({
    ...route,
    config: { ...route.config, rateLimit: false },
    handler: async () => ({ ok: true as const }),
  });
}
