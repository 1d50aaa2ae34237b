// One account's daily Govee budget: what it sent today, and what Govee's headers said is left.
import type { GoveeBudgetMode } from '@flaglight/contract';
import { deriveBudgetMode, GOVEE_DAILY_LIMIT } from './budget.js';
import type { GoveeRateInfo } from './client.js';

const DAY_MS = 86_400_000;

function dayStart(at: number): number {
  return Math.floor(at / DAY_MS) * DAY_MS;
}

export type DayBudget = ReturnType<typeof createDayBudget>;

export function createDayBudget(now: () => number) {
  const day = {
    start: dayStart(now()),
    sent: 0,
    limit: GOVEE_DAILY_LIMIT,
    /** Govee's own count from the last answer's headers, when it came today. */
    remaining: undefined as number | undefined,
    resetAt: dayStart(now()) + DAY_MS,
  };

  function rollDay(at: number): void {
    if (at < day.start + DAY_MS) return;
    day.start = dayStart(at);
    day.sent = 0;
    day.remaining = undefined;
    day.resetAt = day.start + DAY_MS;
  }

  function remaining(): number {
    rollDay(now());
    return day.remaining ?? Math.max(0, day.limit - day.sent);
  }

  return {
    get limit(): number {
      return day.limit;
    },
    get sent(): number {
      return day.sent;
    },
    get resetAt(): number {
      return day.resetAt;
    },
    /** Govee's own count says the day is used up. */
    usedUp: (): boolean => day.remaining === 0,
    remaining,
    mode: (): GoveeBudgetMode => deriveBudgetMode(remaining(), day.limit),
    /** What an answer's headers said of the day. */
    learn(rate: GoveeRateInfo): void {
      if (rate.dayLimit !== undefined && rate.dayLimit > 0) day.limit = rate.dayLimit;
      if (rate.dayRemaining !== undefined) day.remaining = rate.dayRemaining;
      if (rate.dayResetAt !== undefined) day.resetAt = rate.dayResetAt;
    },
    /** One call goes out. */
    countSend(at: number): void {
      rollDay(at);
      day.sent += 1;
      if (day.remaining !== undefined) day.remaining = Math.max(0, day.remaining - 1);
    },
  };
}
