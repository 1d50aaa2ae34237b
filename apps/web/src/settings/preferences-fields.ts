import type { Preferences, PreferencesDocument } from '@flaglight/contract';
import { PREFERENCES_MAX_DELAY_SECONDS } from '@flaglight/contract/limits';
import {
  LAN_LIGHT_PROVIDERS,
  type CompanionLightIds,
  type LightProvider,
  type LocalSettings,
} from '@flaglight/core';
import { ApiError } from '../api/client';
import { DEFAULT_LOCAL_SETTINGS } from './local-settings';
import type { PreferencesArea } from './preferences-save-state';

/** The account's preferences as the browser's record names them, and how the two are merged. */
export type SyncedFields = Pick<
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

export const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** True when the browser's record holds something the user chose (not only the defaults). */
export function hasLocalChoices(local: LocalSettings): boolean {
  return !same(localFromLocal(local), localFromLocal(DEFAULT_LOCAL_SETTINGS));
}

/** The fields the account keeps, as this browser's record has them. */
export function localFromLocal(local: LocalSettings): SyncedFields {
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
export function mergeChanges(mine: SyncedFields, base: SyncedFields, current: SyncedFields): SyncedFields {
  const merged = { ...current } as Record<keyof SyncedFields, unknown>;
  for (const key of Object.keys(mine) as (keyof SyncedFields)[]) {
    if (!same(mine[key], base[key])) merged[key] = mine[key];
  }
  return merged as SyncedFields;
}

/** True when `data` has the shape of a preferences document (a pushed one is checked before use). */
export function isPreferencesDocument(data: unknown): data is PreferencesDocument {
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
export function changedAreas(mine: SyncedFields, saved: SyncedFields): PreferencesArea[] {
  const areas = new Set<PreferencesArea>();
  for (const key of Object.keys(mine) as (keyof SyncedFields)[]) {
    const area = AREA_OF[key];
    if (area && !same(mine[key], saved[key])) areas.add(area);
  }
  return [...areas];
}

/** The current document a 409 conflict carries, or null for any other error. */
export function conflictDocument(error: unknown): PreferencesDocument | null {
  if (!(error instanceof ApiError) || error.code !== 'conflict') return null;
  const current = (error.body as { current?: unknown } | undefined)?.current;
  return isPreferencesDocument(current) ? current : null;
}
