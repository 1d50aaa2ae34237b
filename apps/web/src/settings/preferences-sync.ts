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
  };
}

/**
 * The account's preferences with this browser's values; what the browser does not know (other
 * providers' selections, the companions' delay offsets) is kept from `base`. The companion
 * providers' lists are the browser's too (the Companion tab): an absent one is removed.
 */
export function preferencesFromLocal(local: LocalSettings, base: Preferences): Preferences {
  return {
    ...base,
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
  stop(): void;
}

const active = new Map<string, PreferencesSync>();

/** Hands a pushed document to the signed-in user's sync, if one runs in this page. */
export function receivePushedPreferences(email: string | null | undefined, data: unknown): void {
  if (!email || !isPreferencesDocument(data)) return;
  active.get(email)?.receive(data);
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

/**
 * Keeps one user's local settings (the offline cache, SPEC §3 keys) and the account's preferences
 * in step: reads the server's after sign-in (first time: a browser with choices of its own and an
 * account still at its defaults uploads them), sends this page's changes (debounced; a stale version
 * is merged and retried), and applies documents pushed on the stream. Offline, the page keeps
 * working from the cache and the next change is sent when the server answers again.
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

  const apply = (document: PreferencesDocument) => {
    if (server && document.version < server.version) return;
    const base = server ? localFromPreferences(server.preferences) : cacheAtStart;
    server = document;
    applying = true;
    try {
      // Unsent changes of this page stay on top of what arrived.
      const incoming = localFromPreferences(document.preferences);
      updateLocalSettings(
        email,
        dirty ? mergeChanges(localFromLocal(readLocalSettings(email)), base, incoming) : incoming,
      );
    } finally {
      applying = false;
    }
  };

  async function flush(): Promise<void> {
    if (stopped || !server || !dirty) return;
    if (saving) {
      await saving;
      return flush();
    }
    saving = (async () => {
      for (let attempt = 0; attempt <= MAX_CONFLICT_RETRIES && !stopped && dirty; attempt += 1) {
        const base = server;
        const sent = localFromLocal(readLocalSettings(email));
        dirty = false;
        const preferences = preferencesFromLocal(readLocalSettings(email), base.preferences);
        // A write that changes nothing (the selection pruned to the same ids) is not sent.
        if (same(preferences, base.preferences)) return;
        try {
          const saved = await api.save(base.version, preferences);
          if (stopped) return;
          server = saved;
          return;
        } catch (error) {
          const current = conflictDocument(error);
          if (!current) {
            dirty = true; // kept for the next change or sign-in
            options.onError?.(error);
            return;
          }
          // Someone else wrote first: their fields, then ours on top, and try again.
          const merged = mergeChanges(
            sent,
            localFromPreferences(base.preferences),
            localFromPreferences(current.preferences),
          );
          server = current;
          applying = true;
          try {
            updateLocalSettings(email, merged);
          } finally {
            applying = false;
          }
          dirty = true;
        }
      }
    })().finally(() => {
      saving = null;
    });
    await saving;
  }

  const schedule = () => {
    dirty = true;
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = null;
      void flush();
    }, debounceMs);
  };

  const unsubscribe = onLocalSettingsWritten((who) => {
    if (who === email && !applying && !stopped) schedule();
  });

  void (async () => {
    try {
      const document = await api.fetch();
      if (stopped) return;
      const local = readLocalSettings(email);
      if (document.version === 0 && hasLocalChoices(local)) {
        // First sign-in since preferences moved to the account: this browser's choices are kept.
        server = document;
        dirty = true;
        await flush();
        return;
      }
      apply(document);
      if (dirty) await flush();
    } catch (error) {
      options.onError?.(error);
    }
  })();

  const sync: PreferencesSync = {
    receive: (document) => {
      if (!stopped) apply(document);
    },
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      unsubscribe();
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
