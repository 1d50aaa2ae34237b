// The composition root's account steps: sign-in, preferences and linked companions; payments.
import { createLoginThrottle } from './auth/login-throttle.js';
import { createAuthService } from './auth/service.js';
import type { ContextBasics } from './context-basics.js';
import { createDeviceService } from './devices/service.js';
import { createDeviceStreams } from './live/device-streams.js';
import type { RedisBus } from './live/redis.js';
import type { UserEvents } from './live/user-events.js';
import { createPaymentService, createStripeClient } from './payments/service.js';
import { createPreferencesService } from './preferences/service.js';
import type { ScheduleService } from './schedule/service.js';

export function buildAccounts(
  { config, logger, now, db, mailer }: ContextBasics,
  shared: { redis: RedisBus | undefined; userEvents: UserEvents; schedule: ScheduleService },
) {
  const { redis, userEvents, schedule } = shared;
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
  return { auth, deviceStreams, preferences, devices };
}

/** Stripe as configured, or (demo mode) the checkout simulator. */
export function buildPayments({ config, logger, now, db, mailer, sims }: ContextBasics) {
  const stripeKey = config.stripe.secretKey ?? sims?.checkout.secretKey;
  return createPaymentService({
    db,
    stripe: stripeKey ? createStripeClient(stripeKey, config.stripe.apiUrl ?? sims?.origin) : undefined,
    webhookSecret: config.stripe.webhookSecret ?? sims?.checkout.webhookSecret,
    publicUrl: config.publicUrl,
    appOrigins: config.appOrigins,
    mailer,
    logger,
    now,
  });
}
