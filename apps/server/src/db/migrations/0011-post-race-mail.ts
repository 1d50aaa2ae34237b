import type { Kysely } from 'kysely';

/**
 * The post-race e-mail names the session the server knows, never the client's words: a tracked
 * session records which one it is (`session_ref`: `live:<key>` or the recording a replay plays), its
 * name and start as the server had them. `post_race_mails` holds one row per account and session
 * ever mailed, so the e-mail goes out once per account and session however many tracked sessions
 * name it (its primary key decides, on SQLite and PostgreSQL alike).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('tracked_sessions').addColumn('session_ref', 'text').execute();
  await db.schema.alterTable('tracked_sessions').addColumn('session_title', 'text').execute();
  await db.schema.alterTable('tracked_sessions').addColumn('session_start', 'text').execute();
  await db.schema
    .createTable('post_race_mails')
    .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('session_ref', 'text', (col) => col.notNull())
    .addColumn('sent_at', 'text', (col) => col.notNull())
    .addPrimaryKeyConstraint('post_race_mails_pk', ['user_id', 'session_ref'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('post_race_mails').execute();
  await db.schema.alterTable('tracked_sessions').dropColumn('session_start').execute();
  await db.schema.alterTable('tracked_sessions').dropColumn('session_title').execute();
  await db.schema.alterTable('tracked_sessions').dropColumn('session_ref').execute();
}
