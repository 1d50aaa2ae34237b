// Installing a checked build between sessions: the new file renamed into the executable's place (the
// old one kept as `<name>.previous`), started with the same arguments, and this process gone only
// once the new one answers on the local bridge. A new version that does not answer within 60 s, or
// exits three times, is rolled back: the previous file goes back and this version runs on.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import type { Logger } from '../system/log.js';
import { StateFile } from '../system/state-file.js';
import { httpGet, readText } from './http-get.js';
import type { Manifest } from './manifest.js';

export const ANSWER_TIMEOUT_MS = 60_000;
export const MAX_EARLY_EXITS = 3;
/** Set on the process the handover starts (the version it comes from). */
export const UPDATED_FROM_ENV = 'FLAGLIGHT_UPDATED_FROM';

export interface InstallDeps {
  executable: string;
  /** The arguments this process was started with (without the executable). */
  args: readonly string[];
  /** The local bridge's port: the new version must answer there. */
  port: number;
  dataDir: string;
  running: string;
  log: Logger;
  platform?: NodeJS.Platform;
  /** Stops this companion (bridge, lights, follower) without ending the process. */
  stopHere: () => Promise<void>;
  /** Starts this companion again in this process (after a rollback). */
  restartHere: () => Promise<void>;
  /** Ends this process (the new version answers). */
  exit: () => void;
  answerTimeoutMs?: number;
}

export const previousPath = (executable: string) => `${executable}.previous`;

/** Flushes a folder's entries (a rename) to the disk where the system allows it. */
function syncFolder(folder: string): void {
  let fd: number | null = null;
  try {
    fd = fs.openSync(folder, 'r');
    fs.fsyncSync(fd);
  } catch {
    // Windows cannot open a folder this way; NTFS journals the rename.
  } finally {
    if (fd !== null) fs.closeSync(fd);
  }
}

/**
 * Puts `file` in the executable's place. Linux: the running file stays reachable as `.previous` (a
 * hard link, else a copy), then one rename replaces it, so the executable's name never points at
 * nothing. Windows: a running .exe can be renamed but not overwritten, so it is moved aside first.
 */
export function swapInto(
  file: string,
  executable: string,
  platform: NodeJS.Platform = process.platform,
): void {
  const previous = previousPath(executable);
  fs.rmSync(previous, { force: true });
  if (platform === 'win32') {
    fs.renameSync(executable, previous);
    fs.renameSync(file, executable);
  } else {
    try {
      fs.linkSync(executable, previous);
    } catch {
      fs.copyFileSync(executable, previous);
    }
    fs.renameSync(file, executable);
  }
  syncFolder(fs.realpathSync(`${executable}/..`));
}

/** The previous file back in the executable's place (the failed one removed). */
export function swapBack(executable: string, platform: NodeJS.Platform = process.platform): void {
  const previous = previousPath(executable);
  if (platform === 'win32') {
    const failed = `${executable}.failed`;
    fs.rmSync(failed, { force: true });
    fs.renameSync(executable, failed);
    fs.renameSync(previous, executable);
    fs.rmSync(failed, { force: true });
  } else {
    fs.renameSync(previous, executable);
  }
  syncFolder(fs.realpathSync(`${executable}/..`));
}

async function answersAs(port: number, version: string): Promise<boolean> {
  try {
    const response = await httpGet(`http://127.0.0.1:${port}/api/status`, {
      signal: AbortSignal.timeout(1_500),
    });
    if (response.statusCode !== 200) {
      response.destroy();
      return false;
    }
    const text = await readText(response, 1_000_000);
    return text !== null && (JSON.parse(text) as { version?: unknown }).version === version;
  } catch {
    return false;
  }
}

/**
 * Written by this process only while no other version runs (before the new one starts, after a
 * failed one is stopped): two processes never write the state file at once.
 */
function recordUpdate(
  dataDir: string,
  change: {
    failed?: string;
    note?: string;
    pending?: { version: string; from: string; at: string; restarts: number };
  },
): void {
  const store = new StateFile(dataDir);
  store.load();
  store.update((s) => {
    const { pending: _done, ...updates } = s.updates ?? { auto: true, failed: [] };
    return {
      ...s,
      updates: {
        ...updates,
        failed: change.failed ? [...new Set([...updates.failed, change.failed])] : updates.failed,
        ...(change.note ? { note: change.note } : {}),
        ...(change.pending ? { pending: change.pending } : {}),
      },
    };
  });
}

/**
 * Installs `file` (already checked) as version `manifest.version` and hands over to it. Resolves only
 * when the handover failed and this version runs again; on success `exit` ends this process.
 */
export async function installUpdate(
  file: string,
  manifest: Manifest,
  deps: InstallDeps,
): Promise<{ ok: false; message: string }> {
  const { executable, log, running } = deps;
  const platform = deps.platform ?? process.platform;
  const version = manifest.version;
  try {
    swapInto(file, executable, platform);
  } catch (error) {
    fs.rmSync(file, { force: true });
    return { ok: false, message: `Could not put version ${version} in place: ${(error as Error).message}` };
  }
  log.info(`Version ${version} is in place (the old file is ${previousPath(executable)}); starting it.`);
  await deps.stopHere();
  recordUpdate(deps.dataDir, {
    pending: { version, from: running, at: new Date().toISOString(), restarts: 0 },
  });

  const timeoutMs = deps.answerTimeoutMs ?? ANSWER_TIMEOUT_MS;
  const deadline = Date.now() + timeoutMs;
  let exits = 0;
  let child: ChildProcess | null = null;
  const start = () => {
    child = spawn(executable, [...deps.args], {
      detached: platform === 'win32',
      stdio: 'inherit',
      windowsHide: true,
      env: { ...process.env, [UPDATED_FROM_ENV]: running },
    });
    child.once('error', () => undefined);
    child.once('exit', () => {
      exits += 1;
      child = null;
      if (exits < MAX_EARLY_EXITS && Date.now() < deadline) start();
    });
  };
  start();
  while (Date.now() < deadline && exits < MAX_EARLY_EXITS) {
    if (await answersAs(deps.port, version)) {
      log.info(`Version ${version} answers on port ${deps.port}: this one (${running}) ends.`);
      (child as ChildProcess | null)?.unref();
      deps.exit();
      return new Promise(() => undefined);
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
  }

  const why =
    exits >= MAX_EARLY_EXITS
      ? `it exited ${exits} times`
      : `it did not answer within ${Math.round(timeoutMs / 1000)} seconds`;
  const stuck = child as ChildProcess | null;
  if (stuck) {
    const gone = new Promise((resolve) => stuck.once('exit', resolve));
    stuck.kill('SIGKILL');
    await gone;
  }
  swapBack(executable, platform);
  const message = `Update to ${version} failed and was rolled back (${why}); ${running} runs on.`;
  recordUpdate(deps.dataDir, { failed: version, note: `Update to ${version} failed and was rolled back.` });
  log.warn(message);
  await deps.restartHere();
  return { ok: false, message };
}
