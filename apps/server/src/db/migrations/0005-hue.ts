import type { Kysely } from 'kysely';

/** Hue remote-API connections (tokens and application key sealed with APP_SECRET) and OAuth states. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('hue_connections')
    .addColumn('user_id', 'text', (col) => col.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('access_token', 'text')
    .addColumn('refresh_token', 'text')
    .addColumn('access_expires_at', 'text')
    .addColumn('application_key', 'text')
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema
    .createTable('hue_oauth_states')
    .addColumn('state_hash', 'text', (col) => col.primaryKey())
    .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('redirect_uri', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('expires_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('hue_oauth_states_user_idx').on('hue_oauth_states').column('user_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('hue_oauth_states').execute();
  await db.schema.dropTable('hue_connections').execute();
}
