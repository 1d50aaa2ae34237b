import { Command } from 'commander';
import { APP_VERSION } from './version.js';

const program = new Command()
  .name('flaglight-companion')
  .description('Flaglight Companion: your lights follow the race flags, with no browser open.')
  .version(APP_VERSION, '-v, --version');

program.parseAsync(process.argv).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
