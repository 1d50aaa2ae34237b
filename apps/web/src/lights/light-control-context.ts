import { createContext, useContext, useSyncExternalStore } from 'react';
import type { HueAuthResult } from './hue-oauth';
import type { DrivenProvider } from './lights-context';
import type { LightsEngine } from './lights-engine';
import { EMPTY_PROVIDER_SNAPSHOTS, type ProviderSnapshots } from './provider-store';

/**
 * What Settings and the Light Control panel need beyond the `LightsApi` contract: the engine's
 * methods and a Hue OAuth result that arrived by URL parameters. Each provider's state comes from
 * its own store (`useProviderState`).
 */
export interface LightControlApi {
  /** Null while signed out or until the lights code has loaded. */
  engine: LightsEngine | null;
  hueAuthResult: HueAuthResult | null;
  setHueAuthResult: (result: HueAuthResult | null) => void;
}

export const LightControlContext = createContext<LightControlApi>({
  engine: null,
  hueAuthResult: null,
  setHueAuthResult: () => undefined,
});

export function useLightControl(): LightControlApi {
  return useContext(LightControlContext);
}

const noSubscribe = () => () => undefined;

/** One provider's connection state, from the engine's store for it (empty until the engine is there). */
export function useProviderState<P extends DrivenProvider>(provider: P): ProviderSnapshots[P] {
  const store = useLightControl().engine?.providers[provider];
  const empty = () => EMPTY_PROVIDER_SNAPSHOTS[provider];
  return useSyncExternalStore(store?.subscribe ?? noSubscribe, store?.getSnapshot ?? empty, empty);
}

const NO_ROOM = { unreadable: [], left: [] };
const noRoom = () => NO_ROOM;

/**
 * A line beside each of the provider's lights that "as it was" leaves alone: one that cannot be
 * read before the session, or one the last give-back could not reach (with why).
 */
export function useRoomNotes(provider: DrivenProvider): Readonly<Record<string, string>> {
  const store = useLightControl().engine?.roomState;
  const room = useSyncExternalStore(store?.subscribe ?? noSubscribe, store?.getSnapshot ?? noRoom, noRoom);
  const notes: Record<string, string> = {};
  for (const light of room.left)
    if (light.provider === provider) notes[light.id] = `Not given back as it was: ${light.reason}`;
  for (const light of room.unreadable)
    if (light.provider === provider)
      notes[light.id] = `Cannot be read: ${light.reason}. It keeps the last flag's look afterwards.`;
  return notes;
}
