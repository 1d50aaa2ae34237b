#!/usr/bin/env node
// DESIGN §5.2: `npm run -s flags -- FILE` prints the light changes of a race-control stream;
// DESIGN §5.8: `--source f1` derives them from the file's live_timing streams. See flags-command.ts.
import { readFileSync } from 'node:fs';
import { runFlagsCommand, type ReadText } from './flags-command.js';

const readText: ReadText = (file) => {
  try {
    return { ok: true, text: readFileSync(file, 'utf8') };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason =
      code === 'ENOENT'
        ? 'no such file'
        : code === 'EISDIR'
          ? 'is a directory'
          : code === 'EACCES'
            ? 'permission denied'
            : 'cannot read';
    return { ok: false, reason };
  }
};

/** Runs the CLI on argv; exits 1 with one line on stderr when the input is bad. */
export function runFlagsCli(argv: readonly string[]): void {
  const result = runFlagsCommand(argv, readText);
  process.stdout.write(result.stdout);
  process.stderr.write(result.stderr);
  if (result.code !== 0) process.exit(result.code);
}

runFlagsCli(process.argv.slice(2));
