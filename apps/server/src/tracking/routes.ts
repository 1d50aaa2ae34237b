import { api } from '@flaglight/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { signedInUser } from '../http/auth.js';
import { fromContract } from '../http/contract-route.js';
import type { TrackingService } from './service.js';

/** SPEC §7 session tracking: the post-race e-mail goes out once per tracked session. */
export async function trackingRoutes(fastify: FastifyInstance, opts: { tracking: TrackingService }) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.route({
    ...fromContract(api.tracking.track),
    handler: async (request) => {
      const sessionId = await opts.tracking.track(signedInUser(request), request.body.sessionData);
      return { success: true as const, sessionId };
    },
  });

  app.route({
    ...fromContract(api.tracking.end),
    handler: async (request) => {
      const { emailSent } = await opts.tracking.end(signedInUser(request), request.body.sessionId);
      return { success: true as const, emailSent };
    },
  });
}
