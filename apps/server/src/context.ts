import path from 'node:path';
import { MAX_STREAMS_PER_USER } from '@flaglight/contract';
import type { Logger } from 'pino';
import { createAdminService, type AdminService } from './admin/service.js';
import { createLoginThrottle } from './auth/login-throttle.js';
import { createAuthService, type AuthService } from './auth/service.js';
import type { Config } from './config.js';
import { createDatabase, type Db, type DatabaseOptions } from './db/database.js';
import { tightenDataDir } from './db/private-files.js';
import type { DemoSims } from './demo/sims.js';
import { createDeviceService, type DeviceService } from './devices/service.js';
import { createGoveeCloudClient } from './govee/client.js';
import { createGoveeService, type GoveeService } from './govee/service.js';
import { createLogger } from './http/logging.js';
import { createBrowserBinding } from './hue/browser-binding.js';
import { createHueRemoteClient } from './hue/client.js';
import { createSecretBox, resolveAppSecret } from './hue/crypto.js';
import { createHueService, type HueService } from './hue/service.js';
import { createLicenceService, type LicenceService } from './licences/service.js';
import { createInProcessBus } from './live/bus.js';
import { createSystemTimers, type Timers } from './live/clock.js';
import { createDeviceStreams, type DeviceStreams } from './live/device-streams.js';
import { type F1Feed, startF1Feed } from './live/f1-feed.js';
import { createLiveHub, type LiveHub } from './live/hub.js';
import { connectMqttPush, type PushConnector } from './live/push.js';
import { createRedisBus, createRedisTicketStore, type RedisBus } from './live/redis.js';
import { createStreamLimits, type StreamLimits } from './live/stream-limits.js';
import { createTicketStore, type TicketStore } from './live/tickets.js';
import { createInProcessUserEvents, createRedisUserEvents, type UserEvents } from './live/user-events.js';
import { createMailer, type Mailer } from './mail/mailer.js';
import { createOpenF1Client, type OpenF1Client } from './openf1/client.js';
import { createOpenF1Proxy, type OpenF1Proxy } from './openf1/proxy.js';
import { createPaymentService, createStripeClient, type PaymentService } from './payments/service.js';
import { createPreferencesService, type PreferencesService } from './preferences/service.js';
import { createReplayService, type ReplayService } from './replays/service.js';
import { createJolpicaClient } from './schedule/client.js';
import { createScheduleService, type ScheduleService } from './schedule/service.js';
import { createSessionLookup } from './tracking/known-session.js';
import { createTrackingService, type TrackingService } from './tracking/service.js';
import { createTurnstileVerifier, type TurnstileVerifier } from './turnstile/client.js';

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
  admin: AdminService;
  licences: LicenceService;
  payments: PaymentService;
  tracking: TrackingService;
  openf1: { client: OpenF1Client; proxy: OpenF1Proxy };
  live: {
    hub: LiveHub;
    /** The instance's F1 live-timing connection; undefined when `F1_LIVE_TIMING=off`. */
    f1: F1Feed | undefined;
    tickets: TicketStore;
    timers: Timers;
    limits: StreamLimits;
    userEvents: UserEvents;
    deviceStreams: DeviceStreams;
  };
  preferences: PreferencesService;
  /** Linked desktop companions and the device authorization grant that links them. */
  devices: DeviceService;
  /** The Redis bus when REDIS_URL is set (its command connection also backs the rate limits). */
  redis: RedisBus | undefined;
  schedule: ScheduleService;
  replays: ReplayService;
  /** Hue remote API per user; `authorizeBase` is where the browser opens Hue's authorize page. */
  hue: { service: HueService; authorizeBase: (appOrigin: string) => string };
  /** Govee's cloud per user: keys sealed here, calls paced within Govee's budgets. */
  govee: GoveeService;
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
  /** How long the server waits for Govee's cloud (default 10 s; tests shorten it). */
  goveeTimeoutMs?: number;
}

