import type { GoveeBudgetMode } from '@flaglight/contract';
import type { Logger } from 'pino';
import {
  applyCapability,
  deriveBudgetMode,
  GOVEE_COALESCE_MS,
  GOVEE_DAILY_LIMIT,
  GOVEE_PER_DEVICE_PER_MINUTE,
  nextCapability,
  type GoveeKnownState,
  type GoveeLook,
} from './budget.js';
import type { GoveeCloudClient, GoveeControl, GoveeFailureKind, GoveeRateInfo } from './client.js';

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
/** A failed call (timeout, Govee down) is tried again after 2 s, doubling, at most this long. */
const MAX_BACKOFF_MS = 30_000;

interface Slot {
  sku: string;
  device: string;
  /** The look the user wants now (the latest flag); null: nothing asked. */
  desired: GoveeLook | null;
  /** What we know the device shows (from our own successful calls). */
  known: GoveeKnownState;
  inFlight: boolean;
  /** When each call in the last minute went out (the per-device minute budget). */
  sentAt: number[];
  pausedUntil: number;
  failures: number;
}

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
  let timer: NodeJS.Timeout | null = null;
  let wakeAt = Infinity;
  let closed = false;
  const day = {
    start: dayStart(deps.now()),
    sent: 0,
    limit: GOVEE_DAILY_LIMIT,
    /** Govee's own count from the last answer's headers, when it came today. */
    remaining: undefined as number | undefined,
    resetAt: dayStart(deps.now()) + DAY_MS,
  };
  let pausedUntil = 0;
  /** The look of the last lasting flag, shown again after a fastest lap. */
  let lasting: GoveeLook | null = null;
  let restoreTimer: NodeJS.Timeout | null = null;
  let lastError: { message: string; at: number } | null = null;

  function dayStart(at: number): number {
    return Math.floor(at / DAY_MS) * DAY_MS;
  }

  function rollDay(at: number): void {
    if (at < day.start + DAY_MS) return;
    day.start = dayStart(at);
    day.sent = 0;
    day.remaining = undefined;
    day.resetAt = day.start + DAY_MS;
  }

  function remaining(): number {
    rollDay(deps.now());
    return day.remaining ?? Math.max(0, day.limit - day.sent);
  }

  function mode(): GoveeBudgetMode {
    return deriveBudgetMode(remaining(), day.limit);
  }

  function learn(rate: GoveeRateInfo): void {
    if (rate.dayLimit !== undefined && rate.dayLimit > 0) day.limit = rate.dayLimit;
    if (rate.dayRemaining !== undefined) day.remaining = rate.dayRemaining;
    if (rate.dayResetAt !== undefined) day.resetAt = rate.dayResetAt;
  }

  function fail(message: string): void {
    lastError = { message, at: deps.now() };
  }

  const next = (slot: Slot): GoveeControl | null => nextCapability(slot.known, slot.desired);

  const record = (slot: Slot, capability: GoveeControl): void => applyCapability(slot.known, capability);

  function wake(at: number): void {
    if (closed || at >= wakeAt) return;
    if (timer) clearTimeout(timer);
    wakeAt = at;
    timer = setTimeout(
      () => {
        timer = null;
        wakeAt = Infinity;
        pump();
      },
      Math.max(0, at - deps.now()),
    );
    timer.unref();
  }

  function onFailure(
    slot: Slot,
    capability: GoveeControl,
    kind: GoveeFailureKind,
    detail: string,
    retryAfterMs?: number,
  ): void {
    const at = deps.now();
    switch (kind) {
      case 'key':
      case 'bad-key':
        fail(GOVEE_SEND_MESSAGES.keyRefused);
        deps.logger.info({ userId }, 'Govee refused the stored API key: forgotten');
        deps.onKeyRefused(userId, sealedKey);
        close();
        return;
      case 'rate-limit': {
        const wait = retryAfterMs ?? MINUTE_MS;
        fail(GOVEE_SEND_MESSAGES.rateLimited(Math.ceil(wait / 1000)));
        // The day used up pauses the account; otherwise only this device's minute is over.
        if (day.remaining === 0) pausedUntil = Math.max(pausedUntil, at + wait);
        else slot.pausedUntil = at + wait;
        return;
      }
      case 'refused':
        // Offline device, unsupported capability: not retried (it would fail again), the rest goes on.
        fail(GOVEE_SEND_MESSAGES.refused(slot.device, detail));
        record(slot, capability);
        return;
      default:
        slot.failures += 1;
        slot.pausedUntil = at + Math.min(MAX_BACKOFF_MS, 2000 * 2 ** (slot.failures - 1));
        fail(GOVEE_SEND_MESSAGES.unreachable);
    }
  }

  function send(slot: Slot, capability: GoveeControl): void {
    const at = deps.now();
    slot.inFlight = true;
    slot.sentAt.push(at);
    rollDay(at);
    day.sent += 1;
    if (day.remaining !== undefined) day.remaining = Math.max(0, day.remaining - 1);
    void deps.client
      .control(apiKey, { sku: slot.sku, device: slot.device }, capability)
      .then((result) => {
        learn(result.rate);
        if (result.ok) {
          record(slot, capability);
          slot.failures = 0;
        } else {
          onFailure(slot, capability, result.kind, result.detail, result.retryAfterMs);
        }
      })
      .catch((error: unknown) => {
        deps.logger.warn({ userId, err: error }, 'Govee control call failed');
        onFailure(slot, capability, 'unreachable', 'unexpected failure');
      })
      .finally(() => {
        slot.inFlight = false;
        pump();
      });
  }

  function pump(): void {
    if (closed) return;
    const at = deps.now();
    if (pausedUntil > at) return wake(pausedUntil);
    let soonest = Infinity;
    for (const slot of slots.values()) {
      if (slot.inFlight) continue;
      const capability = next(slot);
      if (!capability) continue;
      while (slot.sentAt.length > 0 && slot.sentAt[0]! <= at - MINUTE_MS) slot.sentAt.shift();
      if (slot.pausedUntil > at) {
        soonest = Math.min(soonest, slot.pausedUntil);
        continue;
      }
      if (slot.sentAt.length >= perMinute) {
        soonest = Math.min(soonest, slot.sentAt[0]! + MINUTE_MS + 5);
        continue;
      }
      if (remaining() <= 0) {
        fail(GOVEE_SEND_MESSAGES.budgetUsed);
        soonest = Math.min(soonest, Math.max(day.resetAt, at + 1000));
        continue;
      }
      send(slot, capability);
    }
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
    if (timer) clearTimeout(timer);
    if (restoreTimer) clearTimeout(restoreTimer);
    timer = null;
    restoreTimer = null;
    for (const slot of slots.values()) slot.desired = null;
  }

  return {
    sealedKey,
    get closed() {
      return closed;
    },
    /** The devices this link may address (from the latest list). */
    setDevices(devices: readonly { sku: string; device: string }[]): void {
      for (const d of devices)
        if (!slots.has(d.device))
          slots.set(d.device, {
            sku: d.sku,
            device: d.device,
            desired: null,
            known: {},
            inFlight: false,
            sentAt: [],
            pausedUntil: 0,
            failures: 0,
          });
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
    learn,
    mode,
    status(): GoveeLinkStatus {
      const at = deps.now();
      return {
        dailyLimit: day.limit,
        dailyRemaining: remaining(),
        dailyResetsAt: day.resetAt,
        sentToday: day.sent,
        mode: mode(),
        pendingLights: [...slots.values()].filter((s) => s.inFlight || next(s) !== null).length,
        pausedUntil: pausedUntil > at ? pausedUntil : null,
        lastError,
      };
    },
    fail,
    close,
  };
}

export type GoveeLink = ReturnType<typeof createGoveeLink>;
