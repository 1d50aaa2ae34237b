import {
  api,
  GOVEE_COMMANDS_PER_MINUTE,
  GOVEE_CONNECTS_PER_MINUTE,
  GOVEE_DIAGNOSTICS_PER_MINUTE,
  GOVEE_LIGHT_LISTS_PER_MINUTE,
} from '@flaglight/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { signedInUser } from '../http/auth.js';
import { fromContract } from '../http/contract-route.js';
import type { GoveeService } from './service.js';

const perUser = (rateLimitPerMinute: number) => ({ rateLimitPerMinute, rateLimitPer: 'user' }) as const;

/**
 * Govee's cloud through the server (reference §2.2): the browser never holds the API key, and
 * Govee's budgets (10 per device per minute, 10,000 a day) are kept here for every tab of the
 * account. Who may call: every route needs a signed-in account (bearer session), and works only
 * on that account's own key and devices; setting a free-form look needs an active plan, like
 * Hue's. How often: each route is limited per account and minute (contract's GOVEE_* limits).
 * What an attacker gains: with a stolen session, the victim's lights and the victim's Govee
 * budget (the key itself is never returned or logged); with their own account, nothing of anyone
 * else's — the limits keep them from using the server to hammer Govee.
 */
export async function goveeRoutes(fastify: FastifyInstance, opts: { govee: GoveeService }): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { govee } = opts;
  const userId = (request: FastifyRequest) => String(signedInUser(request).id);

  app.route({
    ...fromContract(api.govee.status, perUser(GOVEE_COMMANDS_PER_MINUTE)),
    handler: async (request) => govee.status(userId(request)),
  });

  // Each connect is one device-list call to Govee (its own limit: 10 a minute).
  app.route({
    ...fromContract(api.govee.connect, perUser(GOVEE_CONNECTS_PER_MINUTE)),
    handler: async (request) => govee.connect(userId(request), request.body.apiKey),
  });

  app.route({
    ...fromContract(api.govee.disconnect, perUser(GOVEE_CONNECTS_PER_MINUTE)),
    handler: async (request) => {
      await govee.disconnect(userId(request));
      return { success: true as const };
    },
  });

  app.route({
    ...fromContract(api.govee.lights, perUser(GOVEE_LIGHT_LISTS_PER_MINUTE)),
    handler: async (request) => ({ lights: await govee.listLights(userId(request)) }),
  });

  app.route({
    ...fromContract(api.govee.setState, perUser(GOVEE_COMMANDS_PER_MINUTE)),
    handler: async (request) => ({
      success: true as const,
      lights: await govee.setState(userId(request), request.body),
    }),
  });

  app.route({
    ...fromContract(api.govee.flag, perUser(GOVEE_COMMANDS_PER_MINUTE)),
    handler: async (request) => {
      const { lightIds, flag } = request.body;
      const played = await govee.playFlag(userId(request), lightIds, flag);
      return { success: true as const, flag, ...played };
    },
  });

  // Reading costs one state call per device; giving back is paced like every other update.
  app.route({
    ...fromContract(api.roomState.goveeRead, perUser(GOVEE_COMMANDS_PER_MINUTE)),
    handler: async (request) => ({ lights: await govee.readStates(userId(request), request.body.lightIds) }),
  });

  app.route({
    ...fromContract(api.roomState.goveeRestore, perUser(GOVEE_COMMANDS_PER_MINUTE)),
    handler: async (request) => govee.restoreStates(userId(request), request.body.lights),
  });

  app.route({
    ...fromContract(api.govee.diagnostics, perUser(GOVEE_DIAGNOSTICS_PER_MINUTE)),
    handler: async (request) => govee.diagnostics(userId(request)),
  });
}
