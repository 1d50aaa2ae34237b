// How many confirmation mails an account may have sent, and how long it waits for the next.

/** Confirmation mails per account per hour, the sign-up's included (the resend button's limit). */
export const VERIFICATION_MAILS_PER_HOUR = 4;
/**
 * And per day: whoever signed up with someone else's address must not be able to keep mailing
 * that person (4 an hour would still be 96 a day).
 */
export const VERIFICATION_MAILS_PER_DAY = 8;
const HOUR_MS = 60 * 60 * 1000;
export const DAY_MS = 24 * HOUR_MS;
const VERIFICATION_LIMITS = [
  { windowMs: HOUR_MS, max: VERIFICATION_MAILS_PER_HOUR },
  { windowMs: DAY_MS, max: VERIFICATION_MAILS_PER_DAY },
] as const;

/**
 * The wait before another confirmation mail (0: it may go now), from when the last day's went:
 * until the mail that fills each full window leaves it; the longest one counts.
 */
export function verificationWaitMs(sent: readonly Date[], now: Date): number {
  let retryAfterMs = 0;
  for (const { windowMs, max } of VERIFICATION_LIMITS) {
    const inWindow = sent.filter((at) => at.getTime() > now.getTime() - windowMs);
    const oldest = inWindow[inWindow.length - max];
    if (inWindow.length >= max && oldest) {
      retryAfterMs = Math.max(retryAfterMs, oldest.getTime() + windowMs - now.getTime());
    }
  }
  return retryAfterMs;
}

export function describeWait(seconds: number): string {
  const minutes = Math.ceil(seconds / 60);
  if (minutes < 60) return `${minutes} ${minutes === 1 ? 'minute' : 'minutes'}`;
  const hours = Math.ceil(minutes / 60);
  return `${hours} ${hours === 1 ? 'hour' : 'hours'}`;
}
