import { LightFollowSchema } from '@flaglight/contract/light-follow';
import { LookSetSchema } from '@flaglight/contract/looks';
import { LocalSettingsSchema, type LocalSettings } from '@flaglight/core';
import { useCallback, useSyncExternalStore } from 'react';

/** SPEC §3: one record per user, keyed like the LIFX token by the user's e-mail (`settings_<email>`). */
export const LOCAL_SETTINGS_KEY_PREFIX = 'settings_';

export function localSettingsKey(email: string): string {
  return `${LOCAL_SETTINGS_KEY_PREFIX}${email}`;
}

export const DEFAULT_LOCAL_SETTINGS: LocalSettings = Object.freeze(LocalSettingsSchema.parse({}));

export type LocalSettingsPatch =
  Partial<LocalSettings> | ((current: LocalSettings) => Partial<LocalSettings>);

// Snapshots are cached per key so useSyncExternalStore sees a stable object until a write.
const cache = new Map<string, { raw: string | null; value: LocalSettings }>();
const listeners = new Set<() => void>();
const writeListeners = new Set<(email: string, settings: LocalSettings) => void>();

/**
 * Core checks only that `looks` and `lightFollow` are objects; what the contract would refuse (an
 * older release's shape, a hand-edited value) is dropped here, so the account's defaults play and no
 * write ever sends it.
 */
function withValidChoices(settings: LocalSettings): LocalSettings {
  const looksOk = settings.looks === undefined || LookSetSchema.safeParse(settings.looks).success;
  const followOk =
    settings.lightFollow === undefined || LightFollowSchema.safeParse(settings.lightFollow).success;
  if (looksOk && followOk) return settings;
  return {
    ...settings,
    looks: looksOk ? settings.looks : undefined,
    lightFollow: followOk ? settings.lightFollow : undefined,
  };
}

function parse(raw: string | null): LocalSettings {
  if (raw === null) return DEFAULT_LOCAL_SETTINGS;
  try {
    const result = LocalSettingsSchema.safeParse(JSON.parse(raw));
    return result.success ? withValidChoices(result.data) : DEFAULT_LOCAL_SETTINGS;
  } catch {
    return DEFAULT_LOCAL_SETTINGS;
  }
}

function readRaw(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

/** The user's settings; missing, corrupt or partly wrong data falls back to the defaults field by field. */
export function readLocalSettings(email: string): LocalSettings {
  const key = localSettingsKey(email);
  const raw = readRaw(key);
  const cached = cache.get(key);
  if (cached && cached.raw === raw) return cached.value;
  const value = parse(raw);
  cache.set(key, { raw, value });
  return value;
}

/** Merges a patch into the user's settings, stores them, and tells every hook. */
export function updateLocalSettings(email: string, patch: LocalSettingsPatch): LocalSettings {
  const current = readLocalSettings(email);
  const changes = typeof patch === 'function' ? patch(current) : patch;
  const next = withValidChoices(
    LocalSettingsSchema.parse({
      ...current,
      ...changes,
      featureFlags: { ...current.featureFlags, ...changes.featureFlags },
    }),
  );
  const raw = JSON.stringify(next);
  try {
    window.localStorage.setItem(localSettingsKey(email), raw);
  } catch {
    // Storage full or blocked: keep the value for this page's life.
  }
  cache.set(localSettingsKey(email), { raw: readRaw(localSettingsKey(email)) ?? raw, value: next });
  listeners.forEach((listener) => listener());
  writeListeners.forEach((listener) => listener(email, next));
  return next;
}

/** Tells `listener` of every write made in this page (not another tab's): what the server sync sends. */
export function onLocalSettingsWritten(
  listener: (email: string, settings: LocalSettings) => void,
): () => void {
  writeListeners.add(listener);
  return () => {
    writeListeners.delete(listener);
  };
}

/** Tells `listener` whenever any user's settings change (this tab or another). */
export function subscribeLocalSettings(listener: () => void): () => void {
  return subscribe(listener);
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  // Another tab of the same user changed them.
  const onStorage = (event: StorageEvent) => {
    if (event.key === null || event.key.startsWith(LOCAL_SETTINGS_KEY_PREFIX)) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

/**
 * The signed-in user's local settings (SPEC §3) and an updater. Without an e-mail (signed out)
 * it gives the defaults and ignores updates.
 */
export function useLocalSettings(
  email: string | null | undefined,
): [LocalSettings, (patch: LocalSettingsPatch) => void] {
  const settings = useSyncExternalStore(
    subscribe,
    () => (email ? readLocalSettings(email) : DEFAULT_LOCAL_SETTINGS),
    () => DEFAULT_LOCAL_SETTINGS,
  );
  const update = useCallback(
    (patch: LocalSettingsPatch) => {
      if (email) updateLocalSettings(email, patch);
    },
    [email],
  );
  return [settings, update];
}
