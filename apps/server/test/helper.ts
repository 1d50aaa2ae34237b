import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import pino, { type Logger } from 'pino';
import { buildApp } from '../src/app.js';
import { parseConfig, type Config } from '../src/config.js';
import { createContext, type AppContext } from '../src/context.js';

export type Dialect = 'sqlite' | 'postgres';

/** PostgreSQL runs only when TEST_DATABASE_URL is set (.ci/run sets it); SQLite always. */
export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL;
export const dialects: Dialect[] = TEST_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];

export interface TestApp {
  app: FastifyInstance;
  context: AppContext;
  config: Config;
  close(): Promise<void>;
}

/**
 * Builds the real app on a fresh database: a new SQLite file in a temp folder, or a new schema
 * in the PostgreSQL test database, dropped on close.
 */
export async function buildTestApp(
  options: {
    dialect?: Dialect;
    env?: Record<string, string>;
    webDistDir?: string;
    /** Extra routes or hooks for one test, added before the app is ready. */
    configure?: (app: FastifyInstance) => void;
    now?: () => Date;
    hueTimeoutMs?: number;
    /** The app's logger (default: silent) and whether it logs each request (default: no). */
    logger?: Logger;
    logRequests?: boolean;
  } = {},
): Promise<TestApp> {
  const dialect = options.dialect ?? 'sqlite';
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'flaglight-test-'));
  const env: Record<string, string> = {
    FLAGLIGHT_MODE: 'demo',
    DATA_DIR: dataDir,
    PORT: '0',
    ...options.env,
  };
  let schema: string | undefined;
  if (dialect === 'postgres') {
    if (!TEST_DATABASE_URL) throw new Error('TEST_DATABASE_URL is not set');
    schema = `t_${crypto.randomBytes(6).toString('hex')}`;
    await withPgClient((client) => client.query(`create schema ${schema}`));
    env.DATABASE_URL = TEST_DATABASE_URL;
  }
  const config = parseConfig(env);
  const context = await createContext(config, {
    logger: options.logger ?? pino({ level: 'silent' }),
    ...(options.now ? { now: options.now } : {}),
    ...(options.hueTimeoutMs === undefined ? {} : { hueTimeoutMs: options.hueTimeoutMs }),
    ...(schema ? { database: { schema } } : {}),
  });
  const build = async () => {
    const built = await buildApp({
      context,
      ...(options.logRequests ? { logRequests: true } : {}),
      webDistDir: options.webDistDir ?? path.join(dataDir, 'no-web-build'),
    });
    options.configure?.(built);
    await built.ready();
    return built;
  };
  // buildApp migrates the database.
  const app = schema ? await whileNoSchemaIsDropped(build) : await build();
  return {
    app,
    context,
    config,
    async close() {
      await app.close();
      if (schema) await dropSchema(schema);
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Kysely's migrator reads the tables of every schema in the database (has_schema_privilege over
 * each), so a schema another test file dropped meanwhile failed its migration: "schema t_… does not
 * exist". A migration holds this advisory lock shared, a drop holds it alone; each is released
 * with its session.
 */
const SCHEMA_LOCK = 7_771_003;

/** Runs `fn` (a migration of a test schema) while no test schema is being dropped. */
export async function whileNoSchemaIsDropped<T>(fn: () => Promise<T>): Promise<T> {
  if (!TEST_DATABASE_URL) return fn();
  return withPgClient(async (client) => {
    await client.query('select pg_advisory_lock_shared($1)', [SCHEMA_LOCK]);
    return fn();
  });
}

async function dropSchema(schema: string): Promise<void> {
  await withPgClient(async (client) => {
    await client.query('select pg_advisory_lock($1)', [SCHEMA_LOCK]);
    await client.query(`drop schema ${schema} cascade`);
  });
}

async function withPgClient<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}
