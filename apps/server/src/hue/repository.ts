import type { Selectable } from 'kysely';
import type { Db } from '../db/database.js';
import type { HueConnectionsTable } from '../db/schema.js';

export type HueConnectionRow = Selectable<HueConnectionsTable>;

export function createHueRepository(db: Db) {
  return {
    async find(userId: string): Promise<HueConnectionRow | undefined> {
      return db.selectFrom('hue_connections').selectAll().where('user_id', '=', userId).executeTakeFirst();
    },

    /** Stores fresh tokens (a new connection, or a reconnection that keeps the application key). */
    async saveTokens(input: {
      userId: string;
      accessToken: string;
      refreshToken: string;
      accessExpiresAt: Date;
      now: Date;
    }): Promise<void> {
      const values = {
        status: 'connected' as const,
        access_token: input.accessToken,
        refresh_token: input.refreshToken,
        access_expires_at: input.accessExpiresAt.toISOString(),
        updated_at: input.now.toISOString(),
      };
      await db
        .insertInto('hue_connections')
        .values({
          user_id: input.userId,
          application_key: null,
          created_at: input.now.toISOString(),
          ...values,
        })
        .onConflict((oc) => oc.column('user_id').doUpdateSet(values))
        .execute();
    },

    /**
     * Replaces the tokens after a refresh, only if the row still holds the refresh token that was
     * used (a disconnect in between wins). Returns false when nothing changed.
     */
    async replaceTokens(input: {
      userId: string;
      previousRefreshToken: string;
      accessToken: string;
      refreshToken: string;
      accessExpiresAt: Date;
      now: Date;
    }): Promise<boolean> {
      const result = await db
        .updateTable('hue_connections')
        .set({
          access_token: input.accessToken,
          refresh_token: input.refreshToken,
          access_expires_at: input.accessExpiresAt.toISOString(),
          updated_at: input.now.toISOString(),
        })
        .where('user_id', '=', input.userId)
        .where('refresh_token', '=', input.previousRefreshToken)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /** The refresh failed: the tokens go, the application key stays for the next connection. */
    async markExpired(userId: string, now: Date): Promise<void> {
      await db
        .updateTable('hue_connections')
        .set({
          status: 'expired',
          access_token: null,
          refresh_token: null,
          access_expires_at: null,
          updated_at: now.toISOString(),
        })
        .where('user_id', '=', userId)
        .execute();
    },

    async saveApplicationKey(userId: string, applicationKey: string, now: Date): Promise<boolean> {
      const result = await db
        .updateTable('hue_connections')
        .set({ application_key: applicationKey, updated_at: now.toISOString() })
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /** The bridge refused this key: it is forgotten (unless a newer one was stored meanwhile). */
    async forgetApplicationKey(userId: string, applicationKey: string, now: Date): Promise<boolean> {
      const result = await db
        .updateTable('hue_connections')
        .set({ application_key: null, updated_at: now.toISOString() })
        .where('user_id', '=', userId)
        .where('application_key', '=', applicationKey)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    async remove(userId: string): Promise<void> {
      await db.deleteFrom('hue_connections').where('user_id', '=', userId).execute();
      await db.deleteFrom('hue_oauth_states').where('user_id', '=', userId).execute();
    },

    async insertState(input: {
      stateHash: string;
      userId: string;
      redirectUri: string;
      now: Date;
      expiresAt: Date;
    }): Promise<void> {
      // Expired states of anyone are swept here, so the table stays small.
      await db.deleteFrom('hue_oauth_states').where('expires_at', '<', input.now.toISOString()).execute();
      await db
        .insertInto('hue_oauth_states')
        .values({
          state_hash: input.stateHash,
          user_id: input.userId,
          redirect_uri: input.redirectUri,
          created_at: input.now.toISOString(),
          expires_at: input.expiresAt.toISOString(),
        })
        .execute();
    },

    /** Takes a state once: a second use (or a concurrent one) finds nothing. */
    async takeState(
      stateHash: string,
    ): Promise<{ userId: string; redirectUri: string; expiresAt: string } | undefined> {
      const row = await db
        .selectFrom('hue_oauth_states')
        .selectAll()
        .where('state_hash', '=', stateHash)
        .executeTakeFirst();
      if (!row) return undefined;
      const deleted = await db
        .deleteFrom('hue_oauth_states')
        .where('state_hash', '=', stateHash)
        .executeTakeFirst();
      if (Number(deleted.numDeletedRows) !== 1) return undefined;
      return { userId: row.user_id, redirectUri: row.redirect_uri, expiresAt: row.expires_at };
    },
  };
}

export type HueRepository = ReturnType<typeof createHueRepository>;
