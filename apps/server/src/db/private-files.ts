import fs from 'node:fs';

/** Folders holding the app's data: this user only. */
export const PRIVATE_DIR_MODE = 0o700;
/** The database, its WAL and shared memory, secrets, the outbox: this user only. */
export const PRIVATE_FILE_MODE = 0o600;

/** Removes group and other access from a folder or file this process owns; leaves anything else alone. */
function tighten(target: string, mode: number): void {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(target);
  } catch {
    return;
  }
  const owner = process.getuid?.();
  if ((stat.mode & 0o777 & ~mode) === 0 || (owner !== undefined && stat.uid !== owner)) return;
  // A shared sticky folder (/tmp) is never ours to close.
  if (stat.isDirectory() && (stat.mode & 0o1000) !== 0) return;
  fs.chmodSync(target, mode);
}

/**
 * Creates `dir` (and any missing parent) with mode 0700. `tighten` also closes an existing folder
 * left open by an older version; give it only for the app's own folders (DATA_DIR and below),
 * never for a folder a path merely points into.
 */
export function ensurePrivateDir(dir: string, options: { tighten?: boolean } = {}): void {
  fs.mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  if (options.tighten) tighten(dir, PRIVATE_DIR_MODE);
}

/** Closes the app's data folder if it exists (it may have been made by an older version). */
export function tightenDataDir(dir: string): void {
  tighten(dir, PRIVATE_DIR_MODE);
}

/**
 * Makes sure `file` exists with mode 0600 before another library opens it (SQLite gives its -wal
 * and -shm files the mode of the database file), and closes any of `companions` already there.
 */
export function ensurePrivateFile(file: string, companions: string[] = []): void {
  fs.closeSync(fs.openSync(file, 'a', PRIVATE_FILE_MODE));
  for (const target of [file, ...companions]) tighten(target, PRIVATE_FILE_MODE);
}
