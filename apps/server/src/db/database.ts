import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, type MigrationResultSet } from 'kysely';
import pg from 'pg';
import type { Config } from '../config.js';
import { migrations } from './migrations/index.js';
import { ensurePrivateDir, ensurePrivateFile } from './private-files.js';
import type { Database } from './schema.js';

export type Db = Kysely<Database>;

export interface DatabaseOptions {
  /** PostgreSQL only: run in this schema (created if missing). Tests use one schema per file. */
  schema?: string;
}

/** Opens the configured database: SQLite (WAL) by default, PostgreSQL for a postgres:// URL. */
export function createDatabase(database: Config['database'], options: DatabaseOptions = {}): Db {
  if (database.kind === 'postgres') {
    const pool = new pg.Pool({
      connectionString: database.url,
      max: 10,
      ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
    });
    // An idle client that errors (server restart) must not crash the process.
    pool.on('error', () => undefined);
    return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  }
  // The database holds password hashes and session hashes: readable by this user only, and so are
  // the WAL and shared-memory files SQLite creates beside it with the database file's mode.
  ensurePrivateDir(path.dirname(database.file));
  ensurePrivateFile(
    database.file,
    ['-wal', '-shm', '-journal'].map((suffix) => `${database.file}${suffix}`),
  );
  const sqlite = new SQLite(database.file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  return new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
}

export class MigrationError extends Error {
  override name = 'MigrationError';
}

/**
 * Brings the schema up to date; throws MigrationError naming the failed migration. With a
 * PostgreSQL `schema`, the migration bookkeeping lives there too (Kysely otherwise finds another
 * schema's tables when it looks for its own).
 */
export async function migrateToLatest(db: Db, schema?: string): Promise<MigrationResultSet> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: () => Promise.resolve(migrations) },
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  const result = await migrator.migrateToLatest();
  if (result.error) {
    const failed = result.results?.find((r) => r.status === 'Error');
    const cause: unknown = result.error;
    throw new MigrationError(
      `Migration ${failed?.migrationName ?? '(unknown)'} failed: ${
        cause instanceof Error ? cause.message : String(cause)
      }`,
    );
  }
  return result;
}
