import { api } from '@flaglight/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { signedInUser } from '../http/auth.js';
import { fromContract } from '../http/contract-route.js';
import { HttpError } from '../http/errors.js';
import { addressGroupOf } from '../live/replay-slots.js';
import type { ReplayService } from './service.js';

/** Replays through the live hub: list what can be replayed, start one, then stream its session key. */
export async function replayRoutes(fastify: FastifyInstance, opts: { replays: ReplayService }) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.route({
    ...fromContract(api.replays.list),
    handler: async (request) => {
      const bundled = opts.replays.bundled();
      const { year } = request.query;
      if (year === undefined) return { success: true as const, sessions: bundled };
      const online = await opts.replays.historical(year);
      return {
        success: true as const,
        sessions: [...bundled.filter((s) => s.year === year), ...(online.ok ? online.sessions : [])],
        ...(online.ok ? {} : { message: online.error }),
      };
    },
  });

  app.route({
    ...fromContract(api.replays.start, { rateLimitPerMinute: 30 }),
    handler: async (request) => {
      const owner = { userId: String(signedInUser(request).id), address: addressGroupOf(request.ip) };
      const result = await opts.replays.start(request.body, owner);
      if (!result.ok) throw new HttpError(result.status, result.error);
      return { success: true as const, sessionKey: result.sessionKey, ...result.info };
    },
  });
}
