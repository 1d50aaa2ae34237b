import type { Preferences, PreferencesDocument } from '@flaglight/contract';
import { PREFERENCES_MAX_DELAY_SECONDS } from '@flaglight/contract/limits';
import {
  LAN_LIGHT_PROVIDERS,
  type CompanionLightIds,
  type LightProvider,
  type LocalSettings,
} from '@flaglight/core';
import { ApiError, apiCall } from '../api/client';
import {
  DEFAULT_LOCAL_SETTINGS,
  onLocalSettingsWritten,
  readLocalSettings,
  updateLocalSettings,
} from './local-settings';
import {
  describeSaveError,
  isTransientSaveError,
  setUnsavedPreferences,
  type PreferencesArea,
} from './preferences-save-state';
import { createRetrier } from './save-retrier';

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

type SyncedFields = Pick<
  LocalSettings,
  | 'delaySeconds'
  | 'delayEnabled'
  | 'autoConnect'
  | 'selectedLifxDeviceIds'
  | 'selectedHueDeviceIds'
  | 'selectedGoveeDeviceIds'
  | 'hiddenLifxDeviceIds'
  | 'hiddenHueDeviceIds'
  | 'hiddenGoveeDeviceIds'
  | 'companionSelectedLights'
  | 'companionHiddenLights'
  | 'sharedLightsDriver'
  | 'featureFlags'
  | 'looks'
  | 'lightFollow'
>;

type LightLists = Partial<Record<LightProvider, string[]>>;

/** The companion providers' entries of a light list; an absent provider stays absent (it means "all"). */
function companionIds(lists: LightLists): CompanionLightIds {
  const picked: CompanionLightIds = {};
  for (const key of LAN_LIGHT_PROVIDERS) {
    const ids = lists[key];
    if (ids) picked[key] = ids;
  }
  return picked;
}

/** `lists` with the companion providers' entries replaced by `companion`'s (removed where it has none). */
function withCompanionIds(lists: LightLists, companion: CompanionLightIds): LightLists {
  const rest = Object.fromEntries(
    Object.entries(lists).filter(([key]) => !(LAN_LIGHT_PROVIDERS as readonly string[]).includes(key)),
  );
  return { ...rest, ...companionIds(companion) };
}

/** The browser's record (SPEC §3 local settings) as the fields the account keeps. */
export function localFromPreferences(preferences: Preferences): SyncedFields {
  return {
    delaySeconds: preferences.delay.seconds,
    delayEnabled: preferences.delay.enabled,
    autoConnect: preferences.autoConnect,
    selectedLifxDeviceIds: preferences.selectedLights.lifx ?? [],
    selectedHueDeviceIds: preferences.selectedLights.hue ?? [],
    selectedGoveeDeviceIds: preferences.selectedLights.govee ?? [],
    hiddenLifxDeviceIds: preferences.hiddenLights.lifx ?? [],
    hiddenHueDeviceIds: preferences.hiddenLights.hue ?? [],
    hiddenGoveeDeviceIds: preferences.hiddenLights.govee ?? [],
    companionSelectedLights: companionIds(preferences.selectedLights),
    companionHiddenLights: companionIds(preferences.hiddenLights),
    sharedLightsDriver: preferences.sharedLightsDriver,
    featureFlags: { ...preferences.featureFlags },
    looks: preferences.looks,
    lightFollow: preferences.lightFollow,
  };
}

/** `looks` and `lightFollow` as the account keeps them: a key only when chosen (absent: the defaults). */
function chosenLooks(local: LocalSettings): Pick<Preferences, 'looks' | 'lightFollow'> {
  return {
    ...(local.looks ? { looks: local.looks } : {}),
    ...(local.lightFollow ? { lightFollow: local.lightFollow } : {}),
  };
}

/**
 * The account's preferences with this browser's values; what the browser does not know (other
 * providers' selections, the companions' delay offsets) is kept from `base`. The companion
 * providers' lists are the browser's too (the Companion tab): an absent one is removed.
 */
