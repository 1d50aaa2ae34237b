import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AuthService } from '../auth/service.js';
import { HttpError } from '../http/errors.js';
import { MAX_REPLAY_SPEED, MIN_REPLAY_SPEED, type ReplayService } from './service.js';

/** Replays through the live hub: list what can be replayed, start one, then stream its session key. */
export async function replayRoutes(
  fastify: FastifyInstance,
  opts: { auth: AuthService; replays: ReplayService },
) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/api/replays',
    { schema: { querystring: z.object({ year: z.coerce.number().int().min(2018).max(2100).optional() }) } },
    async (request) => {
      const bundled = opts.replays.bundled();
      if (request.query.year === undefined) return { success: true, sessions: bundled };
      const online = await opts.replays.historical(request.query.year);
      return {
        success: true,
        sessions: [
          ...bundled.filter((s) => s.year === request.query.year),
          ...(online.ok ? online.sessions : []),
        ],
        ...(online.ok ? {} : { message: online.error }),
      };
    },
  );

  app.post(
    '/api/replays',
    {
      schema: {
        body: z.object({
          source: z.enum(['bundled', 'openf1']).default('bundled'),
          id: z.string().min(1).max(100),
          speed: z.number().min(MIN_REPLAY_SPEED).max(MAX_REPLAY_SPEED).default(1),
          startMinutes: z.number().min(0).max(600).default(0),
        }),
      },
      config: { rateLimit: { max: 30, timeWindow: '1 minute' } },
    },
    async (request) => {
      await opts.auth.authenticate(request.headers.authorization);
      const result = await opts.replays.start(request.body);
      if (!result.ok) throw new HttpError(result.status, result.error);
      return { success: true, sessionKey: result.sessionKey, ...result.info };
    },
  );
}
