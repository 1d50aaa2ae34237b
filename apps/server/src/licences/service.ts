import type { LicenseStatus, User } from '@flaglight/core';
import type { Db } from '../db/database.js';
import { HttpError } from '../http/errors.js';
import { generateLicenceKey, hashLicenceKey } from './keys.js';

export const LICENCE_MESSAGES = {
  invalidKey: 'This license key is not valid or has already been used.',
  alreadyActive: 'Your account already has lifetime access.',
} as const;

export function createLicenceService(deps: { db: Db; now: () => Date }) {
  return {
    /** Issues a single-use key; only its digest is stored. */
    async issue(input: {
      plan: 'lifetime' | 'pro';
      source: 'payment' | 'admin';
      paymentId?: string;
    }): Promise<string> {
      const key = generateLicenceKey();
      await deps.db
        .insertInto('licences')
        .values({
          key_hash: hashLicenceKey(key),
          plan: input.plan,
          source: input.source,
          payment_id: input.paymentId ?? null,
          created_at: deps.now().toISOString(),
          redeemed_by: null,
          redeemed_at: null,
        })
        .execute();
      return key;
    },

    /** Redeems a key for the user: once, in one transaction with the plan change. */
    async redeem(user: User, key: string): Promise<'lifetime' | 'pro'> {
      if (user.plan !== 'trial') throw new HttpError(409, LICENCE_MESSAGES.alreadyActive);
      const now = deps.now().toISOString();
      return deps.db.transaction().execute(async (trx) => {
        const claimed = await trx
          .updateTable('licences')
          .set({ redeemed_by: String(user.id), redeemed_at: now })
          .where('key_hash', '=', hashLicenceKey(key))
          .where('redeemed_by', 'is', null)
          .where('redeemed_at', 'is', null)
          .returning('plan')
          .executeTakeFirst();
        if (!claimed) throw new HttpError(400, LICENCE_MESSAGES.invalidKey);
        await trx
          .updateTable('users')
          .set({ plan: claimed.plan })
          .where('id', '=', String(user.id))
          .execute();
        return claimed.plan;
      });
    },

    /** SPEC §3 Licence status: any non-trial plan is an active licence. */
    async status(user: User): Promise<LicenseStatus> {
      if (user.plan === 'trial') return { hasActiveLicense: false, licenseDetails: null };
      const payment = await deps.db
        .selectFrom('payments')
        .select(['completed_at', 'currency', 'amount_cents'])
        .where('user_id', '=', String(user.id))
        .where('status', '=', 'paid')
        .orderBy('completed_at', 'desc')
        .executeTakeFirst();
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
      const licence = await deps.db
        .selectFrom('licences')
        .select(['redeemed_at'])
        .where('redeemed_by', '=', String(user.id))
        .orderBy('redeemed_at', 'desc')
        .executeTakeFirst();
      return {
        hasActiveLicense: true,
        licenseDetails: { activatedAt: licence?.redeemed_at ?? null, currency: null, amount: null },
      };
    },
  };
}

export type LicenceService = ReturnType<typeof createLicenceService>;
