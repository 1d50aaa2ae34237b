import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import { COMPANION_BRIDGE_HOST } from '@flaglight/contract';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { adminRoutes } from './admin/routes.js';
import { authRoutes } from './auth/routes.js';
import type { Config } from './config.js';
import type { AppContext } from './context.js';
import { migrateToLatest } from './db/database.js';
import { deviceRoutes } from './devices/routes.js';
import { companionReleaseRoutes } from './downloads/releases.js';
import { downloadRoutes } from './downloads/routes.js';
import { goveeRoutes } from './govee/routes.js';
import { healthRoutes } from './health/routes.js';
import { registerApiDocs } from './http/api-docs.js';
import { registerAuth } from './http/auth.js';
import { registerCompression } from './http/compression.js';
import { answerFrameworkError, HttpError, registerErrorHandling } from './http/errors.js';
import { registerInputGuard } from './http/input-guard.js';
import { recordRoutes } from './http/route-table.js';
import { DEFAULT_WEB_DIST, webAppRoutes } from './http/web-app.js';
import { hueRoutes } from './hue/routes.js';
import { licenceRoutes } from './licences/routes.js';
import { liveRoutes } from './live/routes.js';
import { openf1Routes } from './openf1/routes.js';
import { paymentRoutes } from './payments/routes.js';
import { preferenceRoutes } from './preferences/routes.js';
import { publicConfigRoutes } from './public-config/routes.js';
import { replayRoutes } from './replays/routes.js';
import { scheduleRoutes } from './schedule/routes.js';
import { trackingRoutes } from './tracking/routes.js';

/** Largest request body any route accepts; the app's payloads are small JSON documents. */
export const BODY_LIMIT_BYTES = 64 * 1024;

/**
 * Fastify's `trustProxy` for TRUST_PROXY. A hop count becomes a function: Fastify 5 fails closed on
 * a bare number; with `n` the socket peer and the n-1 hops before it are the proxies, so the client
 * is the n-th address from the end of X-Forwarded-For (only sound when the app is reachable through
 * those proxies alone, which docs/configuration.md says).
 */
export function trustProxyOption(
  trust: Config['trustProxy'],
): false | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trust !== 'number') return trust;
  return (_address, hop) => hop < trust;
}

export interface BuildOptions {
  context: AppContext;
  /** Log each request (the server process does; tests do not). */
  logRequests?: boolean;
  /** Folder of the built web app; defaults to apps/web/dist. */
  webDistDir?: string;
}

/**
 * Builds the Fastify app in a fixed order: external plugins, then the app's services, then routes
 * (the fastify/demo layout). Migrations run here, before the first request.
 */
export async function buildApp(options: BuildOptions): Promise<FastifyInstance> {
  const { context } = options;
  // Typed as Fastify's logger, so the app is the plain FastifyInstance the plugins expect.
  const loggerInstance: FastifyBaseLogger = context.logger;
  const app = Fastify({
    loggerInstance,
    // Health checks would drown the request log; tests log nothing per request.
    logController: new LogController({
      disableRequestLogging: (request) => !options.logRequests || request.url === '/api/health',
    }),
    bodyLimit: BODY_LIMIT_BYTES,
    frameworkErrors: answerFrameworkError,
    // Off by default: X-Forwarded-For is believed only from the proxies TRUST_PROXY names, else any
    // client could pick its own address and walk past every per-client rate limit.
    trustProxy: trustProxyOption(context.config.trustProxy),
    routerOptions: { ignoreTrailingSlash: true },
  }).withTypeProvider<ZodTypeProvider>();

  recordRoutes(app);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app);
  registerInputGuard(app);

  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: true,
      directives: {
        'script-src': ["'self'", 'https://challenges.cloudflare.com'],
        'frame-src': ["'self'", 'https://challenges.cloudflare.com'],
        // The companion's local bridge, asked only after the user presses Test on this computer (DESIGN §9),
        // on any port of 127.0.0.1: a companion started with --port says which (PUT /api/device/state).
        'connect-src': ["'self'", 'https://api.lifx.com', `${COMPANION_BRIDGE_HOST}:*`],
        'img-src': ["'self'", 'data:', 'https:'],
        'upgrade-insecure-requests': null,
      },
    },
    // The Hue OAuth popup reports back to its opener with postMessage.
    crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
  });
  await app.register(rateLimit, {
    global: false,
    // Counted in Redis when REDIS_URL is set, so a client cannot multiply its limit by the instances;
    // if Redis fails the request goes through rather than fail (availability over a blip's counts).
    ...(context.redis
      ? { redis: context.redis.client, nameSpace: `${context.redis.prefix}rate-limit:`, skipOnError: true }
      : {}),
    errorResponseBuilder: (_request, context) =>
      new HttpError(429, `Too many requests. Please wait ${context.after} and try again.`),
  });
  // Before any route: compression marks each route as it is added (http/compression.ts).
  await registerCompression(app);

  await registerApiDocs(app);
  registerAuth(app, context.auth, {
    // Replays stay free for an ended trial.
    isFreeSession: (sessionKey) => context.live.hub.replayInfo(sessionKey) !== null,
    devices: context.devices,
  });

  app.addHook('onClose', async () => {
    await context.close();
  });
  await migrateToLatest(context.db, context.dbSchema);

  if (context.sims) {
    const { sims } = context;
    await app.register(sims.register, { prefix: '/sims' });
  }

  await app.register(healthRoutes);
  await app.register(publicConfigRoutes, { config: context.config, sims: context.sims });
  await app.register(authRoutes, {
    auth: context.auth,
    turnstile: context.turnstile,
    rateLimitPerMinute: context.config.authRateLimitPerMinute,
  });
  await app.register(licenceRoutes, {
    auth: context.auth,
    licences: context.licences,
    rateLimitPerMinute: context.config.authRateLimitPerMinute,
  });
  await app.register(paymentRoutes, { auth: context.auth, payments: context.payments });
  await app.register(trackingRoutes, { tracking: context.tracking });
  await app.register(adminRoutes, { admin: context.admin });
  await app.register(openf1Routes, { proxy: context.openf1.proxy });
  await app.register(liveRoutes, context.live);
  await app.register(preferenceRoutes, { preferences: context.preferences });
  await app.register(scheduleRoutes, {
    schedule: context.schedule,
    liveSession: context.live.hub.currentLiveSession,
    now: context.live.timers.now,
  });
  await app.register(replayRoutes, { replays: context.replays });
  await app.register(deviceRoutes, { devices: context.devices });
  await app.register(hueRoutes, {
    hue: context.hue.service,
    publicUrl: context.config.publicUrl,
    trustRequestOrigin: context.config.mode === 'demo',
    authorizeBase: context.hue.authorizeBase,
  });
  await app.register(goveeRoutes, { govee: context.govee });
  await app.register(downloadRoutes, { downloadsDir: context.config.downloadsDir });
  await app.register(companionReleaseRoutes, { downloadsDir: context.config.downloadsDir });
  await app.register(webAppRoutes, { distDir: options.webDistDir ?? DEFAULT_WEB_DIST });

  return app;
}
