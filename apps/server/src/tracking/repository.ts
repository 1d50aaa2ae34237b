import crypto from 'node:crypto';
import type { Selectable } from 'kysely';
import type { Db } from '../db/database.js';
import type { TrackedSessionsTable } from '../db/schema.js';
import type { KnownSession } from './known-session.js';

export type TrackedSessionRow = Selectable<TrackedSessionsTable>;

export function createTrackedSessionsRepository(db: Db) {
  return {
    /** Starts tracking a session for the user, with the session the server knows (or null); returns the new row's id. */
    async insert(input: {
      userId: string;
      sessionData: string;
      known: KnownSession | null;
      now: Date;
    }): Promise<string> {
      const row: TrackedSessionRow = {
        id: crypto.randomUUID(),
        user_id: input.userId,
        session_data: input.sessionData,
        started_at: input.now.toISOString(),
        ended_at: null,
        email_sent_at: null,
        session_ref: input.known?.ref ?? null,
        session_title: input.known?.title ?? null,
        session_start: input.known?.start ?? null,
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

    /**
     * Claims the post-race e-mail of a session for an account: true for the one caller that should
     * send it, whichever of the account's tracked sessions of it ends first, however often.
     */
    async claimEmail(row: TrackedSessionRow & { session_ref: string }, now: Date): Promise<boolean> {
      const at = now.toISOString();
      const claimed = await db
        .insertInto('post_race_mails')
        .values({ user_id: row.user_id, session_ref: row.session_ref, sent_at: at })
        .onConflict((oc) => oc.columns(['user_id', 'session_ref']).doNothing())
        .executeTakeFirst();
      if (Number(claimed.numInsertedOrUpdatedRows ?? 0) !== 1) return false;
      await db.updateTable('tracked_sessions').set({ email_sent_at: at }).where('id', '=', row.id).execute();
      return true;
    },
  };
}

export type TrackedSessionsRepository = ReturnType<typeof createTrackedSessionsRepository>;