export async function createContext(config: Config, options: ContextOptions = {}): Promise<AppContext> {
  const logger = options.logger ?? createLogger(config);
  const now = options.now ?? (() => new Date());
  const db = createDatabase(config.database, options.database);
  // DATA_DIR holds the database, secrets and the outbox; an older version may have left it open.
  tightenDataDir(config.dataDir);

  // Loaded only in demo mode: live mode never loads @flaglight/sims.
  const sims =
    config.mode === 'demo'
      ? await (
          await import('./demo/sims.js')
        ).startDemoSims(now, config.port, config.publicUrl, config.lanSim, config.demoRace)
      : undefined;
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
    username: config.openf1.username ?? (demoOpenF1 ? sims?.openf1Account.username : undefined),
    password: config.openf1.password ?? (demoOpenF1 ? sims?.openf1Account.password : undefined),
    mqttUrl:
      config.openf1.mqttUrl ??
      (demoOpenF1 && sims ? `${sims.origin.replace(/^http/, 'ws')}/sims/openf1/mqtt` : undefined),
    now: timers.now,
  });
  // DESIGN §3 scale-out: with REDIS_URL live events, tickets and rate limits are shared by instances.
  const redis = config.redisUrl
    ? createRedisBus(config.redisUrl, { prefix: config.redisKeyPrefix, logger })
    : undefined;
  // Account-wide stream events (preferences): every instance hears every change.
  const userEvents =
    redis && config.redisUrl
      ? createRedisUserEvents(config.redisUrl, redis.client, { prefix: redis.prefix, logger })
      : createInProcessUserEvents();
  // One F1 live-timing connection per instance, whatever the number of users: F1 tolerates light,
  // personal use of its feed, not a connection per fan.
  const f1Feed = config.f1Live
    ? startF1Feed({ url: config.f1Live.url ?? simUrl('f1live/signalrcore'), logger })
    : undefined;
  const hub = createLiveHub({
    f1: f1Feed,
    client: openf1Client,
    bus: redis ?? createInProcessBus(),
    timers,
    logger,
    connectPush: options.connectPush ?? connectMqttPush,
  });
  // Demo mode: when the replayed race ends, it starts again, so there is always a live session.
  const demoLoop = sims && demoOpenF1 ? sims.startReplayLoop({ timers, logger }) : undefined;
  const schedule = createScheduleService({
    client: createJolpicaClient({ baseUrl: config.jolpica.baseUrl ?? simUrl('jolpica') }),
    now: timers.now,
  });
  const auth = createAuthService({
    db,
    config,
    mailer,
    logger,
    now,
    raceStarts: schedule.raceStarts,
    loginThrottle: createLoginThrottle({ redis, now, logger }),
  });

  // Asked at each device stream's heartbeat; `devices` is made just below (called later only).
  const deviceStreams = createDeviceStreams({
    isLinked: (deviceId) => devices.isLinked(deviceId),
    // A companion came online or went offline: the account's pages read the device list again.
    onPresence: ({ userId }) => userEvents.publish(userId, { type: 'devices' }),
  });
  const preferences = createPreferencesService({ db, events: userEvents, logger, now });
  const devices = createDeviceService({
    db,
    publicUrl: config.publicUrl,
    now,
    isOnline: (deviceId) => deviceStreams.isOnline(deviceId),
    onRevoked: (deviceId) => deviceStreams.closeAll(deviceId),
    events: userEvents,
    onRelinked: ({ userId, fromDeviceId, toDeviceId }) =>
      preferences.carryRoomDelay(userId, fromDeviceId, toDeviceId),
  });

  const licences = createLicenceService({ db, now });
  const stripeKey = config.stripe.secretKey ?? sims?.checkout.secretKey;
  const payments = createPaymentService({
    db,
    stripe: stripeKey ? createStripeClient(stripeKey, config.stripe.apiUrl ?? sims?.origin) : undefined,
    webhookSecret: config.stripe.webhookSecret ?? sims?.checkout.webhookSecret,
    publicUrl: config.publicUrl,
    appOrigins: config.appOrigins,
    mailer,
    logger,
    now,
  });
  const tracking = createTrackingService({
    db,
    mailer,
    logger,
    now,
    publicUrl: config.publicUrl,
    findKnownSession: createSessionLookup({
      replayInfo: (sessionKey) => hub.replayInfo(sessionKey),
      liveSession: () => hub.currentLiveSession(),
      races: async () => (await schedule.schedule()).races,
    }),
    flagHistory: (sessionKey) => hub.flagHistory(sessionKey),
  });

  // Hue remote API: the real one (HUE_API_URL, default api.meethue.com) or the demo simulator, which
  // the browser reaches on the app's own origin and the server on the internal loopback.
  const hueClientId = config.hue.clientId ?? (config.hue.apiUrl ? undefined : sims?.hue.clientId);
  const hueClientSecret = config.hue.clientSecret ?? (config.hue.apiUrl ? undefined : sims?.hue.clientSecret);
  const hueApiUrl = config.hue.apiUrl ?? simUrl('hue');
  const hueAuthorizeBase = (appOrigin: string) => config.hue.apiUrl ?? `${appOrigin}/sims/hue`;
  const appSecret = resolveAppSecret(config.appSecret, config.dataDir);
  const hue = createHueService({
    db,
    box: createSecretBox(appSecret),
    binding: createBrowserBinding(appSecret),
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

  // Govee's cloud: the real one (GOVEE_API_URL, default openapi.api.govee.com) or the simulator.
  const govee = createGoveeService({
    db,
    box: createSecretBox(appSecret, 'govee-api-key-encryption-v1'),
    client: createGoveeCloudClient({
      apiUrl: config.govee.apiUrl ?? simUrl('govee'),
      ...(options.goveeTimeoutMs === undefined ? {} : { timeoutMs: options.goveeTimeoutMs }),
    }),
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
    admin: createAdminService({ auth, payments, adminEmails: config.adminEmails }),
    licences,
    payments,
    tracking,
    openf1: { client: openf1Client, proxy: createOpenF1Proxy(openf1Client, timers.now) },
    live: {
      hub,
      f1: f1Feed,
      tickets: redis ? createRedisTicketStore(redis.client, redis.prefix) : createTicketStore(timers.now),
      limits: createStreamLimits({ perUser: MAX_STREAMS_PER_USER, total: config.maxStreams }),
      timers,
      userEvents,
      deviceStreams,
    },
    preferences,
    devices,
    redis,
    schedule,
    replays: createReplayService({ hub, client: openf1Client }),
    hue: { service: hue, authorizeBase: hueAuthorizeBase },
    govee,
    sims,
    now,
    async close() {
      demoLoop?.stop();
      hub.close();
      await f1Feed?.stop();
      hue.close();
      govee.close();
      await userEvents.close();
      await redis?.close();
      mailer.close();
      await sims?.close();
      await db.destroy();
    },
  };
}
