import type { PreferencesDocument } from '@flaglight/contract';
import type { EffectFlag } from '@flaglight/core';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';

/**
 * An event for the open streams of one account, whatever session they follow:
 * - `preferences`: the account's preferences changed (every stream);
 * - `devices`: a companion's lights or presence changed: pages read `GET /api/devices` again (every stream);
 * - `test`: play a test flag now (companion streams only: a page plays its own test).
 */
export type UserEvent =
  | { type: 'preferences'; document: PreferencesDocument }
  | { type: 'devices' }
  | { type: 'test'; data: { state: EffectFlag; requestedAt: string } };

const USER_EVENT_TYPES: ReadonlySet<string> = new Set<UserEvent['type']>(['preferences', 'devices', 'test']);

/** Whether an event goes to a stream: `test` only to a companion's (opened with a device token). */
export function reachesStream(event: UserEvent, stream: { device: boolean }): boolean {
  return event.type !== 'test' || stream.device;
}

/** The `data:` of an event's frame. */
export function userEventData(event: UserEvent): unknown {
  switch (event.type) {
    case 'preferences':
      return event.document;
    case 'devices':
      return {};
    case 'test':
      return event.data;
  }
}

/**
 * Where account-wide events meet the streams: in-process for one instance; with REDIS_URL one
 * Redis channel that every instance listens to, so a change saved on instance A reaches the
 * streams held by instance B (each instance hands it to its own streams of that account).
 */
export interface UserEvents {
  publish(userId: string, event: UserEvent): void;
  /** Returns the unsubscribe function. */
  subscribe(userId: string, handler: (event: UserEvent) => void): () => void;
  /** Resolves once this instance hears the shared channel (at once in-process). */
  ready(): Promise<void>;
  close(): Promise<void>;
}

function createLocalFanOut() {
  const handlers = new Map<string, Set<(event: UserEvent) => void>>();
  return {
    dispatch: (userId: string, event: UserEvent) => {
      for (const handler of [...(handlers.get(userId) ?? [])]) handler(event);
    },
    subscribe: (userId: string, handler: (event: UserEvent) => void) => {
      let set = handlers.get(userId);
      if (!set) {
        set = new Set();
        handlers.set(userId, set);
      }
      set.add(handler);
      return () => {
        set.delete(handler);
        if (set.size === 0 && handlers.get(userId) === set) handlers.delete(userId);
      };
    },
    clear: () => handlers.clear(),
  };
}

export function createInProcessUserEvents(): UserEvents {
  const local = createLocalFanOut();
  return {
    publish: local.dispatch,
    subscribe: local.subscribe,
    ready: async () => {},
    async close() {
      local.clear();
    },
  };
}

/** `publisher` is the Redis bus's command connection; a connection of its own listens. */
export function createRedisUserEvents(
  url: string,
  publisher: Redis,
  options: { prefix: string; logger?: Logger | undefined },
): UserEvents {
  const { prefix, logger } = options;
  const channel = `${prefix}user-events`;
  const local = createLocalFanOut();
  const sub = new Redis(url, {
    connectionName: 'flaglight-user-events',
    maxRetriesPerRequest: 1,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
  });
  sub.on('error', (error: Error) => logger?.warn({ err: error }, 'Redis user-events error'));
  sub.on('message', (name: string, text: string) => {
    if (name !== channel) return;
    try {
      const message = JSON.parse(text) as { userId?: unknown; event?: UserEvent };
      // Only this app's instances publish here; the type is checked all the same.
      const { userId, event } = message;
      if (typeof userId === 'string' && event && USER_EVENT_TYPES.has(String(event.type))) {
        local.dispatch(userId, event);
      }
    } catch {
      // Not ours: ignored.
    }
  });
  const subscribed = sub.subscribe(channel).then(
    () => undefined,
    (error: unknown) => logger?.warn({ err: error }, 'Redis user-events subscribe failed'),
  );
  return {
    publish(userId, event) {
      publisher
        .publish(channel, JSON.stringify({ userId, event }))
        .catch((error: unknown) => logger?.warn({ err: error }, 'Redis user-events publish failed'));
    },
    subscribe: local.subscribe,
    ready: () => subscribed,
    async close() {
      local.clear();
      sub.disconnect();
    },
  };
}
