import type { Transaction } from 'kysely';
import type { Db } from '../db/database.js';
import type { Database } from '../db/schema.js';

/** Marks the account's address proved (a confirmation link or a password reset), once. */
export async function markAddressVerified(trx: Transaction<Database>, userId: string, now: string) {
  await trx
    .updateTable('users')
    .set({ email_verified_at: now })
    .where('id', '=', userId)
    .where('email_verified_at', 'is', null)
    .execute();
}

/** The single-use links that prove an e-mail address (tokens stored as SHA-256 digests). */
export function createEmailVerificationsRepository(db: Db) {
  return {
    async insert(input: { tokenHash: string; userId: string; now: Date; expiresAt: Date }): Promise<void> {
      await db
        .insertInto('email_verifications')
        .values({
          token_hash: input.tokenHash,
          user_id: input.userId,
          created_at: input.now.toISOString(),
          expires_at: input.expiresAt.toISOString(),
          used_at: null,
        })
        .execute();
    },

    /** When the links sent to a user since `since` were made, oldest first (the resend limit). */
    async sentSince(userId: string, since: Date): Promise<Date[]> {
      const rows = await db
        .selectFrom('email_verifications')
        .select('created_at')
        .where('user_id', '=', userId)
        .where('created_at', '>', since.toISOString())
        .orderBy('created_at', 'asc')
        .execute();
      return rows.map((row) => new Date(row.created_at));
    },

    /**
     * Claims an unused, unexpired link made for `userId` (the signed-in account) and marks that
     * user's address verified, in one transaction; every other outstanding link of the user is
     * spent too. A link made for another account is not claimed (nor spent): it confirms only
     * when opened by its own account. Answers `confirmed`, `other-account` (a usable link of
     * another account), or `invalid` (unknown, used or expired).
     */
    async confirm(input: {
      tokenHash: string;
      userId: string;
      now: Date;
    }): Promise<'confirmed' | 'other-account' | 'invalid'> {
      const now = input.now.toISOString();
      return db.transaction().execute(async (trx) => {
        // The conditional update makes the link single use even under concurrent requests, and
        // claims it only for the account it was made for.
        const claimed = await trx
          .updateTable('email_verifications')
          .set({ used_at: now })
          .where('token_hash', '=', input.tokenHash)
          .where('user_id', '=', input.userId)
          .where('used_at', 'is', null)
          .where('expires_at', '>', now)
          .returning('user_id')
          .executeTakeFirst();
        if (!claimed) {
          const usable = await trx
            .selectFrom('email_verifications')
            .select('user_id')
            .where('token_hash', '=', input.tokenHash)
            .where('used_at', 'is', null)
            .where('expires_at', '>', now)
            .executeTakeFirst();
          return usable && usable.user_id !== input.userId ? 'other-account' : 'invalid';
        }
        await trx
          .updateTable('email_verifications')
          .set({ used_at: now })
          .where('user_id', '=', claimed.user_id)
          .where('used_at', 'is', null)
          .execute();
        await markAddressVerified(trx, claimed.user_id, now);
        return 'confirmed';
      });
    },
  };
}

export type EmailVerificationsRepository = ReturnType<typeof createEmailVerificationsRepository>;
