import type { GoveeBudgetMode } from '@flaglight/contract';
import type { Logger } from 'pino';
import {
  GOVEE_COALESCE_MS,
  GOVEE_PER_DEVICE_PER_MINUTE,
  type GoveeLook,
  type GoveeReadState,
} from './budget.js';
import type { GoveeCloudClient, GoveeControl, GoveeFailureKind, GoveeRateInfo } from './client.js';
import { createDayBudget, type DayBudget } from './day-budget.js';
import { answerReads, GOVEE_READ_MESSAGES, sendRead } from './device-read.js';
import {
  backOff,
  blockedUntil,
  createSlot,
  MINUTE_MS,
  nextFor,
  recordSent,
  type Slot,
} from './device-slot.js';
import { createWakeTimer } from './wake-timer.js';

export interface GoveeLinkStatus {
  dailyLimit: number;
  dailyRemaining: number;
  dailyResetsAt: number;
  sentToday: number;
  mode: GoveeBudgetMode;
  pendingLights: number;
  pausedUntil: number | null;
  lastError: { message: string; at: number } | null;
}

export interface GoveeSenderDeps {
  client: GoveeCloudClient;
  logger: Logger;
  now: () => number;
  /** Govee refused the key this link was made with: the service forgets it. */
  onKeyRefused: (userId: string, sealedKey: string) => void;
  perDeviceMinute?: number;
  coalesceMs?: number;
}

export const GOVEE_SEND_MESSAGES = {
  keyRefused: 'Govee refused the API key. Add your current key in Settings → Govee.',
  rateLimited: (seconds: number) =>
    `Govee asked us to slow down: waiting ${seconds} s before the next update.`,
  unreachable: 'Govee could not be reached: light updates are retried.',
  refused: (name: string, detail: string) => `Govee refused an update for ${name}: ${detail}`,
  budgetUsed: "Today's Govee budget is used up: lights are updated again after it resets (midnight UTC).",
} as const;

export type { GoveeReadState } from './budget.js';
export { GOVEE_READ_MESSAGES } from './device-read.js';

interface SendFailure {
  kind: GoveeFailureKind;
  detail: string;
  retryAfterMs?: number | undefined;
}

/** What a failed call means: the error the link shows, and what waits (the slot is changed here). */
function failureOutcome(
  slot: Slot,
  capability: GoveeControl,
  failure: SendFailure,
  at: number,
  dayUsedUp: boolean,
): { message: string; keyRefused?: true; pauseAccountUntil?: number } {
  switch (failure.kind) {
    case 'key':
    case 'bad-key':
      return { message: GOVEE_SEND_MESSAGES.keyRefused, keyRefused: true };
    case 'rate-limit': {
      const wait = failure.retryAfterMs ?? MINUTE_MS;
      const message = GOVEE_SEND_MESSAGES.rateLimited(Math.ceil(wait / 1000));
      // The day used up pauses the account; otherwise only this device's minute is over.
      if (dayUsedUp) return { message, pauseAccountUntil: at + wait };
      slot.pausedUntil = at + wait;
      return { message };
    }
    case 'refused':
      // Offline device, unsupported capability: not retried (it would fail again), the rest goes on.
      recordSent(slot, capability);
      return { message: GOVEE_SEND_MESSAGES.refused(slot.device, failure.detail) };
    default:
      backOff(slot, at);
      return { message: GOVEE_SEND_MESSAGES.unreachable };
  }
}

/**
 * Sends the next call of every device that may send now (one call in flight per device): a read
 * waiting for its turn first, else the next capability; returns when the soonest held-back one may
 * go (Infinity: none waits). Reads and controls share the device's minute.
 */
