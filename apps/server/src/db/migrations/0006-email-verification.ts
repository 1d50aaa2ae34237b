import { normalizeEmail } from '@flaglight/core';
import { type Kysely, sql } from 'kysely';

/**
 * E-mail verification: when the address was proved, and the single-use links
 * that prove it (stored hashed, like reset links). Stored addresses are brought to the one normal
 * form (trim, NFKC, lower-case) where that does not collide with another account; a colliding or
 * unnormalizable one is left as it is: no lookup can reach it any more, and it never counts as an
 * ADMIN_EMAILS address (access.ts compares the normal form of a verified address only).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').addColumn('email_verified_at', 'text').execute();

  await db.schema
    .createTable('email_verifications')
    .addColumn('token_hash', 'text', (col) => col.primaryKey())
    .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('expires_at', 'text', (col) => col.notNull())
    .addColumn('used_at', 'text')
    .execute();
  await db.schema
    .createIndex('email_verifications_user_idx')
    .on('email_verifications')
    .columns(['user_id', 'created_at'])
    .execute();

  const { rows } = await sql<{ id: string; email: string }>`select id, email from users`.execute(db);
  const taken = new Set(rows.map((row) => row.email));
  for (const row of rows) {
    const normalized = normalizeEmail(row.email);
    if (!normalized.ok || normalized.value === row.email || taken.has(normalized.value)) continue;
    await sql`update users set email = ${normalized.value} where id = ${row.id}`.execute(db);
    taken.delete(row.email);
    taken.add(normalized.value);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('email_verifications').execute();
  await db.schema.alterTable('users').dropColumn('email_verified_at').execute();
}
