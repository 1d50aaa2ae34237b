import {
  api,
  SESSION_TRACKING_PER_ACCOUNT_PER_MINUTE,
  SESSION_TRACKING_PER_ADDRESS_PER_MINUTE,
} from '@flaglight/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { limitPerAddress } from '../http/address-limit.js';
import { signedInUser } from '../http/auth.js';
import { fromContract } from '../http/contract-route.js';
import type { TrackingService } from './service.js';

/** Each route's budget per account (the contract route's own limit); the address's is a hook beside it. */
const perAccount = {
  rateLimitPerMinute: SESSION_TRACKING_PER_ACCOUNT_PER_MINUTE,
  rateLimitPer: 'user',
} as const;

/** SPEC §7 session tracking: the post-race e-mail goes out once per account and session. */
export async function trackingRoutes(fastify: FastifyInstance, opts: { tracking: TrackingService }) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const perAddress = (name: string) =>
    limitPerAddress(fastify, { name, perMinute: SESSION_TRACKING_PER_ADDRESS_PER_MINUTE });

  app.route({
    ...fromContract(api.tracking.track, perAccount),
    onRequest: perAddress('sessions-track'),
    handler: async (request) => {
      const sessionId = await opts.tracking.track(signedInUser(request), request.body.sessionData);
      return { success: true as const, sessionId };
    },
  });

  app.route({
    ...fromContract(api.tracking.end, perAccount),
    onRequest: perAddress('sessions-end'),
    handler: async (request) => {
      const { emailSent } = await opts.tracking.end(signedInUser(request), request.body.sessionId);
      return { success: true as const, emailSent };
    },
  });
}
