import { api, PUBLIC_READS_PER_MINUTE } from '@flaglight/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { fromContract } from '../http/contract-route.js';

export async function healthRoutes(fastify: FastifyInstance): Promise<void> {
  // Limited like every public read, far above any probe: a flood from one address is not a probe.
  fastify.withTypeProvider<ZodTypeProvider>().route({
    ...fromContract(api.meta.health, { rateLimitPerMinute: PUBLIC_READS_PER_MINUTE }),
    handler: async () => ({ ok: true as const }),
  });
}
