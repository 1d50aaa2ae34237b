import { RACE_WEEKEND_END_AFTER_RACE_MS, TRIAL_HOURS_MS, TRIAL_MS } from '../constants.js';
import { toEpochMs, type Instant } from '../sessions/activity.js';
import type { User } from '../types/user.js';

type PlanUser = Pick<User, 'plan' | 'createdAt' | 'trialExpires'>;

/** SPEC §4 reading one: trial active while `trialExpires` is set and in the future. */
export function isTrialActiveByExpiry(user: Pick<User, 'trialExpires'>, { now }: { now: Instant }): boolean {
  if (!user.trialExpires) return false;
  const expires = Date.parse(user.trialExpires);
  return !Number.isNaN(expires) && toEpochMs(now) < expires;
}

/** SPEC §4 reading two: trial active within 720 hours of `createdAt`. */
export function isTrialActiveByAge(user: Pick<User, 'createdAt'>, { now }: { now: Instant }): boolean {
  const created = Date.parse(user.createdAt);
  return !Number.isNaN(created) && toEpochMs(now) < created + TRIAL_HOURS_MS;
}

/** DESIGN §6: `trialExpires` decides when set; a user without it is in trial for 720 h from sign-up. */
export function isTrialActive(user: PlanUser, { now }: { now: Instant }): boolean {
  return user.trialExpires ? isTrialActiveByExpiry(user, { now }) : isTrialActiveByAge(user, { now });
}

/** SPEC §4: any non-trial plan is always active; a trial is active by the rule above. */
export function isPlanActive(user: PlanUser, { now }: { now: Instant }): boolean {
  return user.plan !== 'trial' || isTrialActive(user, { now });
}

/**
 * DESIGN §6 trial length: `trialExpires` = the later of sign-up + 7 days and the end of the
 * next race weekend (race start + 4 h). `raceStarts` are the calendar's race start times.
 */
export function computeTrialExpiry({
  signupAt,
  raceStarts,
}: {
  signupAt: Instant;
  raceStarts: readonly Instant[];
}): Date {
  const signupMs = toEpochMs(signupAt);
  const weekendEnds = raceStarts
    .map((start) => toEpochMs(start) + RACE_WEEKEND_END_AFTER_RACE_MS)
    .filter((end) => !Number.isNaN(end) && end > signupMs);
  const nextWeekendEnd = weekendEnds.length > 0 ? Math.min(...weekendEnds) : Number.NEGATIVE_INFINITY;
  return new Date(Math.max(signupMs + TRIAL_MS, nextWeekendEnd));
}

export interface PromptOptions {
  now: Instant;
  /** DESIGN §6: the operator accounts (configured, never written in code) bypass trial checks. */
  operatorEmails?: readonly string[];
}

/** True for admins and the configured operator accounts. */
export function isPrivileged(
  user: Pick<User, 'email' | 'isAdmin'>,
  operatorEmails: readonly string[] = [],
): boolean {
  const email = user.email.trim().toLowerCase();
  return user.isAdmin || operatorEmails.some((operator) => operator.trim().toLowerCase() === email);
}

/** SPEC §4: the trial-expired modal shows to a trial user whose trial is over, never to admins or operators. */
export function shouldShowTrialExpiredModal(
  user: PlanUser & Pick<User, 'email' | 'isAdmin'>,
  { now, operatorEmails }: PromptOptions,
): boolean {
  return user.plan === 'trial' && !isPrivileged(user, operatorEmails) && !isTrialActive(user, { now });
}

/** SPEC §2: trial users see the upgrade prompt, except admins and operators. */
export function shouldShowUpgradePrompt(
  user: Pick<User, 'plan' | 'email' | 'isAdmin'>,
  { operatorEmails }: { operatorEmails?: readonly string[] } = {},
): boolean {
  return user.plan === 'trial' && !isPrivileged(user, operatorEmails);
}

/** SPEC §2 Settings: the Upgrade to Pro section is hidden when the plan is pro. */
export function shouldShowUpgradeSection(user: Pick<User, 'plan'>): boolean {
  return user.plan !== 'pro';
}

/** SPEC §5: the admin upgrade action shows only for trial users who are not admins. */
export function canAdminUpgrade(user: Pick<User, 'plan' | 'isAdmin'>): boolean {
  return user.plan === 'trial' && !user.isAdmin;
}

/** SPEC §5: the admin delete action shows only for non-admins. */
export function canAdminDelete(user: Pick<User, 'isAdmin'>): boolean {
  return !user.isAdmin;
}
