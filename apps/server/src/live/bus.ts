import type { BusMessage } from './types.js';

/**
 * Where followers publish and streams listen, one channel per session. In-process now; a Redis
 * pub/sub bus (DESIGN §3, REDIS_URL) implements the same interface to fan out across instances.
 */
export interface Bus {
  publish(sessionKey: number, message: BusMessage): void;
  /** Returns the unsubscribe function. */
  subscribe(sessionKey: number, handler: (message: BusMessage) => void): () => void;
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
    async close() {
      channels.clear();
    },
  };
}