function sendDue(
  slots: Iterable<Slot>,
  at: number,
  perMinute: number,
  day: DayBudget,
  link: {
    fail(message: string): void;
    send(slot: Slot, capability: GoveeControl): void;
    read(slot: Slot): void;
  },
): number {
  let soonest = Infinity;
  for (const slot of slots) {
    if (slot.inFlight) continue;
    const reading = slot.readers.length > 0;
    const capability = reading ? null : nextFor(slot);
    if (!reading && !capability) continue;
    // A read is answered at once when the day is used up: it would wait until midnight.
    if (reading && day.remaining() <= 0) {
      answerReads(slot, { readable: false, reason: GOVEE_SEND_MESSAGES.budgetUsed });
      continue;
    }
    const blocked = blockedUntil(slot, at, perMinute);
    if (blocked !== null) {
      soonest = Math.min(soonest, blocked);
      continue;
    }
    if (capability === null) {
      link.read(slot);
      continue;
    }
    if (day.remaining() <= 0) {
      link.fail(GOVEE_SEND_MESSAGES.budgetUsed);
      soonest = Math.min(soonest, Math.max(day.resetAt, at + 1000));
      continue;
    }
    link.send(slot, capability);
  }
  return soonest;
}

/** One control call for a device: in flight until it answers, counted in its minute and the day's budget. */
function sendControl(
  deps: { client: GoveeCloudClient; now: () => number; apiKey: string; onError(error: unknown): void },
  slot: Slot,
  capability: GoveeControl,
  day: DayBudget,
  then: { failed(failure: SendFailure): void; done(): void },
): void {
  const at = deps.now();
  slot.inFlight = true;
  slot.sentAt.push(at);
  day.countSend(at);
  void deps.client
    .control(deps.apiKey, { sku: slot.sku, device: slot.device }, capability)
    .then((result) => {
      day.learn(result.rate);
      if (result.ok) {
        recordSent(slot, capability);
        slot.failures = 0;
      } else {
        then.failed(result);
      }
    })
    .catch((error: unknown) => {
      deps.onError(error);
      then.failed({ kind: 'unreachable', detail: 'unexpected failure' });
    })
    .finally(() => {
      slot.inFlight = false;
      then.done();
    });
}

/**
 * One account's light updates to Govee's cloud, made with that account's key only. Each device
 * keeps the look last asked for; a paced pump sends, per device, one capability at a time
 * (colour, power, brightness: only what differs from what the device is known to show), at most
 * `perDeviceMinute` calls in any minute, so a burst of flags sends only the latest look. A state
 * read takes its turn the same way, ahead of the device's next control call.
 * A 429 pauses (the device, or the account when the day is used up) for Retry-After.
 */
