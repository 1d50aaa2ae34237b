import crypto from 'node:crypto';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { Bus, LeadHandlers, Lease, RecentState } from './bus.js';
import { RING_SIZE } from './channel-store.js';
import { leadOverRedis } from './redis-lease.js';
import { TICKET_TTL_MS, type TicketGrant, type TicketStore } from './tickets.js';
import type { BusMessage, FlagEvent, StatusEventData } from './types.js';

/**
 * A leader holds its session's lease this long without renewing it; it renews every third of it,
 * and the other instances try to take it as often. A crashed leader is replaced within ≈ 1⅓ leases.
 */
export const LEASE_MS = 10_000;
/** A session's recent events and status stay in Redis this long after the last publish. */
export const HISTORY_TTL_MS = 6 * 3_600_000;

export interface RedisBusOptions {
  /** Every key and channel starts with this (default `flaglight:`), so deployments and tests can share a server. */
  prefix?: string;
  leaseMs?: number;
  logger?: Logger | undefined;
}

function connect(url: string, name: string, logger: Logger | undefined): Redis {
  const redis = new Redis(url, {
    connectionName: name,
    // Fail a command after one reconnect attempt rather than queue it forever during an outage.
    maxRetriesPerRequest: 1,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
  });
  // Without a listener an unreachable Redis would crash the process; the retry strategy reconnects.
  redis.on('error', (error: Error) => logger?.warn({ err: error, connection: name }, 'Redis error'));
  return redis;
}

function parse<T>(text: string | null | undefined): T | null {
  if (!text) return null;
  try {
    return JSON.parse(text) as T;
  } catch {
    return null;
  }
}

/**
 * A flag event goes onto the session's capped list and its channel in one MULTI, so the two agree
 * on order; a status replaces the kept one.
 */
function publishOverRedis(client: Redis, name: string, message: BusMessage): Promise<unknown> {
  const multi = client.multi();
  if (message.type === 'flag') {
    multi
      .rpush(`${name}:events`, JSON.stringify(message.event))
      .ltrim(`${name}:events`, -RING_SIZE, -1)
      .pexpire(`${name}:events`, HISTORY_TTL_MS);
  } else {
    multi.set(`${name}:status`, JSON.stringify(message.status), 'PX', HISTORY_TTL_MS);
  }
  return multi.publish(name, JSON.stringify(message)).exec();
}

export interface RedisBus extends Bus {
  /** The command connection (the rate limiter and the ticket store share it). */
  readonly client: Redis;
  readonly prefix: string;
  /** This instance's id: the value of the leases it holds, and in its connection names. */
  readonly instance: string;
}

/**
 * The Bus over Redis (DESIGN §3 scale-out), with two connections: one for commands and publishing,
 * one subscribed to the channels of the sessions this instance serves (ioredis subscribes again by
 * itself after a reconnect, and the bus then replays what it missed from the stored events).
 *
 * - Each flag event is appended to a capped list (`…:events`, the hub's ring size) and published in
 *   one MULTI, so the list and the channel agree on order; any instance can serve a `Last-Event-ID`
 *   resume from the list. The last status is kept beside it.
 * - One leader per session: `SET …:leader <instance> NX PX lease`, renewed by the leader, so only
 *   one instance follows a session upstream and the others relay its events.
 */