export function preferencesFromLocal(local: LocalSettings, base: Preferences): Preferences {
  // The browser's choice of looks replaces the account's, removed too when the browser has none.
  const rest = { ...base };
  delete rest.looks;
  delete rest.lightFollow;
  return {
    ...rest,
    ...chosenLooks(local),
    delay: {
      enabled: local.delayEnabled,
      seconds: Math.min(PREFERENCES_MAX_DELAY_SECONDS, Math.max(0, Math.round(local.delaySeconds))),
    },
    autoConnect: local.autoConnect,
    selectedLights: {
      ...withCompanionIds(base.selectedLights, local.companionSelectedLights),
      lifx: local.selectedLifxDeviceIds,
      hue: local.selectedHueDeviceIds,
      govee: local.selectedGoveeDeviceIds,
    },
    hiddenLights: {
      ...withCompanionIds(base.hiddenLights, local.companionHiddenLights),
      lifx: local.hiddenLifxDeviceIds,
      hue: local.hiddenHueDeviceIds,
      govee: local.hiddenGoveeDeviceIds,
    },
    sharedLightsDriver: local.sharedLightsDriver,
    featureFlags: { ...local.featureFlags },
  };
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** True when the browser's record holds something the user chose (not only the defaults). */
export function hasLocalChoices(local: LocalSettings): boolean {
  return !same(localFromLocal(local), localFromLocal(DEFAULT_LOCAL_SETTINGS));
}

function localFromLocal(local: LocalSettings): SyncedFields {
  return {
    delaySeconds: local.delaySeconds,
    delayEnabled: local.delayEnabled,
    autoConnect: local.autoConnect,
    selectedLifxDeviceIds: local.selectedLifxDeviceIds,
    selectedHueDeviceIds: local.selectedHueDeviceIds,
    selectedGoveeDeviceIds: local.selectedGoveeDeviceIds,
    hiddenLifxDeviceIds: local.hiddenLifxDeviceIds,
    hiddenHueDeviceIds: local.hiddenHueDeviceIds,
    hiddenGoveeDeviceIds: local.hiddenGoveeDeviceIds,
    companionSelectedLights: companionIds(local.companionSelectedLights),
    companionHiddenLights: companionIds(local.companionHiddenLights),
    sharedLightsDriver: local.sharedLightsDriver,
    featureFlags: local.featureFlags,
    looks: local.looks,
    lightFollow: local.lightFollow,
  };
}

/** Fields the user changed since `base`, applied on top of `current` (a field-by-field merge). */
function mergeChanges(mine: SyncedFields, base: SyncedFields, current: SyncedFields): SyncedFields {
  const merged = { ...current } as Record<keyof SyncedFields, unknown>;
  for (const key of Object.keys(mine) as (keyof SyncedFields)[]) {
    if (!same(mine[key], base[key])) merged[key] = mine[key];
  }
  return merged as SyncedFields;
}

export interface PreferencesSync {
  /** A document pushed on the event stream (another page or a companion changed them). */
  receive(document: PreferencesDocument): void;
  /** Tries again now what could not be saved (the Retry beside an unsaved change). */
  retry(): void;
  stop(): void;
}

const active = new Map<string, PreferencesSync>();

/** Hands a pushed document to the signed-in user's sync, if one runs in this page. */
export function receivePushedPreferences(email: string | null | undefined, data: unknown): void {
  if (!email || !isPreferencesDocument(data)) return;
  active.get(email)?.receive(data);
}

/** Retry, for the signed-in user's unsaved change. */
export function retryPreferencesSave(email: string | null | undefined): void {
  if (email) active.get(email)?.retry();
}

function isPreferencesDocument(data: unknown): data is PreferencesDocument {
  if (typeof data !== 'object' || data === null) return false;
  const { version, preferences } = data as Record<string, unknown>;
  if (typeof version !== 'number' || typeof preferences !== 'object' || preferences === null) return false;
  const p = preferences as Record<string, unknown>;
  return (
    typeof p.delay === 'object' &&
    p.delay !== null &&
    typeof p.selectedLights === 'object' &&
    typeof p.hiddenLights === 'object' &&
    typeof p.featureFlags === 'object'
  );
}

/** Where on screen each synced field is changed. */
const AREA_OF: Partial<Record<keyof SyncedFields, PreferencesArea>> = {
  delaySeconds: 'delay',
  delayEnabled: 'delay',
  autoConnect: 'autoConnect',
  selectedLifxDeviceIds: 'lights',
  selectedHueDeviceIds: 'lights',
  selectedGoveeDeviceIds: 'lights',
  hiddenLifxDeviceIds: 'lights',
  hiddenHueDeviceIds: 'lights',
  hiddenGoveeDeviceIds: 'lights',
  companionSelectedLights: 'lights',
  companionHiddenLights: 'lights',
  sharedLightsDriver: 'lights',
  looks: 'looks',
  lightFollow: 'lightFollow',
};

/** The places whose fields differ between what the page has and what the server took. */
function changedAreas(mine: SyncedFields, saved: SyncedFields): PreferencesArea[] {
  const areas = new Set<PreferencesArea>();
  for (const key of Object.keys(mine) as (keyof SyncedFields)[]) {
    const area = AREA_OF[key];
    if (area && !same(mine[key], saved[key])) areas.add(area);
  }
  return [...areas];
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
  let stopped = false;
  /** The last document the server confirmed; null until the first read answers. */
  let server: PreferencesDocument | null = null;
  let applying = false;
  let dirty = false;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let saving: Promise<void> | null = null;
  /** What this page's changes started from before the server first answered. */
  const cacheAtStart = localFromLocal(readLocalSettings(email));
  const unsaved = createUnsavedReport(email, () =>
    server ? localFromPreferences(server.preferences) : cacheAtStart,
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
    if (!stopped) unsaved.publish();
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
    if (server && document.version < server.version) return;
    const base = server ? localFromPreferences(server.preferences) : cacheAtStart;
    server = document;
    // Unsent changes of this page stay on top of what arrived.
    const incoming = localFromPreferences(document.preferences);
    writeLocal(
      dirty || unsaved.failing()
        ? mergeChanges(localFromLocal(readLocalSettings(email)), base, incoming)
        : incoming,
    );
    publish();
  };

  /** One write of this page's changes; a stale version is merged with the current document and sent again. */
  async function send(): Promise<void> {
    for (let attempt = 0; attempt <= MAX_CONFLICT_RETRIES && !stopped && dirty && server; attempt += 1) {
      const base: PreferencesDocument = server;
      const sent = localFromLocal(readLocalSettings(email));
      dirty = false;
      const preferences = preferencesFromLocal(readLocalSettings(email), base.preferences);
      // A write that changes nothing (the selection pruned to the same ids) is not sent.
      if (same(preferences, base.preferences)) return succeed();
      try {
        const saved = await api.save(base.version, preferences);
        if (stopped) return;
        server = saved;
        return succeed();
      } catch (error) {
        const current = conflictDocument(error);
        dirty = true; // kept for the next try, Retry, or sign-in
        if (!current) return fail(error);
        // Someone else wrote first: their fields, then ours on top, and try again.
        server = current;
        writeLocal(
          mergeChanges(
            sent,
            localFromPreferences(base.preferences),
            localFromPreferences(current.preferences),
          ),
        );
      }
    }
    if (dirty && !stopped) fail(new ApiError('changed elsewhere', 409, { code: 'conflict' }));
  }

  async function flush(): Promise<void> {
    if (stopped || !server || !dirty) return;
    if (saving) {
      await saving;
      return flush();
    }
    saving = send().finally(() => {
      saving = null;
    });
    await saving;
  }

  async function load(): Promise<void> {
    try {
      const document = await api.fetch();
      if (stopped) return;
      const local = readLocalSettings(email);
      if (document.version === 0 && hasLocalChoices(local)) {
        // First sign-in since preferences moved to the account: this browser's choices are kept.
        server = document;
        dirty = true;
        return flush();
      }
      apply(document);
      if (dirty) return flush();
      succeed();
    } catch (error) {
      if (!stopped) fail(error);
    }
  }

  const retryNow = () => {
    if (stopped) return;
    unsaved.retrying();
    publish();
    if (!server) return void load();
    dirty = true;
    void flush();
  };
  const retrier = createRetrier(retryNow);

  const schedule = () => {
    dirty = true;
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = null;
      void flush();
    }, debounceMs);
    // A change made while the last try failed shows beside it at once (and is tried with the rest).
    if (unsaved.failing()) publish();
  };

  const unsubscribe = onLocalSettingsWritten((who) => {
    if (who === email && !applying && !stopped) schedule();
  });

  void load();

  const sync: PreferencesSync = {
    receive: (document) => {
      if (!stopped) apply(document);
    },
    retry: retryNow,
    stop() {
      stopped = true;
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

function conflictDocument(error: unknown): PreferencesDocument | null {
  if (!(error instanceof ApiError) || error.code !== 'conflict') return null;
  const current = (error.body as { current?: unknown } | undefined)?.current;
  return isPreferencesDocument(current) ? current : null;
}
