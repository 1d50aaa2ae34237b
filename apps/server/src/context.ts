import path from 'node:path';
import {
  createCheckoutSim,
  createHueSim,
  createLifxSim,
  createJolpicaSim,
  createOpenF1Sim,
  createTurnstileSim,
  DEFAULT_OPENF1_USERS,
  DEMO_REPLAY_FIXTURE,
  startMailCatcher,
  type JolpicaSim,
  type OpenF1Sim,
} from '@flaglight/sims';
import Fastify, { type FastifyInstance } from 'fastify';
import pino, { type Logger } from 'pino';
import { createAuthService, type AuthService } from './auth/service.js';
import type { Config } from './config.js';
import { createDatabase, type Db, type DatabaseOptions } from './db/database.js';
import { createHueRemoteClient } from './hue/client.js';
import { createSecretBox, resolveAppSecret } from './hue/crypto.js';
import { createHueService, type HueService } from './hue/service.js';
import { createLicenceService, type LicenceService } from './licences/service.js';
import { createInProcessBus } from './live/bus.js';
import { createSystemTimers, type Timers } from './live/clock.js';
import { startDemoLoop } from './live/demo-loop.js';
import { createLiveHub, type LiveHub } from './live/hub.js';
import { connectMqttPush, type PushConnector } from './live/push.js';
import { createRedisBus, createRedisTicketStore, type RedisBus } from './live/redis.js';
import { createTicketStore, type TicketStore } from './live/tickets.js';
import { createMailer, type Mailer } from './mail/mailer.js';
import { createOpenF1Client, type OpenF1Client } from './openf1/client.js';
import { createOpenF1Proxy, type OpenF1Proxy } from './openf1/proxy.js';
import { createPaymentService, createStripeClient, type PaymentService } from './payments/service.js';
import { createReplayService, type ReplayService } from './replays/service.js';
import { createJolpicaClient } from './schedule/client.js';
import { createScheduleService, type ScheduleService } from './schedule/service.js';
import { createTurnstileVerifier, type TurnstileVerifier } from './turnstile/client.js';

/** Demo mode replays this far into the Saudi race: the pit exit opens 4.5 minutes later. */
export const DEMO_REPLAY_POSITION_MINUTES = 75;

/**
 * The simulators of demo mode. The app mounts their plugins under /sims/ on its own origin for
 * the browser (DESIGN §5.5); the same plugins (same state) also run on an internal loopback
 * server, which the server-side clients call, so they work before and without the app listening.
 */
export interface DemoSims {
  turnstile: ReturnType<typeof createTurnstileSim>;
  mail: Awaited<ReturnType<typeof startMailCatcher>>;
  checkout: ReturnType<typeof createCheckoutSim>;
  openf1: OpenF1Sim;
  jolpica: JolpicaSim;
  lifx: ReturnType<typeof createLifxSim>;
  hue: ReturnType<typeof createHueSim>;
  /** Registers every simulator's routes on a scope (prefix it with /sims). */
  register: (scope: FastifyInstance) => Promise<void>;
  /** Origin of the internal server, e.g. http://127.0.0.1:41234; its routes start with /sims/. */
  origin: string;
  close(): Promise<void>;
}

