import { pruneLightSelection } from '@flaglight/core';
import type { DrivenProvider } from './lights-context';
import {
  createProviderStore,
  deriveDrivenProvider,
  EMPTY_PROVIDER_SNAPSHOTS,
  type ProviderSnapshot,
  type ProviderSnapshots,
  type ProviderStore,
} from './provider-store';

// Loaded with the lights engine (it needs core's selection rules); provider-store.ts stays light
// for the landing page.

export type ProviderStores = { [P in DrivenProvider]: ProviderStore<ProviderSnapshots[P]> };

/**
 * Both providers' stores, each keeping its selection pruned to the devices it lists (the stored
 * selection comes from `selection()`), and what they decide together: the driven provider.
 */
export function createProviderStates(selection: () => Record<DrivenProvider, readonly string[]>) {
  const providers: ProviderStores = {
    lifx: createProviderStore(EMPTY_PROVIDER_SNAPSHOTS.lifx),
    hue: createProviderStore(EMPTY_PROVIDER_SNAPSHOTS.hue),
    govee: createProviderStore(EMPTY_PROVIDER_SNAPSHOTS.govee),
  };

  /** The stored selection pruned to the listed devices; the same array while it is unchanged. */
  const pruned = (provider: DrivenProvider, state: ProviderSnapshot): readonly string[] => {
    const ids = state.devicesLoaded
      ? pruneLightSelection(
          selection()[provider],
          state.devices.map((d) => d.id),
        )
      : [];
    const current = providers[provider].getSnapshot().selectedIds;
    const same = ids.length === current.length && ids.every((id, i) => id === current[i]);
    return same ? current : ids;
  };

  const update = <P extends DrivenProvider>(provider: P, patch: Partial<ProviderSnapshots[P]>): void => {
    const store = providers[provider];
    const next = { ...store.getSnapshot(), ...patch };
    store.set({ ...next, selectedIds: pruned(provider, next) });
  };

  return {
    providers,
    update,
    /** The stored selection changed: each store takes its new pruned selection, if it differs. */
    reselect: (): void => {
      for (const provider of ['lifx', 'hue', 'govee'] as const) {
        const current = providers[provider].getSnapshot();
        const selectedIds = pruned(provider, current);
        if (selectedIds !== current.selectedIds) update(provider, { selectedIds });
      }
    },
    drivenProvider: (): DrivenProvider | null =>
      deriveDrivenProvider({
        lifx: providers.lifx.getSnapshot(),
        hue: providers.hue.getSnapshot(),
        govee: providers.govee.getSnapshot(),
      }),
    subscribe: (listener: () => void): (() => void) => {
      const off = [
        providers.lifx.subscribe(listener),
        providers.hue.subscribe(listener),
        providers.govee.subscribe(listener),
      ];
      return () => off.forEach((fn) => fn());
    },
  };
}
