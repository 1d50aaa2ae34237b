import { sql, type Selectable } from 'kysely';
import type { Db } from '../db/database.js';
import type { PasswordResetsTable } from '../db/schema.js';
import { markAddressVerified } from './email-verifications-repository.js';

export type PasswordResetRow = Selectable<PasswordResetsTable>;

export function createPasswordResetsRepository(db: Db) {
  return {
    /**
     * Stores a reset link for the account of a (normalized) address, if there is one, in a single
     * statement that reads and writes the same way whether or not the account exists: the answer's
     * timing must not tell. True when a link was stored.
     */
    async insertForEmail(input: {
      email: string;
      tokenHash: string;
      now: Date;
      expiresAt: Date;
    }): Promise<boolean> {
      const text = (value: string) => sql<string>`cast(${value} as text)`;
      const result = await db
        .insertInto('password_resets')
        .columns(['token_hash', 'user_id', 'created_at', 'expires_at'])
        .expression(
          db
            .selectFrom('users')
            .select([
              text(input.tokenHash).as('token_hash'),
              'id',
              text(input.now.toISOString()).as('created_at'),
              text(input.expiresAt.toISOString()).as('expires_at'),
            ])
            .where('email', '=', input.email),
        )
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
    },

    /**
     * Claims an unused, unexpired reset token, sets the new password, marks the address verified
     * (the link proved the mailbox), spends every other reset link of the account and ends all its
     * sessions, in one transaction. Returns the user's id, or undefined when the token cannot be
     * claimed.
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
        // Every other link sent before this reset stops working.
        await trx
          .updateTable('password_resets')
          .set({ used_at: now })
          .where('user_id', '=', claimed.user_id)
          .where('used_at', 'is', null)
          .execute();
        await trx
          .updateTable('users')
          .set({ password_hash: input.passwordHash })
          .where('id', '=', claimed.user_id)
          .execute();
        await markAddressVerified(trx, claimed.user_id, now);
        // A new password ends every session opened with the old one: whoever held the account
        // before (a squatter on someone else's address) is signed out everywhere.
        await trx.deleteFrom('auth_sessions').where('user_id', '=', claimed.user_id).execute();
        return claimed.user_id;
      });
    },
  };
}

export type PasswordResetsRepository = ReturnType<typeof createPasswordResetsRepository>;
