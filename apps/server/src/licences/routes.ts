import { api } from '@flaglight/contract';
import { validateLicenseKey } from '@flaglight/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AuthService } from '../auth/service.js';
import { signedInUser } from '../http/auth.js';
import { fromContract } from '../http/contract-route.js';
import { badRequest } from '../http/errors.js';
import type { LicenceService } from './service.js';

export async function licenceRoutes(
  fastify: FastifyInstance,
  opts: { auth: AuthService; licences: LicenceService; rateLimitPerMinute: number },
) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.route({
    ...fromContract(api.licences.status),
    handler: async (request) => opts.licences.status(signedInUser(request)),
  });

  app.route({
    // Guessing keys is pointless (80 bits), but a flood of attempts is still refused.
    ...fromContract(api.licences.verify, { rateLimitPerMinute: opts.rateLimitPerMinute }),
    handler: async (request) => {
      const user = signedInUser(request);
      const key = validateLicenseKey(request.body.licenseKey);
      if (!key.ok) throw badRequest(key.error);
      await opts.licences.redeem(user, key.value);
      return {
        success: true as const,
        message: 'License activated. Enjoy lifetime access!',
        user: (await opts.auth.freshUser(user.id)) ?? user,
      };
    },
  });
}
