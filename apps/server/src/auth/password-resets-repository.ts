import type { Selectable } from 'kysely';
import type { Db } from '../db/database.js';
import type { PasswordResetsTable } from '../db/schema.js';

export type PasswordResetRow = Selectable<PasswordResetsTable>;

export function createPasswordResetsRepository(db: Db) {
  return {
    async insert(input: { tokenHash: string; userId: string; now: Date; expiresAt: Date }): Promise<void> {
      const row: PasswordResetRow = {
        token_hash: input.tokenHash,
        user_id: input.userId,
        created_at: input.now.toISOString(),
        expires_at: input.expiresAt.toISOString(),
        used_at: null,
      };
      await db.insertInto('password_resets').values(row).execute();
    },

    /**
     * Claims an unused, unexpired reset token, sets the new password and ends the user's sessions,
     * in one transaction. Returns the user's id, or undefined when the token cannot be claimed.
     */
    async resetPassword(input: {
      tokenHash: string;
      now: Date;
      passwordHash: string;
    }): Promise<string | undefined> {
      const now = input.now.toISOString();
      return db.transaction().execute(async (trx) => {
        // The conditional update makes the token single use even under concurrent requests.
        const claimed = await trx
          .updateTable('password_resets')
          .set({ used_at: now })
          .where('token_hash', '=', input.tokenHash)
          .where('used_at', 'is', null)
          .where('expires_at', '>', now)
          .returning('user_id')
          .executeTakeFirst();
        if (!claimed) return undefined;
        await trx
          .updateTable('users')
          .set({ password_hash: input.passwordHash })
          .where('id', '=', claimed.user_id)
          .execute();
        // A new password ends every session opened with the old one.
        await trx.deleteFrom('auth_sessions').where('user_id', '=', claimed.user_id).execute();
        return claimed.user_id;
      });
    },
  };
}

export type PasswordResetsRepository = ReturnType<typeof createPasswordResetsRepository>;
