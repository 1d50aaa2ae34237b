import type { Preferences, PreferencesDocument } from '@flaglight/contract';
import { ApiError, apiCall } from '../api/client';
import { onLocalSettingsWritten, readLocalSettings, updateLocalSettings } from './local-settings';
import {
  changedAreas,
  conflictDocument,
  hasLocalChoices,
  isPreferencesDocument,
  localFromLocal,
  localFromPreferences,
  mergeChanges,
  preferencesFromLocal,
  same,
  type SyncedFields,
} from './preferences-fields';
import { describeSaveError, isTransientSaveError, setUnsavedPreferences } from './preferences-save-state';
import { createRetrier } from './save-retrier';

export { hasLocalChoices, localFromPreferences, preferencesFromLocal } from './preferences-fields';

/** Changes this close together (a slider being dragged) go to the server as one write. */
export const PREFERENCES_SAVE_DEBOUNCE_MS = 400;
/** A write refused as stale is merged and sent again at most this many times in a row. */
const MAX_CONFLICT_RETRIES = 3;

/** How the sync reaches the server; tests give their own. */
export interface PreferencesApi {
  fetch(): Promise<PreferencesDocument>;
  save(version: number, preferences: Preferences): Promise<PreferencesDocument>;
}

export const serverPreferencesApi: PreferencesApi = {
  fetch: () => apiCall('GET /api/me/preferences'),
  save: (version, preferences) => apiCall('PUT /api/me/preferences', { body: { version, preferences } }),
};

export interface PreferencesSync {
  /** A document pushed on the event stream (another page or a companion changed them). */
  receive(document: PreferencesDocument): void;
  /** Tries again now what could not be saved (the Retry beside an unsaved change). */
  retry(): void;
  /** Sends a change still waiting out the debounce now; resolves when the write has answered. */
  flush(): Promise<void>;
  stop(): void;
}

const active = new Map<string, PreferencesSync>();

/** Hands a pushed document to the signed-in user's sync, if one runs in this page. */
export function receivePushedPreferences(email: string | null | undefined, data: unknown): void {
  if (!email || !isPreferencesDocument(data)) return;
  active.get(email)?.receive(data);
}

/**
 * Saves the signed-in user's waiting change now (a Try pressed right after a look changed: the
 * companions play the account's saved looks). Resolves when it has answered, saved or not.
 */
export function flushPreferencesSave(email: string | null | undefined): Promise<void> {
  return (email && active.get(email)?.flush()) || Promise.resolve();
}

/** Retry, for the signed-in user's unsaved change. */
export function retryPreferencesSave(email: string | null | undefined): void {
  if (email) active.get(email)?.retry();
}

/**
 * What a user has not saved, for the places that show it: the last failure (kept until a save
 * succeeds) and the areas whose fields differ from what the server last took (`saved`).
 */
function createUnsavedReport(email: string, saved: () => SyncedFields) {
  let failure: { error: unknown; retrying: boolean } | null = null;
  return {
    failing: () => failure !== null,
    failed(error: unknown) {
      failure = { error, retrying: false };
    },
    succeeded() {
      failure = null;
    },
    retrying() {
      if (failure) failure = { ...failure, retrying: true };
    },
    publish() {
      const areas = failure ? changedAreas(localFromLocal(readLocalSettings(email)), saved()) : [];
      setUnsavedPreferences(
        email,
        failure ? { areas, reason: describeSaveError(failure.error), retrying: failure.retrying } : null,
      );
    },
  };
}

/** What a running sync knows, shared by its steps. */
interface SyncState {
  stopped: boolean;
  /** The last document the server confirmed; null until the first read answers. */
  server: PreferencesDocument | null;
  /** This page has changes the server has not taken. */
  dirty: boolean;
}

/** How a write reports back to the sync that runs it. */
interface SendSteps {
  email: string;
  api: PreferencesApi;
  /** Writes merged fields into the browser's record without counting them as the page's change. */
  writeLocal(fields: SyncedFields): void;
  succeed(): void;
  fail(error: unknown): void;
}

/** One write of this page's changes; a stale version is merged with the current document and sent again. */
async function sendChanges(state: SyncState, steps: SendSteps): Promise<void> {
  const { email, api } = steps;
  for (
    let attempt = 0;
    attempt <= MAX_CONFLICT_RETRIES && !state.stopped && state.dirty && state.server;
    attempt += 1
  ) {
    const base: PreferencesDocument = state.server;
    const sent = localFromLocal(readLocalSettings(email));
    state.dirty = false;
    const preferences = preferencesFromLocal(readLocalSettings(email), base.preferences);
    // A write that changes nothing (the selection pruned to the same ids) is not sent.
    if (same(preferences, base.preferences)) return steps.succeed();
    try {
      const saved = await api.save(base.version, preferences);
      if (state.stopped) return;
      state.server = saved;
      return steps.succeed();
    } catch (error) {
      const current = conflictDocument(error);
      state.dirty = true; // kept for the next try, Retry, or sign-in
      if (!current) return steps.fail(error);
      // Someone else wrote first: their fields, then ours on top, and try again.
      state.server = current;
      steps.writeLocal(
        mergeChanges(sent, localFromPreferences(base.preferences), localFromPreferences(current.preferences)),
      );
    }
  }
  if (state.dirty && !state.stopped) steps.fail(new ApiError('changed elsewhere', 409, { code: 'conflict' }));
}

