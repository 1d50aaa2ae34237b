import type { GoveeBudgetMode } from '@flaglight/contract';
import type { Logger } from 'pino';
import {
  GOVEE_COALESCE_MS,
  GOVEE_PER_DEVICE_PER_MINUTE,
  type GoveeKnownState,
  type GoveeLook,
} from './budget.js';
import type { GoveeCloudClient, GoveeControl, GoveeFailureKind, GoveeRateInfo } from './client.js';
import { createDayBudget, type DayBudget } from './day-budget.js';
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
  notListed: 'Govee does not list this light',
  offline: 'Govee says this light is offline: it could not be read',
  unreadable: (detail: string) => `Govee could not read this light: ${detail}`,
} as const;

/** A device as read before a session: its power, brightness and colour, or why it cannot be read. */
export type GoveeReadState =
  | { readable: true; on: boolean; state: GoveeKnownState & { on: boolean } }
  | { readable: false; reason: string };

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
 * Sends the next capability of every device that may send now (one call in flight per device);
 * returns when the soonest held-back one may go (Infinity: none waits).
 */
function sendDue(
  slots: Iterable<Slot>,
  at: number,
  perMinute: number,
  day: DayBudget,
  link: { fail(message: string): void; send(slot: Slot, capability: GoveeControl): void },
): number {
  let soonest = Infinity;
  for (const slot of slots) {
    if (slot.inFlight) continue;
    const capability = nextFor(slot);
    if (!capability) continue;
    const blocked = blockedUntil(slot, at, perMinute);
    if (blocked !== null) {
      soonest = Math.min(soonest, blocked);
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

/** One device's own state, or why it cannot be read; what it shows becomes what updates are measured against. */
async function readSlotState(
  deps: Pick<GoveeSenderDeps, 'client' | 'now'>,
  apiKey: string,
  slot: Slot | undefined,
  day: DayBudget,
): Promise<GoveeReadState> {
  if (!slot) return { readable: false, reason: GOVEE_SEND_MESSAGES.notListed };
  if (day.remaining() <= 0) return { readable: false, reason: GOVEE_SEND_MESSAGES.budgetUsed };
  const at = deps.now();
  // Counted like a control call: Govee's minute per device may hold both (the simulator's does).
  slot.sentAt.push(at);
  day.countSend(at);
  const result = await deps.client.state(apiKey, { sku: slot.sku, device: slot.device });
  day.learn(result.rate);
  if (!result.ok) return { readable: false, reason: GOVEE_SEND_MESSAGES.unreadable(result.detail) };
  const { online, on, brightness, rgb } = result.value;
  if (!online || on === undefined) return { readable: false, reason: GOVEE_SEND_MESSAGES.offline };
  slot.known = {
    on,
    ...(rgb === undefined ? {} : { rgb }),
    ...(brightness === undefined ? {} : { brightness }),
  };
  return { readable: true, on, state: { ...slot.known, on } };
}

/**
 * One account's light updates to Govee's cloud, made with that account's key only. Each device
 * keeps the look last asked for; a paced pump sends, per device, one capability at a time
 * (colour, power, brightness: only what differs from what the device is known to show), at most
 * `perDeviceMinute` calls in any minute, so a burst of flags sends only the latest look.
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
    const at = deps.now();
    slot.inFlight = true;
    slot.sentAt.push(at);
    day.countSend(at);
    void deps.client
      .control(apiKey, { sku: slot.sku, device: slot.device }, capability)
      .then((result) => {
        day.learn(result.rate);
        if (result.ok) {
          recordSent(slot, capability);
          slot.failures = 0;
        } else {
          onFailure(slot, capability, result);
        }
      })
      .catch((error: unknown) => {
        deps.logger.warn({ userId, err: error }, 'Govee control call failed');
        onFailure(slot, capability, { kind: 'unreachable', detail: 'unexpected failure' });
      })
      .finally(() => {
        slot.inFlight = false;
        pump();
      });
  }

  /** Sends what each device may send now, and wakes when the next one may. */
  function pump(): void {
    if (closed) return;
    const at = deps.now();
    if (pausedUntil > at) return wake(pausedUntil);
    const soonest = sendDue(slots.values(), at, perMinute, day, { fail, send });
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
    for (const slot of slots.values()) slot.desired = null;
  }

  return {
    sealedKey,
    /** One device's own state (a state call, counted in its minute and the day's budget). */
    readState: (id: string): Promise<GoveeReadState> => readSlotState(deps, apiKey, slots.get(id), day),
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
