// The new version's first five minutes after an update. Its start by the handover turns the
// handover's record into the "Updated from" note; a start by anything else (systemd, autostart, the
// fan) follows an exit of the new version, and the third within five minutes puts the previous
// file back: a release that keeps crashing after it answered once is rolled back too.
import type { StateFile } from '../system/state-file.js';
import { swapBack, UPDATED_FROM_ENV } from './install.js';

export const RESTART_WINDOW_MS = 5 * 60_000;
export const MAX_RESTARTS = 3;
export { UPDATED_FROM_ENV };

export type StartOutcome = { kind: 'run' } | { kind: 'roll-back'; version: string; from: string };

export function noteStart(
  store: StateFile,
  input: { running: string; byHandover: boolean; now: number },
): StartOutcome {
  const updates = store.get().updates;
  const pending = updates?.pending;
  if (!updates || !pending) return { kind: 'run' };
  const clear = (note?: string) =>
    store.update((s) => {
      const { pending: _done, ...rest } = s.updates ?? updates;
      return { ...s, updates: { ...rest, ...(note ? { note } : {}) } };
    });
  if (pending.version !== input.running || input.now - Date.parse(pending.at) > RESTART_WINDOW_MS) {
    clear();
    return { kind: 'run' };
  }
  if (input.byHandover) {
    if (!updates.note?.startsWith(`Updated from ${pending.from} to ${input.running}`))
      store.update((s) => ({
        ...s,
        updates: { ...updates, note: `Updated from ${pending.from} to ${input.running}.` },
      }));
    return { kind: 'run' };
  }
  const restarts = pending.restarts + 1;
  if (restarts >= MAX_RESTARTS) return { kind: 'roll-back', version: pending.version, from: pending.from };
  store.update((s) => ({ ...s, updates: { ...updates, pending: { ...pending, restarts } } }));
  return { kind: 'run' };
}

/** The previous file back in place, the failed version remembered; the caller starts the previous one. */
export function rollBackAtStart(
  store: StateFile,
  executable: string,
  outcome: Extract<StartOutcome, { kind: 'roll-back' }>,
  platform: NodeJS.Platform = process.platform,
): void {
  swapBack(executable, platform);
  store.update((s) => {
    const { pending: _done, ...updates } = s.updates ?? { auto: true, failed: [] };
    return {
      ...s,
      updates: {
        ...updates,
        failed: [...new Set([...updates.failed, outcome.version])],
        note: `Update to ${outcome.version} failed and was rolled back.`,
      },
    };
  });
}
