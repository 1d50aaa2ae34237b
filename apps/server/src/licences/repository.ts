import type { Selectable } from 'kysely';
import type { Db } from '../db/database.js';
import type { LicencesTable } from '../db/schema.js';

export type LicenceRow = Selectable<LicencesTable>;

export function createLicencesRepository(db: Db) {
  return {
    /** Stores an unredeemed licence by its key's digest. */
    async insert(input: {
      keyHash: string;
      plan: LicenceRow['plan'];
      source: LicenceRow['source'];
      paymentId: string | null;
      now: Date;
    }): Promise<void> {
      const row: LicenceRow = {
        key_hash: input.keyHash,
        plan: input.plan,
        source: input.source,
        payment_id: input.paymentId,
        created_at: input.now.toISOString(),
        redeemed_by: null,
        redeemed_at: null,
      };
      await db.insertInto('licences').values(row).execute();
    },

    /**
     * Claims an unredeemed key for the user and gives the user its plan, in one transaction.
     * Returns the plan, or undefined when the key is unknown or already redeemed.
     */
    async redeem(input: {
      keyHash: string;
      userId: string;
      now: Date;
    }): Promise<LicenceRow['plan'] | undefined> {
      const now = input.now.toISOString();
      return db.transaction().execute(async (trx) => {
        const claimed = await trx
          .updateTable('licences')
          .set({ redeemed_by: input.userId, redeemed_at: now })
          .where('key_hash', '=', input.keyHash)
          .where('redeemed_by', 'is', null)
          .where('redeemed_at', 'is', null)
          .returning('plan')
          .executeTakeFirst();
        if (!claimed) return undefined;
        await trx.updateTable('users').set({ plan: claimed.plan }).where('id', '=', input.userId).execute();
        return claimed.plan;
      });
    },

    /** The licence the user redeemed last. */
    async findLatestRedeemedBy(userId: string): Promise<Pick<LicenceRow, 'redeemed_at'> | undefined> {
      return db
        .selectFrom('licences')
        .select(['redeemed_at'])
        .where('redeemed_by', '=', userId)
        .orderBy('redeemed_at', 'desc')
        .executeTakeFirst();
    },
  };
}

export type LicencesRepository = ReturnType<typeof createLicencesRepository>;
