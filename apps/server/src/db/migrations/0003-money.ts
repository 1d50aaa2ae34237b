import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // One row per checkout; the provider's session id is unique so a payment is applied once.
  await db.schema
    .createTable('payments')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('user_id', 'text', (col) => col.references('users.id').onDelete('set null'))
    .addColumn('checkout_session_id', 'text', (col) => col.notNull().unique())
    .addColumn('amount_cents', 'integer', (col) => col.notNull())
    .addColumn('currency', 'text', (col) => col.notNull())
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('completed_at', 'text')
    .execute();
  await db.schema.createIndex('payments_user_idx').on('payments').column('user_id').execute();

  // Licence keys are stored hashed; a key is redeemed once.
  await db.schema
    .createTable('licences')
    .addColumn('key_hash', 'text', (col) => col.primaryKey())
    .addColumn('plan', 'text', (col) => col.notNull())
    .addColumn('source', 'text', (col) => col.notNull())
    .addColumn('payment_id', 'text')
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('redeemed_by', 'text', (col) => col.references('users.id').onDelete('set null'))
    .addColumn('redeemed_at', 'text')
    .execute();
  await db.schema.createIndex('licences_redeemed_by_idx').on('licences').column('redeemed_by').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('licences').execute();
  await db.schema.dropTable('payments').execute();
}