async function startDemoSims(now: () => Date, appPort: number): Promise<DemoSims> {
  const turnstile = createTurnstileSim({ now: () => now().getTime() });
  const mail = await startMailCatcher({ now: () => now().getTime() });
  const checkout = createCheckoutSim({
    now: () => now().getTime(),
    pagePath: '/sims/checkout',
    // Like Stripe, the simulator posts signed events to the app's webhook once it listens.
    webhookSink: async (payload, headers) => {
      if (appPort === 0) return;
      await fetch(`http://127.0.0.1:${appPort}/api/payments/webhook`, {
        method: 'POST',
        headers,
        body: payload,
      });
    },
  });
  // DESIGN §4: a real race with a safety car, VSCs and red flags, replayed as the live session.
  const openf1 = await createOpenF1Sim({
    now: () => now().getTime(),
    replays: [{ fixture: DEMO_REPLAY_FIXTURE, positionMinutes: DEMO_REPLAY_POSITION_MINUTES }],
  });
  const jolpica = createJolpicaSim({ now: () => now().getTime() });
  // 12 LIFX bulbs (token demo-token) and a Hue bridge with 4 lights: their pages show them live.
  const lifx = createLifxSim({ now: () => now().getTime() });
  const hue = createHueSim({ now: () => now().getTime() });
  const register = async (scope: FastifyInstance) => {
    await scope.register(openf1.plugin, { prefix: '/openf1' });
    await scope.register(jolpica.plugin, { prefix: '/jolpica' });
    await scope.register(turnstile.plugin, { prefix: '/turnstile' });
    await scope.register(mail.plugin, { prefix: '/mail' });
    await scope.register(checkout.plugin, { prefix: '/checkout' });
    await scope.register(lifx.plugin, { prefix: '/lifx' });
    await scope.register(hue.plugin, { prefix: '/hue' });
  };
  const internal = Fastify();
  await internal.register(register, { prefix: '/sims' });
  // The stripe SDK takes a host and port but no path prefix: its API is at this server's root.
  await internal.register(checkout.plugin);
  const origin = await internal.listen({ port: 0, host: '127.0.0.1' });
  return {
    turnstile,
    mail,
    checkout,
    openf1,
    jolpica,
    lifx,
    hue,
    register,
    origin,
    async close() {
      await internal.close();
      await openf1.close();
      await mail.close();
    },
  };
}

/**
 * The composition root's services (CONVENTIONS.md): everything the routes need is built here from
 * config, and nothing else constructs them.
 */
export interface AppContext {
  config: Config;
  logger: Logger;
  db: Db;
  /** PostgreSQL schema the app runs in, when not the default (tests). */
  dbSchema: string | undefined;
  mailer: Mailer;
  turnstile: TurnstileVerifier;
  auth: AuthService;
  licences: LicenceService;
  payments: PaymentService;
  openf1: { client: OpenF1Client; proxy: OpenF1Proxy };
  live: { hub: LiveHub; tickets: TicketStore; timers: Timers };
  /** The Redis bus when REDIS_URL is set (its command connection also backs the rate limits). */
  redis: RedisBus | undefined;
  schedule: ScheduleService;
  replays: ReplayService;
  /** Hue remote API per user; `authorizeBase` is where the browser opens Hue's authorize page. */
  hue: { service: HueService; authorizeBase: (appOrigin: string) => string };
  sims: DemoSims | undefined;
  now: () => Date;
  close(): Promise<void>;
}

export interface ContextOptions {
  database?: DatabaseOptions;
  logger?: Logger;
  now?: () => Date;
  /** The live hub's clock and timers (tests pass a fake one). */
  timers?: Timers;
  connectPush?: PushConnector;
  /** How long the server waits for the Hue remote API (default 10 s; tests shorten it). */
  hueTimeoutMs?: number;
}

