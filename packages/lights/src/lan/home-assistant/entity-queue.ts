import type { Timers } from '../../timers.js';
import type { HomeAssistantCall } from './looks.js';

interface Slot {
  inFlight: boolean;
  next: { call: HomeAssistantCall; done: () => void } | null;
  lastStartMs: number;
  timer: unknown;
}

export interface EntityQueue {
  /** Queues the entity's newest call: it replaces the one still waiting (newest look wins). */
  submit(entityId: string, call: HomeAssistantCall): Promise<void>;
  /** A newer call waits behind the one in flight (a retry of the older one would be wasted). */
  hasWaiting(entityId: string): boolean;
  /** Drops every waiting call; their promises resolve. Calls in flight finish. */
  dropWaiting(): void;
}

/**
 * Per entity: one call in flight at most, `paceMs` between the starts of two calls, and only the
 * newest call waits. A Zigbee bulb takes a few commands a second and Home Assistant answers a call
 * only once the device did, so a second call in flight would only queue inside Home Assistant.
 */
export function createEntityQueue(options: {
  timers: Timers;
  paceMs: number;
  /** False while Home Assistant is unreachable or the token was refused: calls wait. */
  usable: () => boolean;
  send: (entityId: string, call: HomeAssistantCall) => Promise<void>;
}): EntityQueue {
  const { timers, paceMs } = options;
  const slots = new Map<string, Slot>();

  function pump(entityId: string): void {
    const slot = slots.get(entityId);
    if (!slot || slot.inFlight || !slot.next || slot.timer !== null || !options.usable()) return;
    const wait = slot.lastStartMs + paceMs - timers.now();
    if (wait > 0) {
      slot.timer = timers.setTimeout(() => {
        slot.timer = null;
        pump(entityId);
      }, wait);
      return;
    }
    const { call, done } = slot.next;
    slot.next = null;
    slot.inFlight = true;
    slot.lastStartMs = timers.now();
    void options.send(entityId, call).finally(() => {
      slot.inFlight = false;
      done();
      pump(entityId);
    });
  }

  return {
    submit(entityId, call) {
      let slot = slots.get(entityId);
      if (!slot)
        slots.set(entityId, (slot = { inFlight: false, next: null, lastStartMs: -Infinity, timer: null }));
      const replaced = slot.next;
      const done = new Promise<void>((resolve) => {
        slot.next = { call, done: resolve };
      });
      replaced?.done();
      pump(entityId);
      return done;
    },
    hasWaiting: (entityId) => slots.get(entityId)?.next != null,
    dropWaiting() {
      for (const slot of slots.values()) {
        timers.clearTimeout(slot.timer);
        slot.timer = null;
        const waiting = slot.next;
        slot.next = null;
        waiting?.done();
      }
    },
  };
}
