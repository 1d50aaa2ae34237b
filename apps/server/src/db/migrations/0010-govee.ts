import type { Kysely } from 'kysely';

/**
 * Govee cloud API keys, one per account, sealed with APP_SECRET (govee/repository.ts). Deleted with
 * the account. Written with the schema builder so it runs on SQLite and PostgreSQL alike.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('govee_connections')
    .addColumn('user_id', 'text', (col) => col.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('api_key', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('govee_connections').execute();
}
