import { createContext, useContext } from 'react';
import type { HueAuthResult } from './hue-oauth';
import type { LightsEngine, LightsSnapshot } from './lights-engine';

/**
 * What Settings and the Light Control panel need beyond the `LightsApi` contract: the engine's
 * methods, its state, and a Hue OAuth result that arrived by URL parameters.
 */
export interface LightControlApi {
  /** Null while signed out or until the lights code has loaded. */
  engine: LightsEngine | null;
  snapshot: LightsSnapshot;
  hueAuthResult: HueAuthResult | null;
  setHueAuthResult: (result: HueAuthResult | null) => void;
}

export const EMPTY_SNAPSHOT: LightsSnapshot = Object.freeze({
  lifx: {
    status: 'disconnected',
    devices: [],
    devicesLoaded: false,
    loadingDevices: false,
    error: null,
    hasToken: false,
  },
  hue: {
    status: 'disconnected',
    devices: [],
    devicesLoaded: false,
    loadingDevices: false,
    error: null,
    hasApplicationKey: false,
  },
  restoring: false,
}) as LightsSnapshot;

export const LightControlContext = createContext<LightControlApi>({
  engine: null,
  snapshot: EMPTY_SNAPSHOT,
  hueAuthResult: null,
  setHueAuthResult: () => undefined,
});

export function useLightControl(): LightControlApi {
  return useContext(LightControlContext);
}
