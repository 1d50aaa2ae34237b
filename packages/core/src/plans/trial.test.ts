import { describe, expect, test } from 'vitest';
import { buildUser } from '../../test/builders.js';
import { DAY_MS, HOUR_MS } from '../constants.js';
import {
  canAdminDelete,
  canAdminUpgrade,
  computeTrialExpiry,
  isPlanActive,
  isPrivileged,
  isTrialActive,
  isTrialActiveByAge,
  isTrialActiveByExpiry,
  shouldShowTrialExpiredModal,
  shouldShowUpgradePrompt,
  shouldShowUpgradeSection,
} from './trial.js';

const CREATED = Date.parse('2025-07-01T12:00:00.000Z');

describe('trial readings', () => {
  test('by trialExpires: active while set and in the future', () => {
    const user = buildUser({ trialExpires: '2025-07-08T12:00:00.000Z' });
    expect(isTrialActiveByExpiry(user, { now: Date.parse('2025-07-08T11:59:59Z') })).toBe(true);
    expect(isTrialActiveByExpiry(user, { now: Date.parse('2025-07-08T12:00:00Z') })).toBe(false);
    expect(isTrialActiveByExpiry(buildUser({ trialExpires: null }), { now: CREATED })).toBe(false);
    expect(isTrialActiveByExpiry(buildUser({ trialExpires: 'never' }), { now: CREATED })).toBe(false);
  });

  test('by age: active within 720 hours of createdAt', () => {
    const user = buildUser();
    expect(isTrialActiveByAge(user, { now: CREATED + 720 * HOUR_MS - 1 })).toBe(true);
    expect(isTrialActiveByAge(user, { now: CREATED + 720 * HOUR_MS })).toBe(false);
    expect(isTrialActiveByAge(buildUser({ createdAt: 'x' }), { now: CREATED })).toBe(false);
  });

  test('trialExpires decides when set; otherwise the 720 h reading', () => {
    const expired = buildUser({ trialExpires: '2025-07-02T00:00:00.000Z' });
    expect(isTrialActive(expired, { now: CREATED + 2 * DAY_MS })).toBe(false);
    expect(isTrialActive(buildUser(), { now: CREATED + 2 * DAY_MS })).toBe(true);
  });

  test('non-trial plans are always active', () => {
    const far = CREATED + 1000 * DAY_MS;
    expect(isPlanActive(buildUser({ plan: 'lifetime' }), { now: far })).toBe(true);
    expect(isPlanActive(buildUser({ plan: 'pro' }), { now: far })).toBe(true);
    expect(isPlanActive(buildUser({ plan: 'trial' }), { now: far })).toBe(false);
  });
});

describe('computeTrialExpiry', () => {
  const signupAt = Date.parse('2025-07-03T10:00:00Z');

  test('is 7 days when the next race weekend ends sooner', () => {
    const expiry = computeTrialExpiry({ signupAt, raceStarts: [Date.parse('2025-07-06T14:00:00Z')] });
    expect(expiry.getTime()).toBe(signupAt + 7 * DAY_MS);
  });

  test('is the end of the next race weekend (race + 4 h) when that is later', () => {
    const race = Date.parse('2025-07-27T13:00:00Z');
    const expiry = computeTrialExpiry({ signupAt, raceStarts: [Date.parse('2025-06-29T13:00:00Z'), race] });
    expect(expiry.getTime()).toBe(race + 4 * HOUR_MS);
  });

  test('a weekend still running at sign-up counts as the next one', () => {
    const race = Date.parse('2025-07-03T08:00:00Z');
    const expiry = computeTrialExpiry({ signupAt, raceStarts: [race, Date.parse('2025-08-30T13:00:00Z')] });
    expect(expiry.getTime()).toBe(signupAt + 7 * DAY_MS);
  });

  test('with no calendar it is 7 days', () => {
    expect(computeTrialExpiry({ signupAt: new Date(signupAt), raceStarts: [] }).getTime()).toBe(
      signupAt + 7 * DAY_MS,
    );
  });
});

describe('who sees the prompts', () => {
  const operators = ['Ops@Example.com'];
  const later = CREATED + 800 * HOUR_MS;

  test('an expired trial user sees the trial-expired modal', () => {
    expect(shouldShowTrialExpiredModal(buildUser(), { now: later })).toBe(true);
    expect(shouldShowTrialExpiredModal(buildUser(), { now: CREATED })).toBe(false);
  });

  test('admins, operators and paying users never see the modal', () => {
    expect(shouldShowTrialExpiredModal(buildUser({ isAdmin: true }), { now: later })).toBe(false);
    expect(
      shouldShowTrialExpiredModal(buildUser({ email: 'ops@example.com' }), {
        now: later,
        operatorEmails: operators,
      }),
    ).toBe(false);
    expect(shouldShowTrialExpiredModal(buildUser({ plan: 'lifetime' }), { now: later })).toBe(false);
  });

  test('trial users see the upgrade prompt, admins and operators do not', () => {
    expect(shouldShowUpgradePrompt(buildUser())).toBe(true);
    expect(shouldShowUpgradePrompt(buildUser({ isAdmin: true }))).toBe(false);
    expect(
      shouldShowUpgradePrompt(buildUser({ email: ' OPS@example.com ' }), { operatorEmails: operators }),
    ).toBe(false);
    expect(shouldShowUpgradePrompt(buildUser({ plan: 'pro' }))).toBe(false);
    expect(isPrivileged(buildUser())).toBe(false);
  });

  test('the upgrade section hides for pro only', () => {
    expect(shouldShowUpgradeSection(buildUser({ plan: 'pro' }))).toBe(false);
    expect(shouldShowUpgradeSection(buildUser({ plan: 'lifetime' }))).toBe(true);
  });

  test('admin actions: upgrade for non-admin trial users, delete for non-admins', () => {
    expect(canAdminUpgrade(buildUser())).toBe(true);
    expect(canAdminUpgrade(buildUser({ plan: 'lifetime' }))).toBe(false);
    expect(canAdminUpgrade(buildUser({ isAdmin: true }))).toBe(false);
    expect(canAdminDelete(buildUser())).toBe(true);
    expect(canAdminDelete(buildUser({ isAdmin: true }))).toBe(false);
  });
});
