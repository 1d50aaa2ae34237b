import { validateApplicationKey } from '@flaglight/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AuthService } from '../auth/service.js';
import { badRequest } from '../http/errors.js';
import { CALLBACK_SCRIPT, CALLBACK_SCRIPT_PATH, renderCallbackPage } from './callback-page.js';
import {
  callbackQuerySchema,
  flagBodySchema,
  lightParamsSchema,
  lightStateBodySchema,
  storeKeyBodySchema,
} from './schemas.js';
import { HUE_OAUTH_REASONS, type HueService } from './service.js';

export interface HueRoutesOptions {
  auth: AuthService;
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
  const { auth, hue } = opts;
  // The bearer check runs first (onRequest), so a signed-out client gets 401 before any body check.
  const users = new WeakMap<FastifyRequest, string>();
  const signedIn = {
    onRequest: async (request: FastifyRequest) => {
      users.set(request, String((await auth.authenticate(request.headers.authorization)).user.id));
    },
  };
  const userId = (request: FastifyRequest): string => {
    const id = users.get(request);
    if (!id) throw new Error('hue route without the signed-in hook');
    return id;
  };
  const appOrigin = (request: FastifyRequest) =>
    (opts.trustRequestOrigin && originOf(`${request.protocol}://${request.host}`)) || opts.publicUrl;

  app.get('/auth/hue/status', signedIn, async (request) => hue.status(userId(request)));

  app.get('/auth/hue/start', signedIn, async (request) => hue.start(userId(request), appOrigin(request)));

  app.post('/auth/hue/disconnect', signedIn, async (request) => {
    await hue.disconnect(userId(request));
    return { success: true };
  });

  app.get(CALLBACK_SCRIPT_PATH, async (_request, reply) =>
    reply.type('text/javascript; charset=utf-8').header('cache-control', 'no-cache').send(CALLBACK_SCRIPT),
  );

  // Every outcome is a page for the popup, never a JSON error or a 500: the user is looking at it.
  app.get('/auth/hue/callback', async (request, reply) => {
    const query = callbackQuerySchema.safeParse(request.query);
    const outcome = query.success
      ? await hue.completeAuth(query.data)
      : ({ ok: false, reason: HUE_OAUTH_REASONS.badState, redirectUri: null } as const);
    const origin = (outcome.redirectUri && originOf(outcome.redirectUri)) || appOrigin(request);
    // The popup keeps its opener only if this page's opener policy allows it after a cross-origin
    // authorize page (live Hue); the demo's authorize page is on our origin with our own policy.
    if (originOf(opts.authorizeBase(origin)) !== origin)
      void reply.header('cross-origin-opener-policy', 'unsafe-none');
    return reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(renderCallbackPage(outcome.ok ? { ok: true } : { ok: false, reason: outcome.reason }, origin));
  });

  app.get('/hue/diagnostics', signedIn, async (request) => hue.diagnostics(userId(request)));

  app.post('/hue/create-app-key', signedIn, async (request) => hue.createApplicationKey(userId(request)));

  app.post(
    '/hue/store-app-key',
    { ...signedIn, schema: { body: storeKeyBodySchema.nullish() } },
    async (request) => {
      const key = validateApplicationKey(request.body?.applicationKey);
      if (!key.ok) throw badRequest(key.error);
      return hue.storeApplicationKey(userId(request), key.value);
    },
  );

  app.get('/hue/lights', signedIn, async (request) => ({ lights: await hue.listLights(userId(request)) }));

  app.put(
    '/hue/lights/:id/state',
    { ...signedIn, schema: { params: lightParamsSchema, body: lightStateBodySchema } },
    async (request) => {
      await hue.setLightState(userId(request), request.params.id, request.body);
      return { success: true };
    },
  );

  app.post('/hue/lights/flag', { ...signedIn, schema: { body: flagBodySchema } }, async (request) => {
    const { lightIds, flag } = request.body;
    await hue.playFlag(userId(request), lightIds, flag);
    return { success: true, flag, lights: lightIds.length };
  });
}
