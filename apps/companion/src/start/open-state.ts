// The companion's first step: its log, and its state file read back (a link to another server dropped).
import path from 'node:path';
import type { CompanionOptions } from '../companion-types.js';
import { createLogger, type Logger } from '../system/log.js';
import { StateFile, type CompanionState } from '../system/state-file.js';

export function openLog(options: Pick<CompanionOptions, 'console' | 'logToFile' | 'dataDir'>): Logger {
  return createLogger({
    console: options.console,
    ...(options.logToFile ? { file: path.join(options.dataDir, 'companion.log') } : {}),
  });
}

/** The state file, and the state as it was read (before a link to another server is dropped). */
export function openStateFile(
  dataDir: string,
  server: string,
  log: Logger,
): { store: StateFile; saved: CompanionState } {
  const store = new StateFile(dataDir);
  const loaded = store.load();
  if (loaded.warning) log.warn(loaded.warning);
  if (loaded.state.token && loaded.state.server !== server) {
    // A token is for the server that issued it, never sent elsewhere.
    log.warn(
      `This companion is linked to ${loaded.state.server ?? 'another server'}; linking it to ${server} instead.`,
    );
    store.update((state) => ({
      ...state,
      token: undefined,
      device: undefined,
      server,
      preferences: undefined,
      lastLiveAt: undefined,
    }));
  }
  return { store, saved: loaded.state };
}
