// The composition root's live steps: the OpenF1 client, and the live hub with what it shares
// across instances (DESIGN §1, §3).
import type { ContextBasics } from './context-basics.js';
import { createInProcessBus } from './live/bus.js';
import type { Timers } from './live/clock.js';
import { startF1Feed } from './live/f1-feed.js';
import { createLiveHub } from './live/hub.js';
import { connectMqttPush } from './live/push.js';
import { createRedisBus } from './live/redis.js';
import { createInProcessUserEvents, createRedisUserEvents } from './live/user-events.js';
import { createOpenF1Client, type OpenF1Client } from './openf1/client.js';

/** OpenF1 as configured, or (demo mode) the simulator, followed with its default account's push. */
export function buildOpenF1Client({ config, sims, simUrl }: ContextBasics, timers: Timers) {
  const demo = !config.openf1.baseUrl;
  const client = createOpenF1Client({
    baseUrl: config.openf1.baseUrl ?? simUrl('openf1'),
    // Demo mode follows the simulator's push with its default account, as live mode would.
    username: config.openf1.username ?? (demo ? sims?.openf1Account.username : undefined),
    password: config.openf1.password ?? (demo ? sims?.openf1Account.password : undefined),
    mqttUrl:
      config.openf1.mqttUrl ??
      (demo && sims ? `${sims.origin.replace(/^http/, 'ws')}/sims/openf1/mqtt` : undefined),
    now: timers.now,
  });
  return { client, demo };
}

/** The live hub and the buses it and the account events travel on; the demo race loop in demo mode. */
export function buildLive(
  { config, options, logger, sims, simUrl }: ContextBasics,
  timers: Timers,
  openf1: { client: OpenF1Client; demo: boolean },
) {
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
    client: openf1.client,
    bus: redis ?? createInProcessBus(),
    timers,
    logger,
    connectPush: options.connectPush ?? connectMqttPush,
  });
  // Demo mode: when the replayed race ends, it starts again, so there is always a live session.
  const demoLoop = sims && openf1.demo ? sims.startReplayLoop({ timers, logger }) : undefined;
  return { redis, userEvents, f1Feed, hub, demoLoop };
}
