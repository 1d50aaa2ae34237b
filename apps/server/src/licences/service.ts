import type { LicenseStatus, User } from '@flaglight/core';
import type { Db } from '../db/database.js';
import { HttpError } from '../http/errors.js';
import { createPaymentsRepository } from '../payments/repository.js';
import { generateLicenceKey, hashLicenceKey } from './keys.js';
import { createLicencesRepository } from './repository.js';

export const LICENCE_MESSAGES = {
  invalidKey: 'This license key is not valid or has already been used.',
  alreadyActive: 'Your account already has lifetime access.',
} as const;

export function createLicenceService(deps: { db: Db; now: () => Date }) {
  const licences = createLicencesRepository(deps.db);
  const payments = createPaymentsRepository(deps.db);
  return {
    /** Issues a single-use key; only its digest is stored. */
    async issue(input: {
      plan: 'lifetime' | 'pro';
      source: 'payment' | 'admin';
      paymentId?: string;
    }): Promise<string> {
      const key = generateLicenceKey();
      await licences.insert({
        keyHash: hashLicenceKey(key),
        plan: input.plan,
        source: input.source,
        paymentId: input.paymentId ?? null,
        now: deps.now(),
      });
      return key;
    },

    /** Redeems a key for the user: once, in one transaction with the plan change. */
    async redeem(user: User, key: string): Promise<'lifetime' | 'pro'> {
      if (user.plan !== 'trial') throw new HttpError(409, LICENCE_MESSAGES.alreadyActive);
      const plan = await licences.redeem({
        keyHash: hashLicenceKey(key),
        userId: String(user.id),
        now: deps.now(),
      });
      if (!plan) throw new HttpError(400, LICENCE_MESSAGES.invalidKey);
      return plan;
    },

    /** SPEC §3 Licence status: any non-trial plan is an active licence. */
    async status(user: User): Promise<LicenseStatus> {
      if (user.plan === 'trial') return { hasActiveLicense: false, licenseDetails: null };
      const payment = await payments.findLatestPaid(String(user.id));
      if (payment) {
        return {
          hasActiveLicense: true,
          licenseDetails: {
            activatedAt: payment.completed_at,
            currency: payment.currency.toUpperCase(),
            amount: payment.amount_cents / 100,
          },
        };
      }
      const licence = await licences.findLatestRedeemedBy(String(user.id));
      return {
        hasActiveLicense: true,
        licenseDetails: { activatedAt: licence?.redeemed_at ?? null, currency: null, amount: null },
      };
    },
  };
}

export type LicenceService = ReturnType<typeof createLicenceService>;
