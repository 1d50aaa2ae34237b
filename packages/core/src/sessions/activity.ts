import {
  CONNECT_WINDOW_AFTER_MS,
  CONNECT_WINDOW_BEFORE_DELAYED_MS,
  CONNECT_WINDOW_BEFORE_MS,
  LIVE_SESSION_MS,
  MINUTE_MS,
  SESSION_START_SLOT_MINUTES,
} from '../constants.js';

/** A point in time: epoch ms or a Date. */
export type Instant = number | Date;

/** Converts an instant to epoch ms. */
export function toEpochMs(instant: Instant): number {
  return typeof instant === 'number' ? instant : instant.getTime();
}

/** The state of the session override (SPEC §4): while set, sessions are always active. */
export interface SessionOverride {
  active: boolean;
}

export const NO_OVERRIDE: SessionOverride = { active: false };

/** Sets the override. */
export function setSessionOverride(): SessionOverride {
  return { active: true };
}

/** Clears the override. */
export function clearSessionOverride(): SessionOverride {
  return { active: false };
}

export interface ActivityOptions {
  now: Instant;
  override?: SessionOverride;
}

/** SPEC §4: a session is live from its start to 180 minutes later (or always, while overridden). */
export function isSessionLive(start: Instant, { now, override = NO_OVERRIDE }: ActivityOptions): boolean {
  if (override.active) return true;
  const startMs = toEpochMs(start);
  const nowMs = toEpochMs(now);
  return nowMs >= startMs && nowMs < startMs + LIVE_SESSION_MS;
}

/**
 * SPEC §4: connecting is allowed from 5 minutes before the start (24 hours before in the
 * delayed case) to 4 hours after it (or always, while overridden).
 */
export function isWithinConnectWindow(
  start: Instant,
  { now, delayed = false, override = NO_OVERRIDE }: ActivityOptions & { delayed?: boolean },
): boolean {
  if (override.active) return true;
  const startMs = toEpochMs(start);
  const nowMs = toEpochMs(now);
  const before = delayed ? CONNECT_WINDOW_BEFORE_DELAYED_MS : CONNECT_WINDOW_BEFORE_MS;
  return nowMs >= startMs - before && nowMs <= startMs + CONNECT_WINDOW_AFTER_MS;
}

/** SPEC §2: sessions start on the hour and half hour; the next such start strictly after now. */
export function getNextSessionStart({ now }: { now: Instant }): number {
  const slotMs = SESSION_START_SLOT_MINUTES * MINUTE_MS;
  const nowMs = toEpochMs(now);
  return (Math.floor(nowMs / slotMs) + 1) * slotMs;
}

export interface Countdown {
  totalMs: number;
  hours: number;
  minutes: number;
  seconds: number;
}

/** Time left until `target`, never negative, split into hours, minutes and seconds. */
export function getCountdown(target: Instant, { now }: { now: Instant }): Countdown {
  const totalMs = Math.max(0, toEpochMs(target) - toEpochMs(now));
  const totalSeconds = Math.floor(totalMs / 1000);
  return {
    totalMs,
    hours: Math.floor(totalSeconds / 3600),
    minutes: Math.floor((totalSeconds % 3600) / 60),
    seconds: totalSeconds % 60,
  };
}

/** Formats a countdown as `HH:MM:SS` (hours grow past 99 when needed). */
export function formatCountdown(countdown: Countdown): string {
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${pad(countdown.hours)}:${pad(countdown.minutes)}:${pad(countdown.seconds)}`;
}
