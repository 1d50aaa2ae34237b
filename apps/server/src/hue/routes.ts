import {
  api,
  HUE_CALLBACKS_PER_MINUTE,
  HueCallbackQuerySchema,
  PUBLIC_READS_PER_MINUTE,
} from '@flaglight/contract';
import { validateApplicationKey } from '@flaglight/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { signedInUser } from '../http/auth.js';
import { fromContract } from '../http/contract-route.js';
import { badRequest } from '../http/errors.js';
import { bindingCookie, readBindingCookies } from './browser-binding.js';
import { CALLBACK_SCRIPT, renderCallbackPage } from './callback-page.js';
import { HUE_OAUTH_REASONS, type HueService } from './service.js';

export interface HueRoutesOptions {
  hue: HueService;
  publicUrl: string;
  /**
   * Demo mode serves the flow from whatever origin the browser used (localhost or 127.0.0.1);
   * live mode always uses PUBLIC_URL, the callback registered with Hue.
   */
  trustRequestOrigin: boolean;
  /** Where the browser opens the authorize page, given the app origin. */
  authorizeBase: (appOrigin: string) => string;
}

const originOf = (url: string): string | null => {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
};

/**
 * SPEC §7 Hue rows. Every route but the OAuth callback needs the signed-in user's bearer token.
 * Besides SPEC's routes: `GET /auth/hue/callback` (the OAuth redirect target), `GET
 * /auth/hue/callback.js` (its script) and `POST /auth/hue/disconnect`, which removes the user's
 * Hue tokens and application key.
 */
export async function hueRoutes(fastify: FastifyInstance, opts: HueRoutesOptions): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { hue } = opts;
  const userId = (request: FastifyRequest) => String(signedInUser(request).id);
  const appOrigin = (request: FastifyRequest) =>
    (opts.trustRequestOrigin && originOf(`${request.protocol}://${request.host}`)) || opts.publicUrl;

  app.route({
    ...fromContract(api.hue.status),
    handler: async (request) => hue.status(userId(request)),
  });

  app.route({
    ...fromContract(api.hue.start),
    // The start is an authenticated fetch from the app: the browser keeps the cookie it sets
    // (same origin) and sends it on the popup's way back to the callback (SameSite=Lax).
    handler: async (request, reply) => {
      const started = await hue.start(userId(request), appOrigin(request));
      void reply.header(
        'set-cookie',
        bindingCookie(started.browserCookie, { maxAgeS: started.maxAgeS, secure: started.secure }),
      );
      return { authUrl: started.authUrl };
    },
  });

  app.route({
    ...fromContract(api.hue.disconnect),
    handler: async (request) => {
      await hue.disconnect(userId(request));
      return { success: true as const };
    },
  });

  app.route({
    ...fromContract(api.hue.callbackScript, { rateLimitPerMinute: PUBLIC_READS_PER_MINUTE }),
    handler: async (_request, reply) =>
      reply.type('text/javascript; charset=utf-8').header('cache-control', 'no-cache').send(CALLBACK_SCRIPT),
  });

  // Every outcome is a page for the popup, never a JSON error or a 500: the user is looking at it,
  // so the query is parsed here rather than refused with a 400. Only a flood from one address (far
  // beyond one person connecting a bridge) gets the JSON 429: each call looks up and spends a state.
  app.route({
    ...fromContract(api.hue.callback, { rateLimitPerMinute: HUE_CALLBACKS_PER_MINUTE }),
    handler: async (request, reply) => {
      const query = HueCallbackQuerySchema.safeParse(request.query);
      const outcome = query.success
        ? await hue.completeAuth(query.data, readBindingCookies(request.headers.cookie))
        : ({ ok: false, reason: HUE_OAUTH_REASONS.badState, redirectUri: null } as const);
      // The binding is single use: whatever the outcome, this browser's cookie is spent.
      const secure = (outcome.redirectUri ?? appOrigin(request)).startsWith('https:');
      void reply.header('set-cookie', bindingCookie('', { maxAgeS: 0, secure }));
      const origin = (outcome.redirectUri && originOf(outcome.redirectUri)) || appOrigin(request);
      // The popup keeps its opener only if this page's opener policy allows it after a cross-origin
      // authorize page (live Hue); the demo's authorize page is on our origin with our own policy.
      if (originOf(opts.authorizeBase(origin)) !== origin)
        void reply.header('cross-origin-opener-policy', 'unsafe-none');
      return reply
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-store')
        .send(renderCallbackPage(outcome.ok ? { ok: true } : { ok: false, reason: outcome.reason }, origin));
    },
  });

  app.route({
    ...fromContract(api.hue.diagnostics),
    handler: async (request) => hue.diagnostics(userId(request)),
  });

  app.route({
    ...fromContract(api.hue.createAppKey),
    handler: async (request) => hue.createApplicationKey(userId(request)),
  });

  app.route({
    ...fromContract(api.hue.storeAppKey),
    handler: async (request) => {
      const key = validateApplicationKey(request.body?.applicationKey);
      if (!key.ok) throw badRequest(key.error);
      return hue.storeApplicationKey(userId(request), key.value);
    },
  });

  app.route({
    ...fromContract(api.hue.lights),
    handler: async (request) => ({ lights: await hue.listLights(userId(request)) }),
  });

  app.route({
    ...fromContract(api.hue.setLightState),
    handler: async (request) => {
      await hue.setLightState(userId(request), request.params.id, request.body);
      return { success: true as const };
    },
  });

  app.route({
    ...fromContract(api.hue.flag),
    handler: async (request) => {
      const { lightIds, flag, test } = request.body;
      await hue.playFlag(userId(request), lightIds, flag, { test: test === true });
      return { success: true as const, flag, lights: lightIds.length };
    },
  });

  app.route({
    ...fromContract(api.roomState.hueRead),
    handler: async (request) => ({ lights: await hue.readStates(userId(request), request.body.lightIds) }),
  });

  app.route({
    ...fromContract(api.roomState.hueRestore),
    handler: async (request) => hue.restoreStates(userId(request), request.body.lights),
  });
}
