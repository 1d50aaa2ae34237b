import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AuthService } from '../auth/service.js';
import { sessionDataSchema } from './schemas.js';
import type { TrackingService } from './service.js';

/** SPEC §7 session tracking: the post-race e-mail goes out once per tracked session. */
export async function trackingRoutes(
  fastify: FastifyInstance,
  opts: { auth: AuthService; tracking: TrackingService },
) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.post(
    '/api/sessions/track',
    { schema: { body: z.object({ sessionData: sessionDataSchema }) } },
    async (request) => {
      const { user } = await opts.auth.authenticate(request.headers.authorization);
      const sessionId = await opts.tracking.track(user, request.body.sessionData);
      return { success: true, sessionId };
    },
  );

  app.post(
    '/api/sessions/end',
    { schema: { body: z.object({ sessionId: z.string().max(100) }) } },
    async (request) => {
      const { user } = await opts.auth.authenticate(request.headers.authorization);
      const { emailSent } = await opts.tracking.end(user, request.body.sessionId);
      return { success: true, emailSent };
    },
  );
}
