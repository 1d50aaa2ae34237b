import {
  api,
  DEVICE_APPROVALS_PER_MINUTE,
  DEVICE_CODES_PER_MINUTE,
  DEVICE_LIGHT_REPORTS_PER_MINUTE,
  DEVICE_STATE_REPORTS_PER_MINUTE,
  DEVICE_TESTS_PER_MINUTE,
  DEVICE_TOKEN_POLLS_PER_MINUTE,
} from '@flaglight/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { DEVICE_ONLY_MESSAGE, signedInUser } from '../http/auth.js';
import { fromContract } from '../http/contract-route.js';
import { forbidden } from '../http/errors.js';
import type { DeviceService } from './service.js';

/**
 * Linking a desktop companion (RFC 8628): the companion asks for a code and polls for its token;
 * the signed-in user looks the code up and approves or denies it; Settings lists and unlinks.
 * User codes are 8 letters of 19 (1.7e10); looking them up is limited per account, so guessing
 * one that someone is about to type takes one account years (docs/decisions/015).
 */
export async function deviceRoutes(fastify: FastifyInstance, opts: { devices: DeviceService }) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { devices } = opts;
  const perUser = { rateLimitPerMinute: DEVICE_APPROVALS_PER_MINUTE, rateLimitPer: 'user' } as const;

  app.route({
    ...fromContract(api.devices.code, { rateLimitPerMinute: DEVICE_CODES_PER_MINUTE }),
    handler: async (request) => devices.requestCode(request.body),
  });

  app.route({
    ...fromContract(api.devices.token, { rateLimitPerMinute: DEVICE_TOKEN_POLLS_PER_MINUTE }),
    handler: async (request) => devices.poll(request.body.grant_type, request.body.device_code),
  });

  app.route({
    ...fromContract(api.devices.pending, perUser),
    handler: async (request) => devices.pending(request.query.code),
  });

  app.route({
    ...fromContract(api.devices.approve, perUser),
    handler: async (request) => {
      await devices.decide(request.body.code, 'approved', String(signedInUser(request).id));
      return { success: true as const };
    },
  });

  app.route({
    ...fromContract(api.devices.deny, perUser),
    handler: async (request) => {
      await devices.decide(request.body.code, 'denied', String(signedInUser(request).id));
      return { success: true as const };
    },
  });

  app.route({
    ...fromContract(api.devices.list),
    handler: async (request) => devices.list(String(signedInUser(request).id)),
  });

  app.route({
    ...fromContract(api.devices.reportLights, {
      rateLimitPerMinute: DEVICE_LIGHT_REPORTS_PER_MINUTE,
      rateLimitPer: 'device',
    }),
    handler: async (request) => {
      // The auth layer lets only a device token through (the contract's `deviceOnly`).
      const device = request.device;
      if (!device) throw forbidden(DEVICE_ONLY_MESSAGE);
      await devices.reportLights(
        { deviceId: device.id, userId: String(signedInUser(request).id) },
        request.body.lights,
      );
      return { success: true as const };
    },
  });

  app.route({
    ...fromContract(api.devices.reportState, {
      rateLimitPerMinute: DEVICE_STATE_REPORTS_PER_MINUTE,
      rateLimitPer: 'device',
    }),
    handler: async (request) => {
      const device = request.device;
      if (!device) throw forbidden(DEVICE_ONLY_MESSAGE);
      await devices.reportState(
        { deviceId: device.id, userId: String(signedInUser(request).id) },
        request.body,
      );
      return { success: true as const };
    },
  });

  app.route({
    ...fromContract(api.devices.test, { rateLimitPerMinute: DEVICE_TESTS_PER_MINUTE, rateLimitPer: 'user' }),
    handler: async (request) => ({
      success: true as const,
      devices: await devices.test(String(signedInUser(request).id), request.body.state),
    }),
  });

  app.route({
    ...fromContract(api.devices.unlink),
    handler: async (request) => {
      await devices.revoke(request.params.id, String(signedInUser(request).id));
      return { success: true as const };
    },
  });
}
