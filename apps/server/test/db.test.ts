import { Migrator, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { migrateToLatest } from '../src/db/database.js';
import { migrations } from '../src/db/migrations/index.js';
import {
  buildTestApp,
  TEST_DATABASE_URL,
  whileNoSchemaIsDropped,
  type Dialect,
  type TestApp,
} from './helper.js';

function dbSuite(dialect: Dialect) {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ dialect });
  });
  afterAll(() => t.close());

  test('migrations create the users table with every User field of SPEC §3', async () => {
    const now = new Date('2026-11-21T12:00:00.000Z').toISOString();
    await t.context.db
      .insertInto('users')
      .values({
        id: 'u1',
        email: 'fan@example.com',
        password_hash: 'x',
        plan: 'trial',
        created_at: now,
        last_login: null,
        trial_expires: '2026-11-28T12:00:00.000Z',
      })
      .execute();
    const row = await t.context.db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', 'u1')
      .executeTakeFirstOrThrow();
    expect(row).toEqual({
      id: 'u1',
      email: 'fan@example.com',
      password_hash: 'x',
      plan: 'trial',
      is_admin: 0,
      created_at: now,
      last_login: null,
      trial_expires: '2026-11-28T12:00:00.000Z',
      email_verified_at: null,
    });
  });

  test('e-mails are unique', async () => {
    const row = {
      id: 'u2',
      email: 'dup@example.com',
      password_hash: 'x',
      plan: 'trial' as const,
      created_at: 'now',
    };
    await t.context.db.insertInto('users').values(row).execute();
    await expect(
      t.context.db
        .insertInto('users')
        .values({ ...row, id: 'u3' })
        .execute(),
    ).rejects.toThrow();
  });

  test('the plan is one of trial, lifetime, pro', async () => {
    await expect(
      sql`insert into users (id, email, password_hash, plan, created_at) values ('u4', 'p@example.com', 'x', 'gold', 'now')`.execute(
        t.context.db,
      ),
    ).rejects.toThrow();
  });

  test('running the migrations again changes nothing', async () => {
    const result = await whileNoSchemaIsDropped(() => migrateToLatest(t.context.db, t.context.dbSchema));
    expect(result.results).toEqual([]);
  });

  test('the e-mail verification migration normalizes stored addresses where no other account has the form', async () => {
    const migrator = new Migrator({
      db: t.context.db,
      provider: { getMigrations: () => Promise.resolve(migrations) },
      ...(t.context.dbSchema ? { migrationTableSchema: t.context.dbSchema } : {}),
    });
    const down = await whileNoSchemaIsDropped(() => migrator.migrateTo('0005-hue'));
    expect(down.error).toBeUndefined();
    const user = (id: string, email: string) =>
      sql`insert into users (id, email, password_hash, plan, created_at) values (${id}, ${email}, 'x', 'trial', 'now')`.execute(
        t.context.db,
      );
    await user('k1', '\u212Aelvin@example.com'); // Kelvin sign: alone, becomes kelvin@
    await user('w1', 'ｗｉｄｅ@example.com'); // full-width, collides with w2's plain form: kept
    await user('w2', 'wide@example.com');
    await user('z1', 'zero\u200Bwidth@example.com'); // cannot be normalized: kept, unreachable
    await whileNoSchemaIsDropped(() => migrateToLatest(t.context.db, t.context.dbSchema));
    const rows = await t.context.db
      .selectFrom('users')
      .select(['id', 'email', 'email_verified_at'])
      .where('id', 'in', ['k1', 'w1', 'w2', 'z1'])
      .orderBy('id')
      .execute();
    expect(rows).toEqual([
      { id: 'k1', email: 'kelvin@example.com', email_verified_at: null },
      { id: 'w1', email: 'ｗｉｄｅ@example.com', email_verified_at: null },
      { id: 'w2', email: 'wide@example.com', email_verified_at: null },
      { id: 'z1', email: 'zero\u200Bwidth@example.com', email_verified_at: null },
    ]);
  });
}

describe('database on SQLite', () => dbSuite('sqlite'));
describe.skipIf(!TEST_DATABASE_URL)('database on PostgreSQL (set TEST_DATABASE_URL to run)', () =>
  dbSuite('postgres'),
);

describe.skipIf(!TEST_DATABASE_URL)('test schemas on PostgreSQL (set TEST_DATABASE_URL to run)', () => {
  test("another file's schema is dropped only once no migration reads the schemas", async () => {
    const other = await buildTestApp({ dialect: 'postgres' });
    const order: string[] = [];
    let release = () => undefined as void;
    let started = () => undefined as void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const migrating = whileNoSchemaIsDropped(
      () =>
        new Promise<void>((resolve) => {
          release = resolve;
          started();
        }),
    );
    await running;
    const dropped = other.close().then(() => order.push('dropped'));
    // A drop takes milliseconds: without the lock it would be done well before this.
    await new Promise((resolve) => setTimeout(resolve, 300));
    order.push('migrated');
    release();
    await Promise.all([migrating, dropped]);
    expect(order).toEqual(['migrated', 'dropped']);
  });
});
