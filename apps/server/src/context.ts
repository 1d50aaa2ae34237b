import path from 'node:path';
import { MAX_STREAMS_PER_USER } from '@flaglight/contract';
import type { Logger } from 'pino';
import { createAdminService, type AdminService } from './admin/service.js';
import type { AuthService } from './auth/service.js';
import type { Config } from './config.js';
import { buildAccounts, buildPayments } from './context-accounts.js';
import type { ContextBasics, ContextOptions } from './context-basics.js';
import { buildGovee, buildHue } from './context-lights.js';
import { buildLive, buildOpenF1Client } from './context-live.js';
import { createDatabase, type Db } from './db/database.js';
import { tightenDataDir } from './db/private-files.js';
import type { DemoSims } from './demo/sims.js';
import type { DeviceService } from './devices/service.js';
import type { GoveeService } from './govee/service.js';
import { createLogger } from './http/logging.js';
import { resolveAppSecret } from './hue/crypto.js';
import type { HueService } from './hue/service.js';
import { createLicenceService, type LicenceService } from './licences/service.js';
import { createSystemTimers, type Timers } from './live/clock.js';
import type { DeviceStreams } from './live/device-streams.js';
import type { F1Feed } from './live/f1-feed.js';
import type { LiveHub } from './live/hub.js';
import { createRedisTicketStore, type RedisBus } from './live/redis.js';
import { createStreamLimits, type StreamLimits } from './live/stream-limits.js';
import { createTicketStore, type TicketStore } from './live/tickets.js';
import type { UserEvents } from './live/user-events.js';
import { createMailer, type Mailer } from './mail/mailer.js';
import type { OpenF1Client } from './openf1/client.js';
import { createOpenF1Proxy, type OpenF1Proxy } from './openf1/proxy.js';
import type { PaymentService } from './payments/service.js';
import type { PreferencesService } from './preferences/service.js';
import { createReplayService, type ReplayService } from './replays/service.js';
import { createJolpicaClient } from './schedule/client.js';
import { createScheduleService, type ScheduleService } from './schedule/service.js';
import { createSessionLookup } from './tracking/known-session.js';
import { createTrackingService, type TrackingService } from './tracking/service.js';
import { createTurnstileVerifier, type TurnstileVerifier } from './turnstile/client.js';

export type { ContextBasics, ContextOptions } from './context-basics.js';

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

/** The simulators, in demo mode only: live mode never loads @flaglight/sims. */
async function loadDemoSims(config: Config, now: () => Date): Promise<DemoSims | undefined> {
  if (config.mode !== 'demo') return undefined;
  const { startDemoSims } = await import('./demo/sims.js');
  return startDemoSims(now, config.port, config.publicUrl, config.lanSim, config.demoRace);
}

function buildTracking(
  { config, logger, now, db, mailer }: ContextBasics,
  hub: LiveHub,
  schedule: ScheduleService,
): TrackingService {
  return createTrackingService({
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
}

export async function createContext(config: Config, options: ContextOptions = {}): Promise<AppContext> {
  const logger = options.logger ?? createLogger(config);
  const now = options.now ?? (() => new Date());
  const db = createDatabase(config.database, options.database);
  // DATA_DIR holds the database, secrets and the outbox; an older version may have left it open.
  tightenDataDir(config.dataDir);
  const sims = await loadDemoSims(config, now);
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
  const basics: ContextBasics = { config, options, logger, now, db, sims, simUrl, mailer };

  const turnstile = createTurnstileVerifier({
    verifyUrl: config.turnstile.verifyUrl ?? simUrl('turnstile/siteverify'),
    secretKey: config.turnstile.secretKey ?? sims?.turnstile.secretKey ?? '',
  });
  const timers = options.timers ?? createSystemTimers(() => now().getTime());
  const openf1 = buildOpenF1Client(basics, timers);
  const { redis, userEvents, f1Feed, hub, demoLoop } = buildLive(basics, timers, openf1);
  const schedule = createScheduleService({
    client: createJolpicaClient({ baseUrl: config.jolpica.baseUrl ?? simUrl('jolpica') }),
    now: timers.now,
  });
  const { auth, deviceStreams, preferences, devices } = buildAccounts(basics, {
    redis,
    userEvents,
    schedule,
  });
  const licences = createLicenceService({ db, now });
  const payments = buildPayments(basics);
  const tracking = buildTracking(basics, hub, schedule);
  const appSecret = resolveAppSecret(config.appSecret, config.dataDir);
  // The cloud players play the account's stored looks, never a look the browser sends.
  const looksOf = async (userId: string) => (await preferences.get(userId)).preferences.looks;
  const hue = buildHue(basics, appSecret, looksOf);
  const govee = buildGovee(basics, appSecret, looksOf);

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
    openf1: { client: openf1.client, proxy: createOpenF1Proxy(openf1.client, timers.now) },
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
    replays: createReplayService({ hub, client: openf1.client }),
    hue,
    govee,
    sims,
    now,
    async close() {
      demoLoop?.stop();
      hub.close();
      await f1Feed?.stop();
      hue.service.close();
      govee.close();
      await userEvents.close();
      await redis?.close();
      mailer.close();
      await sims?.close();
      await db.destroy();
    },
  };
}