export function createGoveeLink(deps: GoveeSenderDeps, userId: string, apiKey: string, sealedKey: string) {
  const perMinute = deps.perDeviceMinute ?? GOVEE_PER_DEVICE_PER_MINUTE;
  const coalesceMs = deps.coalesceMs ?? GOVEE_COALESCE_MS;
  const slots = new Map<string, Slot>();
  const day = createDayBudget(deps.now);
  const timer = createWakeTimer(deps.now, () => pump());
  let closed = false;
  let pausedUntil = 0;
  /** The look of the last lasting flag, shown again after a fastest lap. */
  let lasting: GoveeLook | null = null;
  let restoreTimer: NodeJS.Timeout | null = null;
  let lastError: { message: string; at: number } | null = null;

  function fail(message: string): void {
    lastError = { message, at: deps.now() };
  }

  function wake(at: number): void {
    if (!closed) timer.wake(at);
  }

  function onFailure(slot: Slot, capability: GoveeControl, failure: SendFailure): void {
    const outcome = failureOutcome(slot, capability, failure, deps.now(), day.usedUp());
    fail(outcome.message);
    if (outcome.pauseAccountUntil !== undefined)
      pausedUntil = Math.max(pausedUntil, outcome.pauseAccountUntil);
    if (!outcome.keyRefused) return;
    deps.logger.info({ userId }, 'Govee refused the stored API key: forgotten');
    deps.onKeyRefused(userId, sealedKey);
    close();
  }

  function send(slot: Slot, capability: GoveeControl): void {
    const onError = (error: unknown) => deps.logger.warn({ userId, err: error }, 'Govee control call failed');
    sendControl({ client: deps.client, now: deps.now, apiKey, onError }, slot, capability, day, {
      failed: (failure) => onFailure(slot, capability, failure),
      done: pump,
    });
  }

  function read(slot: Slot): void {
    sendRead({ client: deps.client, now: deps.now, apiKey }, slot, day, pump);
  }

  /** Sends what each device may send now, and wakes when the next one may. */
  function pump(): void {
    if (closed) return;
    const at = deps.now();
    if (pausedUntil > at) return wake(pausedUntil);
    const soonest = sendDue(slots.values(), at, perMinute, day, { fail, send, read });
    if (soonest < Infinity) wake(soonest);
  }

  function setLook(ids: readonly string[], look: GoveeLook): void {
    for (const id of ids) {
      const slot = slots.get(id);
      if (slot) slot.desired = look;
    }
    wake(deps.now() + coalesceMs);
  }

  function close(): void {
    closed = true;
    timer.stop();
    if (restoreTimer) clearTimeout(restoreTimer);
    restoreTimer = null;
    for (const slot of slots.values()) {
      slot.desired = null;
      answerReads(slot, { readable: false, reason: GOVEE_READ_MESSAGES.closed });
    }
  }

  return {
    sealedKey,
    /** One device's own state: a state call in its turn (before its next control), in its minute and the day's budget. */
    readState(id: string): Promise<GoveeReadState> {
      const slot = slots.get(id);
      if (!slot) return Promise.resolve({ readable: false, reason: GOVEE_READ_MESSAGES.notListed });
      if (closed) return Promise.resolve({ readable: false, reason: GOVEE_READ_MESSAGES.closed });
      return new Promise((resolve) => {
        slot.readers.push(resolve);
        pump();
      });
    },
    /**
     * Gives each device the look it had (read before the session): replaces anything not yet sent,
     * and a fastest lap's return to the last flag is cancelled, so the room stays as it was.
     */
    restore(looks: readonly { id: string; look: GoveeLook }[]): void {
      if (restoreTimer) clearTimeout(restoreTimer);
      restoreTimer = null;
      lasting = null;
      for (const { id, look } of looks) {
        const slot = slots.get(id);
        if (slot) slot.desired = look;
      }
      wake(deps.now() + coalesceMs);
    },
    get closed() {
      return closed;
    },
    /** The devices this link may address (from the latest list). */
    setDevices(devices: readonly { sku: string; device: string }[]): void {
      for (const d of devices) if (!slots.has(d.device)) slots.set(d.device, createSlot(d));
    },
    /** Asks for a look; sent after the coalescing window, replacing anything not yet sent. */
    setLook,
    /**
     * A flag's look. A momentary one (`restoreAfterMs`, the fastest lap) goes back to the last
     * lasting look afterwards; a newer flag cancels that return.
     */
    playLook(ids: readonly string[], look: GoveeLook, restoreAfterMs: number | null): void {
      if (restoreTimer) clearTimeout(restoreTimer);
      restoreTimer = null;
      setLook(ids, look);
      if (restoreAfterMs === null) {
        lasting = look;
        return;
      }
      const back = lasting;
      if (!back || closed) return;
      restoreTimer = setTimeout(() => {
        restoreTimer = null;
        if (!closed) setLook(ids, back);
      }, restoreAfterMs);
      restoreTimer.unref();
    },
    /** The account learnt its budget from a list call. */
    learn: (rate: GoveeRateInfo): void => day.learn(rate),
    mode: (): GoveeBudgetMode => day.mode(),
    status(): GoveeLinkStatus {
      const at = deps.now();
      return {
        dailyLimit: day.limit,
        dailyRemaining: day.remaining(),
        dailyResetsAt: day.resetAt,
        sentToday: day.sent,
        mode: day.mode(),
        pendingLights: [...slots.values()].filter((s) => s.inFlight || nextFor(s) !== null).length,
        pausedUntil: pausedUntil > at ? pausedUntil : null,
        lastError,
      };
    },
    fail,
    close,
  };
}

export type GoveeLink = ReturnType<typeof createGoveeLink>;
