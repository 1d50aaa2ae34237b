// One walk over a folder for the repository's checks: the files whose name `wanted` accepts, below
// `dir`, leaving out installed packages and what builds and test runs write.
import { readdirSync } from 'node:fs';
import path from 'node:path';

const SKIP_DIRS = new Set(['node_modules', 'dist', 'coverage', 'test-results', '.cache']);

/** Every file below `dir` (none if it does not exist) whose name passes `wanted`. */
export function* walkFiles(dir, wanted) {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!SKIP_DIRS.has(entry.name)) yield* walkFiles(file, wanted);
    } else if (entry.isFile() && wanted(entry.name)) {
      yield file;
    }
  }
}
