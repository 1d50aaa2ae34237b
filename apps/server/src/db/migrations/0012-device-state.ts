import type { Kysely } from 'kysely';

/**
 * What a linked companion last said of itself (`PUT /api/device/state`: its bridge port, paused,
 * its stream, the flag its lights show), as one JSON object, and when. Deleted with the account.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // One column per statement: SQLite's ALTER TABLE adds one at a time.
  await db.schema.alterTable('devices').addColumn('state', 'text').execute();
  await db.schema.alterTable('devices').addColumn('state_updated_at', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('devices').dropColumn('state_updated_at').execute();
  await db.schema.alterTable('devices').dropColumn('state').execute();
}
