import type { BusMessage, FlagEvent, StatusEventData } from './types.js';

/** What a session's channel held before this instance started listening to it. */
export interface RecentState {
  /** Recent flag events, oldest first (at most the hub's ring size). */
  events: FlagEvent[];
  status: StatusEventData | null;
}

/** The right to follow a session upstream; `release` gives it up (another instance may take it). */
export interface Lease {
  release(): void;
}

export interface LeadHandlers {
  /** This instance now follows the session: start polling (or the push). */
  onAcquired(): void;
  /** Another instance took over (or Redis was unreachable for a whole lease): stop at once. */
  onLost(): void;
}

/**
 * Where followers publish and streams listen, one channel per session (DESIGN §1, §3). In-process
 * for a single instance; with REDIS_URL the Redis bus (redis.ts) fans out across instances, keeps
 * the recent events for `Last-Event-ID` resume on any instance, and elects one leader per session
 * so that only one instance polls OpenF1 for it.
 */
export interface Bus {
  publish(sessionKey: number, message: BusMessage): void;
  /** Returns the unsubscribe function. */
  subscribe(sessionKey: number, handler: (message: BusMessage) => void): () => void;
  /** Events and status other instances published before this one listened (none in-process). */
  recent(sessionKey: number): Promise<RecentState>;
  /** Asks to be the one follower of a session; `onAcquired` may run at once or later. */
  lead(sessionKey: number, handlers: LeadHandlers): Lease;
  close(): Promise<void>;
}

export function createInProcessBus(): Bus {
  const channels = new Map<number, Set<(message: BusMessage) => void>>();
  return {
    publish(sessionKey, message) {
      const handlers = channels.get(sessionKey);
      if (!handlers) return;
      for (const handler of [...handlers]) handler(message);
    },
    subscribe(sessionKey, handler) {
      let handlers = channels.get(sessionKey);
      if (!handlers) {
        handlers = new Set();
        channels.set(sessionKey, handlers);
      }
      handlers.add(handler);
      return () => {
        handlers.delete(handler);
        if (handlers.size === 0 && channels.get(sessionKey) === handlers) channels.delete(sessionKey);
      };
    },
    // One process: the hub's own ring is the whole history.
    recent: async () => ({ events: [], status: null }),
    // One process: always the leader.
    lead(_sessionKey, handlers) {
      handlers.onAcquired();
      return { release() {} };
    },
    async close() {
      channels.clear();
    },
  };
}
