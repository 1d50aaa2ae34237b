import type { Kysely } from 'kysely';

/**
 * The LAN lights a linked companion last reported (`PUT /api/device/lights`), as one JSON array,
 * and when. Cleared when the companion is unlinked; deleted with the account (devices cascade).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // One column per statement: SQLite's ALTER TABLE adds one at a time.
  await db.schema.alterTable('devices').addColumn('lights', 'text').execute();
  await db.schema.alterTable('devices').addColumn('lights_updated_at', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('devices').dropColumn('lights_updated_at').execute();
  await db.schema.alterTable('devices').dropColumn('lights').execute();
}
