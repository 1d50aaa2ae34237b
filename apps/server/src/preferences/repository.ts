import type { Selectable } from 'kysely';
import type { Db } from '../db/database.js';
import type { UserPreferencesTable } from '../db/schema.js';

export type UserPreferencesRow = Selectable<UserPreferencesTable>;

export function createPreferencesRepository(db: Db) {
  return {
    async find(userId: string): Promise<UserPreferencesRow | undefined> {
      return db.selectFrom('user_preferences').selectAll().where('user_id', '=', userId).executeTakeFirst();
    },

    /**
     * Stores `data` as version `baseVersion + 1`, only if the stored version is still `baseVersion`
     * (0: no row yet). One conditional statement, so of two concurrent writers on the same version
     * exactly one wins. Returns the new row, or undefined when the version was stale.
     */
    async write(input: {
      userId: string;
      baseVersion: number;
      data: string;
      now: Date;
    }): Promise<UserPreferencesRow | undefined> {
      const row: UserPreferencesRow = {
        user_id: input.userId,
        version: input.baseVersion + 1,
        data: input.data,
        updated_at: input.now.toISOString(),
      };
      if (input.baseVersion === 0) {
        const inserted = await db
          .insertInto('user_preferences')
          .values(row)
          .onConflict((oc) => oc.column('user_id').doNothing())
          .returning('user_id')
          .executeTakeFirst();
        return inserted ? row : undefined;
      }
      const updated = await db
        .updateTable('user_preferences')
        .set({ version: row.version, data: row.data, updated_at: row.updated_at })
        .where('user_id', '=', input.userId)
        .where('version', '=', input.baseVersion)
        .returning('user_id')
        .executeTakeFirst();
      return updated ? row : undefined;
    },
  };
}

export type PreferencesRepository = ReturnType<typeof createPreferencesRepository>;
