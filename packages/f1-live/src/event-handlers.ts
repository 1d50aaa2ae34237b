import type { F1LiveLogger } from './failure.js';
import type { F1LiveEvents } from './types.js';

export interface F1LiveEventHandlers {
  /** Calls every handler of `event`; one that throws is logged and the others still run. */
  emit: <K extends keyof F1LiveEvents>(event: K, payload: F1LiveEvents[K]) => void;
  on: <K extends keyof F1LiveEvents>(event: K, handler: (payload: F1LiveEvents[K]) => void) => () => void;
}

/** The client's event handlers, by event name. */
export function createEventHandlers(logger: F1LiveLogger): F1LiveEventHandlers {
  const handlers = new Map<keyof F1LiveEvents, Set<(payload: never) => void>>();
  return {
    emit(event, payload) {
      for (const handler of handlers.get(event) ?? []) {
        try {
          (handler as (value: typeof payload) => void)(payload);
        } catch (error) {
          logger.error({ event, err: error }, 'f1-live: an event handler threw');
        }
      }
    },
    on(event, handler) {
      const set = handlers.get(event) ?? new Set();
      handlers.set(event, set);
      set.add(handler);
      return () => {
        set.delete(handler);
      };
    },
  };
}