/**
 * Keeps one user's local settings (the offline cache, SPEC §3 keys) and the account's preferences
 * in step: reads the server's after sign-in (first time: a browser with choices of its own and an
 * account still at its defaults uploads them), sends this page's changes (debounced; a stale version
 * is merged and retried), and applies documents pushed on the stream. A change the server did not
 * take stays on the page, is shown beside where it was made (`preferences-save-state`), and is tried
 * again: on Retry, on a backing-off timer while the failure may pass, and when the network returns.
 */
export function startPreferencesSync(
  email: string,
  api: PreferencesApi = serverPreferencesApi,
  options: { debounceMs?: number; onError?: (error: unknown) => void } = {},
): PreferencesSync {
  const debounceMs = options.debounceMs ?? PREFERENCES_SAVE_DEBOUNCE_MS;
  const state: SyncState = { stopped: false, server: null, dirty: false };
  let applying = false;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let saving: Promise<void> | null = null;
  /** What this page's changes started from before the server first answered. */
  const cacheAtStart = localFromLocal(readLocalSettings(email));
  const unsaved = createUnsavedReport(email, () =>
    state.server ? localFromPreferences(state.server.preferences) : cacheAtStart,
  );

  const writeLocal = (fields: SyncedFields) => {
    applying = true;
    try {
      updateLocalSettings(email, fields);
    } finally {
      applying = false;
    }
  };

  const publish = () => {
    if (!state.stopped) unsaved.publish();
  };

  const fail = (error: unknown) => {
    unsaved.failed(error);
    retrier.failed(isTransientSaveError(error));
    publish();
    options.onError?.(error);
  };

  const succeed = () => {
    unsaved.succeeded();
    retrier.succeeded();
    publish();
  };

  const apply = (document: PreferencesDocument) => {
    const { server } = state;
    if (server && document.version < server.version) return;
    const base = server ? localFromPreferences(server.preferences) : cacheAtStart;
    state.server = document;
    // Unsent changes of this page stay on top of what arrived.
    const incoming = localFromPreferences(document.preferences);
    writeLocal(
      state.dirty || unsaved.failing()
        ? mergeChanges(localFromLocal(readLocalSettings(email)), base, incoming)
        : incoming,
    );
    publish();
  };

  async function flush(): Promise<void> {
    if (state.stopped || !state.server || !state.dirty) return;
    if (saving) {
      await saving;
      return flush();
    }
    saving = sendChanges(state, { email, api, writeLocal, succeed, fail }).finally(() => {
      saving = null;
    });
    await saving;
  }

  async function load(): Promise<void> {
    try {
      const document = await api.fetch();
      if (state.stopped) return;
      const local = readLocalSettings(email);
      if (document.version === 0 && hasLocalChoices(local)) {
        // First sign-in since preferences moved to the account: this browser's choices are kept.
        state.server = document;
        state.dirty = true;
        return flush();
      }
      apply(document);
      if (state.dirty) return flush();
      succeed();
    } catch (error) {
      if (!state.stopped) fail(error);
    }
  }

  const retryNow = () => {
    if (state.stopped) return;
    unsaved.retrying();
    publish();
    if (!state.server) return void load();
    state.dirty = true;
    void flush();
  };
  const retrier = createRetrier(retryNow);

  const schedule = () => {
    state.dirty = true;
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = null;
      void flush();
    }, debounceMs);
    // A change made while the last try failed shows beside it at once (and is tried with the rest).
    if (unsaved.failing()) publish();
  };

  const unsubscribe = onLocalSettingsWritten((who) => {
    if (who === email && !applying && !state.stopped) schedule();
  });

  void load();

  const sync: PreferencesSync = {
    receive: (document) => {
      if (!state.stopped) apply(document);
    },
    retry: retryNow,
    flush: () => {
      if (timer) {
        clearTimeout(timer);
        timer = null;
      }
      return flush();
    },
    stop() {
      state.stopped = true;
      if (timer) clearTimeout(timer);
      retrier.stop();
      unsubscribe();
      setUnsavedPreferences(email, null);
      if (active.get(email) === sync) active.delete(email);
    },
  };
  active.set(email, sync);
  return sync;
}
