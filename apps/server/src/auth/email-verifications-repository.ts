import type { Db } from '../db/database.js';

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
     * Claims an unused, unexpired link and marks its user's address verified, in one transaction;
     * every other outstanding link of the user is spent too. Returns the user's id, or undefined
     * when the link cannot be claimed (unknown, used or expired).
     */
    async confirm(input: { tokenHash: string; now: Date }): Promise<string | undefined> {
      const now = input.now.toISOString();
      return db.transaction().execute(async (trx) => {
        // The conditional update makes the link single use even under concurrent requests.
        const claimed = await trx
          .updateTable('email_verifications')
          .set({ used_at: now })
          .where('token_hash', '=', input.tokenHash)
          .where('used_at', 'is', null)
          .where('expires_at', '>', now)
          .returning('user_id')
          .executeTakeFirst();
        if (!claimed) return undefined;
        await trx
          .updateTable('email_verifications')
          .set({ used_at: now })
          .where('user_id', '=', claimed.user_id)
          .where('used_at', 'is', null)
          .execute();
        await trx
          .updateTable('users')
          .set({ email_verified_at: now })
          .where('id', '=', claimed.user_id)
          .where('email_verified_at', 'is', null)
          .execute();
        return claimed.user_id;
      });
    },
  };
}

export type EmailVerificationsRepository = ReturnType<typeof createEmailVerificationsRepository>;
