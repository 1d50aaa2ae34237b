// The flags CLI without the process around it (DESIGN §5.2, §5.8), so tests can run it on every
// fixture in one process; flags.ts wires it to argv, the file system, stdout, stderr and the exit code.
import { fuseInputs } from '../flags/live-timing.js';
import { deriveLightChanges } from '../flags/tracker.js';
import { parseLiveTimingJson, parseRaceControlJson } from './parse-input.js';

export const USAGE =
  'usage: flags FILE [--source f1] (a JSON file of race_control records, or a fixture with live_timing)';
const SOURCES = ['f1'] as const;

export interface FlagsCommandResult {
  code: 0 | 1;
  stdout: string;
  stderr: string;
}

/** Reads a file as UTF-8 text, or says in a few words why it cannot. */
export type ReadText = (file: string) => { ok: true; text: string } | { ok: false; reason: string };

class CommandError extends Error {
  override name = 'CommandError';
}

function fail(message: string): never {
  throw new CommandError(message);
}

/** FILE and an optional `--source VALUE` / `--source=VALUE`, in any order. */
function parseArgs(argv: readonly string[]): { file: string | undefined; source: string | undefined } {
  let file: string | undefined;
  let source: string | undefined;
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] as string;
    if (arg === '--source') {
      const value = argv[i + 1];
      if (value === undefined || value === '') fail(`--source needs a value (${SOURCES.join(', ')})`);
      source = value;
      i += 1;
    } else if (arg.startsWith('--source=')) {
      source = arg.slice('--source='.length);
    } else if (file === undefined) {
      file = arg;
    }
  }
  if (source !== undefined && !(SOURCES as readonly string[]).includes(source)) {
    fail(`unknown --source ${JSON.stringify(source)} (expected ${SOURCES.join(', ')})`);
  }
  return { file, source };
}

function deriveFromLiveTiming(file: string, text: string): unknown[] {
  const parsed = parseLiveTimingJson(text);
  if (!parsed.ok) fail(`${file}: ${parsed.error}`);
  return fuseInputs(parsed.inputs).map(({ date, state, activeSectors, safetyCar, offset }) => ({
    date,
    state,
    activeSectors,
    ...(safetyCar ? { safetyCar } : {}),
    offset,
  }));
}

function deriveFromRaceControl(file: string, text: string): unknown[] {
  const parsed = parseRaceControlJson(text);
  if (!parsed.ok) fail(`${file}: ${parsed.error}`);
  return deriveLightChanges(parsed.messages).map(({ date, state, activeSectors }) => ({
    date,
    state,
    activeSectors,
  }));
}

/** Runs the flags command: one JSON line on stdout, or exit code 1 with one line on stderr. */
export function runFlagsCommand(argv: readonly string[], readText: ReadText): FlagsCommandResult {
  try {
    const { file, source } = parseArgs(argv);
    if (file === undefined || file === '') fail(USAGE);
    const read = readText(file);
    if (!read.ok) fail(`cannot read ${file}: ${read.reason}`);
    const changes =
      source === 'f1' ? deriveFromLiveTiming(file, read.text) : deriveFromRaceControl(file, read.text);
    return { code: 0, stdout: `${JSON.stringify(changes)}\n`, stderr: '' };
  } catch (error) {
    if (!(error instanceof CommandError)) throw error;
    return { code: 1, stdout: '', stderr: `flags: ${error.message.replace(/\s+/g, ' ').trim()}\n` };
  }
}