export async function createContext(config: Config, options: ContextOptions = {}): Promise<AppContext> {
  const logger = options.logger ?? pino({ level: config.logLevel });
  const now = options.now ?? (() => new Date());
  const db = createDatabase(config.database, options.database);

  const sims = config.mode === 'demo' ? await startDemoSims(now, config.port) : undefined;
  const simUrl = (path: string) => {
    if (!sims) throw new Error(`no simulator in live mode for ${path}`);
    return `${sims.origin}/sims/${path}`;
  };

  const mailer = createMailer({
    smtpUrl: config.smtpUrl ?? sims?.mail.smtpUrl,
    from: config.mailFrom,
    outboxDir: path.join(config.dataDir, 'outbox'),
    logger,
  });
  const turnstile = createTurnstileVerifier({
    verifyUrl: config.turnstile.verifyUrl ?? simUrl('turnstile/siteverify'),
    secretKey: config.turnstile.secretKey ?? sims?.turnstile.secretKey ?? '',
  });
  const timers = options.timers ?? createSystemTimers(() => now().getTime());
  const demoOpenF1 = !config.openf1.baseUrl;
  const openf1Client = createOpenF1Client({
    baseUrl: config.openf1.baseUrl ?? simUrl('openf1'),
    // Demo mode follows the simulator's push with its default account, as live mode would.
    username: config.openf1.username ?? (demoOpenF1 ? 'flaglight' : undefined),
    password: config.openf1.password ?? (demoOpenF1 ? DEFAULT_OPENF1_USERS.flaglight : undefined),
    mqttUrl:
      config.openf1.mqttUrl ??
      (demoOpenF1 && sims ? `${sims.origin.replace(/^http/, 'ws')}/sims/openf1/mqtt` : undefined),
    now: timers.now,
  });
  // DESIGN §3 scale-out: with REDIS_URL live events, tickets and rate limits are shared by instances.
  const redis = config.redisUrl
    ? createRedisBus(config.redisUrl, { prefix: config.redisKeyPrefix, logger })
    : undefined;
  const hub = createLiveHub({
    client: openf1Client,
    bus: redis ?? createInProcessBus(),
    timers,
    logger,
    connectPush: options.connectPush ?? connectMqttPush,
  });
  // Demo mode: when the replayed race ends, it starts again, so there is always a live session.
  const demoLoop =
    sims && demoOpenF1
      ? startDemoLoop({
          control: sims.openf1.control,
          timers,
          fixture: DEMO_REPLAY_FIXTURE,
          positionMinutes: DEMO_REPLAY_POSITION_MINUTES,
          logger,
        })
      : undefined;
  const schedule = createScheduleService({
    client: createJolpicaClient({ baseUrl: config.jolpica.baseUrl ?? simUrl('jolpica') }),
    now: timers.now,
  });
  const auth = createAuthService({ db, config, mailer, logger, now, raceStarts: schedule.raceStarts });

  const licences = createLicenceService({ db, now });
  const stripeKey = config.stripe.secretKey ?? sims?.checkout.secretKey;
  const payments = createPaymentService({
    db,
    stripe: stripeKey ? createStripeClient(stripeKey, config.stripe.apiUrl ?? sims?.origin) : undefined,
    webhookSecret: config.stripe.webhookSecret ?? sims?.checkout.webhookSecret,
    publicUrl: config.publicUrl,
    mailer,
    logger,
    now,
  });

  // Hue remote API: the real one (HUE_API_URL, default api.meethue.com) or the demo simulator, which
  // the browser reaches on the app's own origin and the server on the internal loopback.
  const hueClientId = config.hue.clientId ?? (config.hue.apiUrl ? undefined : sims?.hue.clientId);
  const hueClientSecret = config.hue.clientSecret ?? (config.hue.apiUrl ? undefined : sims?.hue.clientSecret);
  const hueApiUrl = config.hue.apiUrl ?? simUrl('hue');
  const hueAuthorizeBase = (appOrigin: string) => config.hue.apiUrl ?? `${appOrigin}/sims/hue`;
  const hue = createHueService({
    db,
    box: createSecretBox(resolveAppSecret(config.appSecret, config.dataDir)),
    client:
      hueClientId && hueClientSecret
        ? createHueRemoteClient({
            apiUrl: hueApiUrl,
            clientId: hueClientId,
            clientSecret: hueClientSecret,
            ...(options.hueTimeoutMs === undefined ? {} : { timeoutMs: options.hueTimeoutMs }),
          })
        : undefined,
    clientId: hueClientId,
    authorizeBase: hueAuthorizeBase,
    logger,
    now,
  });

  return {
    config,
    logger,
    db,
    dbSchema: options.database?.schema,
    mailer,
    turnstile,
    auth,
    licences,
    payments,
    openf1: { client: openf1Client, proxy: createOpenF1Proxy(openf1Client, timers.now) },
    live: {
      hub,
      tickets: redis ? createRedisTicketStore(redis.client, redis.prefix) : createTicketStore(timers.now),
      timers,
    },
    redis,
    schedule,
    replays: createReplayService({ hub, client: openf1Client }),
    hue: { service: hue, authorizeBase: hueAuthorizeBase },
    sims,
    now,
    async close() {
      demoLoop?.stop();
      hub.close();
      hue.close();
      await redis?.close();
      mailer.close();
      await sims?.close();
      await db.destroy();
    },
  };
}