export function createRedisBus(url: string, options: RedisBusOptions = {}): RedisBus {
  const prefix = options.prefix ?? 'flaglight:';
  const leaseMs = options.leaseMs ?? LEASE_MS;
  const logger = options.logger;
  const instance = crypto.randomUUID();
  const client = connect(url, `flaglight-pub-${instance.slice(0, 8)}`, logger);
  const sub = connect(url, `flaglight-sub-${instance.slice(0, 8)}`, logger);
  const handlers = new Map<string, Set<(message: BusMessage) => void>>();
  const subscribed = new Map<string, Promise<unknown>>();
  const leases = new Set<() => void>();
  let readyOnce = false;
  let closed = false;

  const channel = (sessionKey: number) => `${prefix}live:${sessionKey}`;
  const sessionOf = (name: string) => Number(name.slice(`${prefix}live:`.length));

  function dispatch(name: string, message: BusMessage): void {
    for (const handler of [...(handlers.get(name) ?? [])]) handler(message);
  }

  sub.on('message', (name: string, text: string) => {
    const message = parse<BusMessage>(text);
    if (message && (message.type === 'flag' || message.type === 'status')) dispatch(name, message);
  });

  // After a reconnect: hand the handlers what was published while the connection was down (the
  // hub drops ids it already has), then the status as it is now.
  sub.on('ready', () => {
    if (!readyOnce) {
      readyOnce = true;
      return;
    }
    for (const name of handlers.keys()) {
      void recent(sessionOf(name))
        .then((state) => {
          for (const event of state.events) dispatch(name, { type: 'flag', event });
          if (state.status) dispatch(name, { type: 'status', status: state.status });
        })
        .catch((error: unknown) => logger?.warn({ err: error }, 'Redis resync failed'));
    }
  });

  async function recent(sessionKey: number): Promise<RecentState> {
    const name = channel(sessionKey);
    // Read only once subscribed, so nothing falls between the stored list and the live channel.
    await subscribed.get(name);
    const [events, status] = await Promise.all([
      client.lrange(`${name}:events`, 0, -1),
      client.get(`${name}:status`),
    ]);
    return {
      events: events.map((text) => parse<FlagEvent>(text)).filter((e): e is FlagEvent => e !== null),
      status: parse<StatusEventData>(status),
    };
  }

  function lead(sessionKey: number, on: LeadHandlers): Lease {
    const key = `${channel(sessionKey)}:leader`;
    return leadOverRedis({ client, key, sessionKey, instance, leaseMs, logger, leases }, on);
  }

  return {
    client,
    prefix,
    instance,
    publish(sessionKey, message) {
      if (closed) return;
      publishOverRedis(client, channel(sessionKey), message).catch((error: unknown) =>
        logger?.warn({ err: error, sessionKey }, 'Redis publish failed'),
      );
    },
    subscribe(sessionKey, handler) {
      const name = channel(sessionKey);
      let set = handlers.get(name);
      if (!set) {
        set = new Set();
        handlers.set(name, set);
        // Never an unhandled rejection: a failed SUBSCRIBE is retried by ioredis after a reconnect.
        subscribed.set(
          name,
          sub
            .subscribe(name)
            .catch((error: unknown) => logger?.warn({ err: error, sessionKey }, 'Redis subscribe failed')),
        );
      }
      set.add(handler);
      return () => {
        set.delete(handler);
        if (set.size === 0 && handlers.get(name) === set) {
          handlers.delete(name);
          subscribed.delete(name);
          if (!closed) sub.unsubscribe(name).catch(() => {});
        }
      };
    },
    recent,
    lead,
    async close() {
      if (closed) return;
      for (const release of [...leases]) release();
      closed = true;
      handlers.clear();
      // QUIT runs after the commands already queued (lease releases), then closes.
      await Promise.all([client.quit().catch(() => {}), sub.quit().catch(() => {})]);
    },
  };
}

/** Stream tickets in Redis, so a ticket issued by one instance opens a stream on any other. */
export function createRedisTicketStore(client: Redis, prefix: string): TicketStore {
  const key = (ticket: string) => `${prefix}ticket:${ticket}`;
  return {
    async issue(grant) {
      const ticket = crypto.randomBytes(24).toString('base64url');
      await client.set(key(ticket), JSON.stringify(grant), 'PX', TICKET_TTL_MS);
      return { ticket, expiresAt: Date.now() + TICKET_TTL_MS };
    },
    async redeem(ticket) {
      // GETDEL: one use, atomically, whichever instance asks first.
      const grant = parse<TicketGrant>(await client.getdel(key(ticket)));
      return typeof grant?.userId === 'string' ? grant : null;
    },
  };
}
