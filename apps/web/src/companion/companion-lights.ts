import type { DeviceLight, LinkedDevice } from '@flaglight/contract';
import type { CompanionLightIds, LocalSettings } from '@flaglight/core';

// Which lights a desktop companion drives, and which of them the browser also has selected. Pure:
// the Companion tab, the dashboard line, the who-drives prompt and the lights engine share it.

export const COMPANION_PROVIDERS = [
  'lifx_lan',
  'hue_local',
  'govee_lan',
  'nanoleaf',
  'home_assistant',
  'wled',
] as const;
export type CompanionProvider = (typeof COMPANION_PROVIDERS)[number];

/** The cloud provider that knows the same light by the same id (the contract's DeviceLight ids); Nanoleaf has none. */
export const CLOUD_TWIN: Partial<Record<CompanionProvider, 'lifx' | 'hue' | 'govee'>> = {
  lifx_lan: 'lifx',
  hue_local: 'hue',
  govee_lan: 'govee',
};

/** A light's key across providers in one list: `lifx_lan:d073d5000001`. */
export function companionLightKey(light: Pick<DeviceLight, 'provider' | 'id'>): string {
  return `${light.provider}:${light.id}`;
}

/** The provider and id of a key made by `companionLightKey` (null for anything else). */
export function parseCompanionLightKey(key: string): { provider: CompanionProvider; id: string } | null {
  const at = key.indexOf(':');
  const provider = key.slice(0, at);
  if (at < 0 || !(COMPANION_PROVIDERS as readonly string[]).includes(provider)) return null;
  return { provider: provider as CompanionProvider, id: key.slice(at + 1) };
}

/** The selection as keys, for the device list. */
export function companionSelectionKeys(selection: CompanionLightIds): string[] {
  return COMPANION_PROVIDERS.flatMap((provider) =>
    (selection[provider] ?? []).map((id) => companionLightKey({ provider, id })),
  );
}

/**
 * Keys chosen in the device list as the account keeps them: no key at all when nothing is chosen
 * (the companion then drives every light it finds), else every provider, so the choice is exact.
 */
export function companionSelectionFromKeys(keys: readonly string[]): CompanionLightIds {
  if (keys.length === 0) return {};
  const selection = Object.fromEntries(
    COMPANION_PROVIDERS.map((p) => [p, [] as string[]]),
  ) as Required<CompanionLightIds>;
  for (const key of keys) {
    const parsed = parseCompanionLightKey(key);
    if (parsed && !selection[parsed.provider].includes(parsed.id)) selection[parsed.provider].push(parsed.id);
  }
  return selection;
}

/**
 * Whether the companion drives a light, by its rule: a provider without a selection key means
 * every reachable light of it; with one, the lights listed there.
 */
export function companionDrives(light: DeviceLight, selection: CompanionLightIds): boolean {
  const ids = selection[light.provider];
  return ids === undefined ? light.reachable : ids.includes(light.id);
}

/** How many lights a companion will drive: the selected ones it found, or all reachable without a selection. */
export function drivenLightCount(lights: readonly DeviceLight[], selection: CompanionLightIds): number {
  return lights.filter((light) => companionDrives(light, selection)).length;
}

export interface SharedLights {
  /** Selected cloud light ids, by cloud provider, that an online companion drives too. */
  lifx: string[];
  hue: string[];
  count: number;
}

export const NO_SHARED_LIGHTS: SharedLights = { lifx: [], hue: [], count: 0 };

type SelectionSettings = Pick<
  LocalSettings,
  'selectedLifxDeviceIds' | 'selectedHueDeviceIds' | 'companionSelectedLights'
>;

/**
 * The browser's selected cloud lights that an online companion of the account also drives (the
 * same bulb: `lifx` X is `lifx_lan` X, `hue` Y is `hue_local` Y). A light the companion reports
 * unreachable is not counted: the companion cannot drive it now.
 */
export function findSharedLights(
  devices: readonly LinkedDevice[] | null | undefined,
  settings: SelectionSettings,
): SharedLights {
  // `govee`: the cloud Govee selection is matched here once the browser has one.
  const companion = { lifx: new Set<string>(), hue: new Set<string>(), govee: new Set<string>() };
  for (const device of devices ?? []) {
    if (!device.online) continue;
    for (const light of device.lights) {
      const twin = CLOUD_TWIN[light.provider];
      if (twin && light.reachable && companionDrives(light, settings.companionSelectedLights))
        companion[twin].add(light.id);
    }
  }
  if (companion.lifx.size === 0 && companion.hue.size === 0) return NO_SHARED_LIGHTS;
  const lifx = settings.selectedLifxDeviceIds.filter((id) => companion.lifx.has(id));
  const hue = settings.selectedHueDeviceIds.filter((id) => companion.hue.has(id));
  if (lifx.length + hue.length === 0) return NO_SHARED_LIGHTS;
  return { lifx, hue, count: lifx.length + hue.length };
}

/**
 * The cloud selection the browser drives: the shared lights are left out when the companion drives
 * them (`sharedLightsDriver: 'companion'`, the default), kept when the browser does.
 */
export function browserSelection(
  devices: readonly LinkedDevice[] | null | undefined,
  settings: SelectionSettings & Pick<LocalSettings, 'sharedLightsDriver'>,
): { lifx: readonly string[]; hue: readonly string[] } {
  const all = { lifx: settings.selectedLifxDeviceIds, hue: settings.selectedHueDeviceIds };
  if (settings.sharedLightsDriver === 'browser') return all;
  const shared = findSharedLights(devices, settings);
  if (shared.count === 0) return all;
  return {
    lifx: all.lifx.filter((id) => !shared.lifx.includes(id)),
    hue: all.hue.filter((id) => !shared.hue.includes(id)),
  };
}
