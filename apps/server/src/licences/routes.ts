import { validateLicenseKey } from '@flaglight/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { toUser } from '../auth/repository.js';
import type { AuthService } from '../auth/service.js';
import { badRequest } from '../http/errors.js';
import type { LicenceService } from './service.js';

export async function licenceRoutes(
  fastify: FastifyInstance,
  opts: { auth: AuthService; licences: LicenceService; adminEmails: string[]; rateLimitPerMinute: number },
) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get('/api/license/status', async (request) => {
    const { user } = await opts.auth.authenticate(request.headers.authorization);
    return opts.licences.status(user);
  });

  app.post(
    '/api/license/verify',
    {
      // Guessing keys is pointless (80 bits), but a flood of attempts is still refused.
      config: { rateLimit: { max: opts.rateLimitPerMinute, timeWindow: '1 minute' } },
      schema: { body: z.object({ licenseKey: z.string().max(200) }) },
    },
    async (request) => {
      const { user } = await opts.auth.authenticate(request.headers.authorization);
      const key = validateLicenseKey(request.body.licenseKey);
      if (!key.ok) throw badRequest(key.error);
      await opts.licences.redeem(user, key.value);
      const row = await opts.auth.users.findById(String(user.id));
      return {
        success: true,
        message: 'License activated. Enjoy lifetime access!',
        user: row ? toUser(row, opts.adminEmails) : user,
      };
    },
  );
}
