// One session's leadership over Redis: `SET …:leader <instance> NX PX lease`, renewed by the
// leader, so only one instance follows a session upstream and the others relay its events.
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { LeadHandlers, Lease } from './bus.js';

// Renew or release the lease only while this instance still holds it.
const RENEW = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end`;
const RELEASE = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;

export interface RedisLeaseOptions {
  client: Redis;
  /** The session's leader key. */
  key: string;
  sessionKey: number;
  /** This instance's id: the lease's value while it leads. */
  instance: string;
  leaseMs: number;
  logger?: Logger | undefined;
  /** The bus's open leases: a lease is in it until released (the bus releases them all on close). */
  leases: Set<() => void>;
}

/** Asks for the session's lease, and keeps asking (or renewing) every third of a lease until released. */
export function leadOverRedis(options: RedisLeaseOptions, on: LeadHandlers): Lease {
  const { client, key, instance, leaseMs, logger, sessionKey, leases } = options;
  let leading = false;
  let released = false;
  let lastRenewed = 0;
  let timer: NodeJS.Timeout | null = null;

  const lose = () => {
    leading = false;
    on.onLost();
  };

  async function tryAcquire(): Promise<void> {
    const got = await client.set(key, instance, 'PX', leaseMs, 'NX');
    if (got === 'OK' && released) {
      await client.eval(RELEASE, 1, key, instance);
      return;
    }
    if (got === 'OK') {
      leading = true;
      lastRenewed = Date.now();
      on.onAcquired();
    }
  }

  async function renew(): Promise<void> {
    const renewed = await client.eval(RENEW, 1, key, instance, leaseMs);
    if (released) return;
    if (renewed === 1) lastRenewed = Date.now();
    else lose();
  }

  async function tick(): Promise<void> {
    timer = null;
    if (released) return;
    try {
      if (!leading) await tryAcquire();
      else await renew();
    } catch (error) {
      logger?.warn({ err: error, sessionKey }, 'Redis lease check failed');
      // Keep following through a short blip; after a whole lease another instance may lead.
      if (leading && !released && Date.now() - lastRenewed >= leaseMs) lose();
    }
    if (!released) {
      timer = setTimeout(() => void tick(), leaseMs / 3);
      timer.unref();
    }
  }

  const release = () => {
    if (released) return;
    released = true;
    leases.delete(release);
    if (timer) clearTimeout(timer);
    if (leading) {
      leading = false;
      client.eval(RELEASE, 1, key, instance).catch(() => {});
    }
  };
  leases.add(release);
  void tick();
  return { release };
}
