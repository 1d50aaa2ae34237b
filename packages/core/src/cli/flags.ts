#!/usr/bin/env node
// DESIGN §5.2: `npm run -s flags -- FILE` prints the light changes of a race-control stream.
import { readFileSync } from 'node:fs';
import { deriveLightChanges } from '../flags/tracker.js';
import { parseRaceControlJson } from './parse-input.js';

function fail(message: string): never {
  process.stderr.write(`flags: ${message.replace(/\s+/g, ' ').trim()}\n`);
  process.exit(1);
}

/** Runs the CLI on argv; exits 1 with one line on stderr when the input is bad. */
export function runFlagsCli(argv: readonly string[]): void {
  const file = argv[0];
  if (file === undefined || file === '') fail('usage: flags FILE (a JSON file of race_control records)');
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
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
    fail(`cannot read ${file}: ${reason}`);
  }
  const parsed = parseRaceControlJson(text);
  if (!parsed.ok) fail(`${file}: ${parsed.error}`);
  const changes = deriveLightChanges(parsed.messages).map(({ date, state, activeSectors }) => ({
    date,
    state,
    activeSectors,
  }));
  process.stdout.write(`${JSON.stringify(changes)}\n`);
}

runFlagsCli(process.argv.slice(2));
