import type { DeviceLight, LinkedDevice } from '@flaglight/contract';
import {
  CLOUD_TWIN,
  LAN_LIGHT_PROVIDERS,
  type CompanionLightIds,
  type LanLightProvider,
  type LocalSettings,
} from '@flaglight/core';

// Which lights a desktop companion drives, and which of them the browser also has selected. Pure:
// the Companion tab, the dashboard line, the who-drives prompt and the lights engine share it.

/** The companion's providers: the product's one list of LAN brands. */
export const COMPANION_PROVIDERS = LAN_LIGHT_PROVIDERS;
export type CompanionProvider = LanLightProvider;

export { CLOUD_TWIN };

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
 * Keys ticked in the device list as the account keeps them: every provider, so the choice is exact.
 * Nothing ticked means no light (decision 031); only an account that never chose has no key at all,
 * and its companion drives every light it finds.
 */
export function companionSelectionFromKeys(keys: readonly string[]): CompanionLightIds {
  const selection = Object.fromEntries(
    COMPANION_PROVIDERS.map((p) => [p, [] as string[]]),
  ) as Required<CompanionLightIds>;
  for (const key of keys) {
    const parsed = parseCompanionLightKey(key);
    if (parsed && !selection[parsed.provider].includes(parsed.id)) selection[parsed.provider].push(parsed.id);
  }
  return selection;
}

/** True while the account has made no choice of companion lights: each companion drives every light it finds. */
export function isEveryLightSelection(selection: CompanionLightIds): boolean {
  return COMPANION_PROVIDERS.every((provider) => selection[provider] === undefined);
}

/**
 * The keys the device list shows ticked: the lights the companion drives by the account's choice (a
 * provider the choice does not name yet, such as a brand added since, is driven whole and shown so).
 */
export function tickedCompanionKeys(
  devices: readonly Pick<LinkedDevice, 'lights'>[],
  selection: CompanionLightIds,
): string[] {
  // Ids of lights no companion reports now (one that is offline) stay in the choice.
  const keys = new Set(companionSelectionKeys(selection));
  for (const device of devices)
    for (const light of device.lights)
      if (selection[light.provider] === undefined) keys.add(companionLightKey(light));
  return [...keys];
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
  govee: string[];
  count: number;
}

export const NO_SHARED_LIGHTS: SharedLights = { lifx: [], hue: [], govee: [], count: 0 };

type SelectionSettings = Pick<
  LocalSettings,
  'selectedLifxDeviceIds' | 'selectedHueDeviceIds' | 'selectedGoveeDeviceIds' | 'companionSelectedLights'
>;

/**
 * The browser's selected cloud lights that an online companion of the account also drives (the
 * same bulb: `lifx` X is `lifx_lan` X, `hue` Y is `hue_local` Y, `govee` Z is `govee_lan` Z; the
 * same rule as the companion's, decision 039). A light the companion reports unreachable is not
 * counted: the companion cannot drive it now.
 */
export function findSharedLights(
  devices: readonly LinkedDevice[] | null | undefined,
  settings: SelectionSettings,
): SharedLights {
  const companion = { lifx: new Set<string>(), hue: new Set<string>(), govee: new Set<string>() };
  for (const device of devices ?? []) {
    if (!device.online) continue;
    for (const light of device.lights) {
      const twin = CLOUD_TWIN[light.provider];
      if (twin && light.reachable && companionDrives(light, settings.companionSelectedLights))
        companion[twin].add(light.id);
    }
  }
  const lifx = settings.selectedLifxDeviceIds.filter((id) => companion.lifx.has(id));
  const hue = settings.selectedHueDeviceIds.filter((id) => companion.hue.has(id));
  const govee = settings.selectedGoveeDeviceIds.filter((id) => companion.govee.has(id));
  const count = lifx.length + hue.length + govee.length;
  return count === 0 ? NO_SHARED_LIGHTS : { lifx, hue, govee, count };
}

/**
 * The cloud selection the browser drives: the shared lights are left out when the companion drives
 * them (`sharedLightsDriver: 'companion'`, the default), kept when the browser does.
 */
export function browserSelection(
  devices: readonly LinkedDevice[] | null | undefined,
  settings: SelectionSettings & Pick<LocalSettings, 'sharedLightsDriver'>,
): { lifx: readonly string[]; hue: readonly string[]; govee: readonly string[] } {
  const all = {
    lifx: settings.selectedLifxDeviceIds,
    hue: settings.selectedHueDeviceIds,
    govee: settings.selectedGoveeDeviceIds,
  };
  if (settings.sharedLightsDriver === 'browser') return all;
  const shared = findSharedLights(devices, settings);
  if (shared.count === 0) return all;
  return {
    lifx: all.lifx.filter((id) => !shared.lifx.includes(id)),
    hue: all.hue.filter((id) => !shared.hue.includes(id)),
    govee: all.govee.filter((id) => !shared.govee.includes(id)),
  };
}
