import { type Kysely, sql } from 'kysely';

// Written with the schema builder only, so it runs on SQLite and PostgreSQL alike.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('users')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('email', 'text', (col) => col.notNull().unique())
    .addColumn('password_hash', 'text', (col) => col.notNull())
    .addColumn('plan', 'text', (col) => col.notNull().check(sql`plan in ('trial', 'lifetime', 'pro')`))
    .addColumn('is_admin', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('last_login', 'text')
    .addColumn('trial_expires', 'text')
    .execute();
  await db.schema.createIndex('users_created_at_idx').on('users').column('created_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('users').execute();
}
