import type { LightDeviceInfo } from '@flaglight/lights';
import type { DrivenProvider } from './lights-context';

/**
 * One light provider's connection state, kept in a small external store (React reads it with
 * `useSyncExternalStore`). The lights engine owns one per provider and is the only writer. This
 * module stays free of the drivers and of zod: the landing page imports it.
 */

export type ProviderStatus = 'disconnected' | 'connecting' | 'connected';

export interface ProviderSnapshot {
  /** LIFX: token validated by a device list. Hue: the server holds an OAuth connection. */
  status: ProviderStatus;
  devices: LightDeviceInfo[];
  /** True once a device list arrived since the last (re)connect. */
  devicesLoaded: boolean;
  /** A device list is loading. */
  loadingDevices: boolean;
  /** The last error, in SPEC §8 words; cleared by the next success. */
  error: string | null;
  /** The user's stored selection, pruned to the listed devices (none until they are listed). */
  selectedIds: readonly string[];
}

export type LifxSnapshot = ProviderSnapshot & { hasToken: boolean };
export type HueSnapshot = ProviderSnapshot & { hasApplicationKey: boolean };
/** Govee: `connected` means the server holds the account's Govee API key. */
export type GoveeSnapshot = ProviderSnapshot;

export interface ProviderSnapshots {
  lifx: LifxSnapshot;
  hue: HueSnapshot;
  govee: GoveeSnapshot;
}

export interface Store<T> {
  getSnapshot: () => T;
  subscribe: (listener: () => void) => () => void;
}

export interface ProviderStore<T> extends Store<T> {
  /** Replaces the state and tells the listeners, unless nothing changed. */
  set(next: T): void;
}

const NO_SELECTION: readonly string[] = Object.freeze([]);

/** What every provider shows without a connection. */
export const EMPTY_PROVIDER: ProviderSnapshot = Object.freeze({
  status: 'disconnected',
  devices: [],
  devicesLoaded: false,
  loadingDevices: false,
  error: null,
  selectedIds: NO_SELECTION,
});

/** A provider without a connection (signed out, before the lights code loaded, after a disconnect). */
export const EMPTY_PROVIDER_SNAPSHOTS: ProviderSnapshots = Object.freeze({
  lifx: Object.freeze({ ...EMPTY_PROVIDER, hasToken: false }),
  hue: Object.freeze({ ...EMPTY_PROVIDER, hasApplicationKey: false }),
  govee: EMPTY_PROVIDER,
});

export function createProviderStore<T>(initial: T): ProviderStore<T> {
  let state = initial;
  const listeners = new Set<() => void>();
  return {
    getSnapshot: () => state,
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    set(next) {
      if (Object.is(next, state)) return;
      state = next;
      listeners.forEach((listener) => listener());
    },
  };
}

/** The one answer to "is this provider connected" (Hue: the server holds its OAuth connection). */
export function isProviderConnected(state: Pick<ProviderSnapshot, 'status'>): boolean {
  return state.status === 'connected';
}

/** The one answer to "can flags drive this provider": connected, with a listed light selected. */
export function isProviderReady(state: ProviderSnapshot): boolean {
  return isProviderConnected(state) && state.devicesLoaded && state.selectedIds.length > 0;
}

/**
 * SPEC §4 Live connection: "If the bridge provider and cloud provider are both ready, the bridge
 * provider is driven and the other is not".
 */
export function deriveDrivenProvider(states: ProviderSnapshots): DrivenProvider | null {
  if (isProviderReady(states.hue)) return 'hue';
  if (isProviderReady(states.lifx)) return 'lifx';
  // Govee's lights are driven beside either of them too (LightsEngine.playFlag); alone, they lead.
  if (isProviderReady(states.govee)) return 'govee';
  return null;
}
