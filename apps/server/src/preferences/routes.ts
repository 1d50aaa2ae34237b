import { api, PREFERENCES_WRITES_PER_MINUTE } from '@flaglight/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { signedInUser } from '../http/auth.js';
import { fromContract } from '../http/contract-route.js';
import { HttpError } from '../http/errors.js';
import type { PreferencesService } from './service.js';

/**
 * The account's preferences, for the account itself or its linked companion (`device`). Only the
 * caller's own document is reachable: the user id comes from the credential, never the request.
 */
export async function preferenceRoutes(fastify: FastifyInstance, opts: { preferences: PreferencesService }) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.route({
    ...fromContract(api.preferences.get),
    handler: async (request) => opts.preferences.get(String(signedInUser(request).id)),
  });

  app.route({
    ...fromContract(api.preferences.put, {
      rateLimitPerMinute: PREFERENCES_WRITES_PER_MINUTE,
      rateLimitPer: 'user',
    }),
    handler: async (request) => {
      const { version, preferences } = request.body;
      const result = await opts.preferences.save(String(signedInUser(request).id), version, preferences);
      if (result.ok) return result.document;
      throw new HttpError(
        409,
        'Your preferences were changed elsewhere. Merge with the current version and try again.',
        { current: result.current },
        'conflict',
      );
    },
  });
}
