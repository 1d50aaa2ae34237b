import type { Db } from '../db/database.js';

/** Each account's Govee API key, as stored: sealed (govee/service.ts seals and opens it). */
export function createGoveeRepository(db: Db) {
  return {
    async findSealedKey(userId: string): Promise<string | undefined> {
      const row = await db
        .selectFrom('govee_connections')
        .select('api_key')
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return row?.api_key;
    },

    async save(userId: string, sealedKey: string, now: Date): Promise<void> {
      const at = now.toISOString();
      await db
        .insertInto('govee_connections')
        .values({ user_id: userId, api_key: sealedKey, created_at: at, updated_at: at })
        .onConflict((oc) => oc.column('user_id').doUpdateSet({ api_key: sealedKey, updated_at: at }))
        .execute();
    },

    /** Removes the key; with `onlyIf`, only while the row still holds that sealed key (a newer one wins). */
    async remove(userId: string, onlyIf?: string): Promise<void> {
      let query = db.deleteFrom('govee_connections').where('user_id', '=', userId);
      if (onlyIf !== undefined) query = query.where('api_key', '=', onlyIf);
      await query.execute();
    },
  };
}

export type GoveeRepository = ReturnType<typeof createGoveeRepository>;
