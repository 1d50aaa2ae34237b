import { parseArgs } from 'node:util';
import { ConfigError, parseConfig } from '../config.js';
import { createDatabase, migrateToLatest } from '../db/database.js';
import { createLicenceService } from './service.js';

const USAGE = 'Usage: npm run licence -- issue --plan lifetime|pro [--count N]';

/** Admin command: issues licence keys against the configured database and prints them. */
async function main(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { plan: { type: 'string', default: 'lifetime' }, count: { type: 'string', default: '1' } },
    });
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
    return 1;
  }
  const [command] = parsed.positionals;
  const plan = parsed.values.plan;
  const count = Number(parsed.values.count);
  if (
    command !== 'issue' ||
    (plan !== 'lifetime' && plan !== 'pro') ||
    !Number.isInteger(count) ||
    count < 1 ||
    count > 1000
  ) {
    console.error(USAGE);
    return 1;
  }
  let config;
  try {
    config = parseConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      return 1;
    }
    throw error;
  }
  const db = createDatabase(config.database);
  try {
    await migrateToLatest(db);
    const licences = createLicenceService({ db, now: () => new Date() });
    for (let i = 0; i < count; i++) console.log(await licences.issue({ plan, source: 'admin' }));
  } finally {
    await db.destroy();
  }
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  },
);
