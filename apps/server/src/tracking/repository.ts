import crypto from 'node:crypto';
import type { Selectable } from 'kysely';
import type { Db } from '../db/database.js';
import type { TrackedSessionsTable } from '../db/schema.js';

export type TrackedSessionRow = Selectable<TrackedSessionsTable>;

export function createTrackedSessionsRepository(db: Db) {
  return {
    /** Starts tracking a session for the user; returns the new row's id. */
    async insert(input: { userId: string; sessionData: string; now: Date }): Promise<string> {
      const row: TrackedSessionRow = {
        id: crypto.randomUUID(),
        user_id: input.userId,
        session_data: input.sessionData,
        started_at: input.now.toISOString(),
        ended_at: null,
        email_sent_at: null,
      };
      await db.insertInto('tracked_sessions').values(row).execute();
      return row.id;
    },

    async findForUser(id: string, userId: string): Promise<TrackedSessionRow | undefined> {
      return db
        .selectFrom('tracked_sessions')
        .selectAll()
        .where('id', '=', id)
        .where('user_id', '=', userId)
        .executeTakeFirst();
    },

    /** Records the end of a session; a session already ended keeps its first end. */
    async markEnded(id: string, now: Date): Promise<void> {
      await db
        .updateTable('tracked_sessions')
        .set({ ended_at: now.toISOString() })
        .where('id', '=', id)
        .where('ended_at', 'is', null)
        .execute();
    },

    /** Claims the session's post-race e-mail; true for the one caller that should send it. */
    async claimEmail(id: string, now: Date): Promise<boolean> {
      const claimed = await db
        .updateTable('tracked_sessions')
        .set({ email_sent_at: now.toISOString() })
        .where('id', '=', id)
        .where('email_sent_at', 'is', null)
        .executeTakeFirst();
      return Number(claimed.numUpdatedRows) === 1;
    },
  };
}

export type TrackedSessionsRepository = ReturnType<typeof createTrackedSessionsRepository>;
