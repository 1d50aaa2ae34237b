import { pruneLightSelection } from '@flaglight/core';
import { readStoredToken } from '../auth/auth-storage';
import { browserSelection } from '../companion/companion-lights';
import { readCompanionDevices, subscribeCompanionDevices } from '../companion/companion-store';
import { isKeptSessionOver } from '../live/followed-session';
import { fetchCurrentSession } from '../live/live-api';
import { readLocalSettings, subscribeLocalSettings, updateLocalSettings } from '../settings/local-settings';
import { toast } from '../toasts/toast';
import { REDUCED_MOTION_QUERY } from '../ui/use-reduced-motion';
import { clearLifxToken, readLifxTokenFor, storeLifxToken } from './lifx-token';
import { LightsEngine } from './lights-engine';
import { createRoomStore } from './room-store';

/** The system asks for less motion (read at each flag, so a change applies to the next). */
function prefersReducedMotion(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia(REDUCED_MOTION_QUERY).matches;
}

/**
 * Builds one signed-in user's lights engine, wired to that user's stored token, selection and
 * preferences. Loaded lazily with the engine: the local settings pull in their schema (zod),
 * which the landing page must not carry (DESIGN §7, 150 KB).
 */
export function createUserLights(email: string, lifxApiUrl: string) {
  const engine = new LightsEngine({
    lifxApiUrl,
    sessionToken: readStoredToken,
    notify: {
      success: (title) => toast.success(title),
      warning: (title) => toast.warning(title),
      error: (title, message) => toast.error(title, { message }),
    },
    tokenStore: {
      read: () => readLifxTokenFor(email),
      write: (token) => storeLifxToken(email, token),
      clear: () => clearLifxToken(email),
    },
    // The stored selection, less the lights an online companion drives instead (sharedLightsDriver):
    // a LIFX, Hue or Govee bulb the companion drives on the LAN is not driven from the cloud too.
    selection: () => browserSelection(readCompanionDevices(email), readLocalSettings(email)),
    screenEnabled: () => readLocalSettings(email).screenLight,
    looks: () => readLocalSettings(email).looks,
    follow: () => readLocalSettings(email).lightFollow,
    screenNoFlashing: () => prefersReducedMotion() && !readLocalSettings(email).screenFlashing,
    // "As it was" outlives a reload: the session followed again takes it up, one over is given back.
    roomStore: createRoomStore(email),
    sessionOver: (key) => isKeptSessionOver(key, () => fetchCurrentSession()),
    // The selection decides the driven provider: the engine's stores follow its changes, and the
    // companions' (one coming online takes its lights over; one going offline gives them back).
    subscribeSelection: (listener) => {
      const off = [subscribeLocalSettings(listener), subscribeCompanionDevices(listener)];
      return () => off.forEach((fn) => fn());
    },
    // SPEC §5: the selection is pruned to ids that still exist.
    onDevicesLoaded: (provider, ids) =>
      updateLocalSettings(email, (current) => {
        if (provider === 'lifx')
          return {
            selectedLifxDeviceIds: pruneLightSelection(current.selectedLifxDeviceIds, ids),
            hiddenLifxDeviceIds: pruneLightSelection(current.hiddenLifxDeviceIds, ids),
          };
        if (provider === 'govee')
          return {
            selectedGoveeDeviceIds: pruneLightSelection(current.selectedGoveeDeviceIds, ids),
            hiddenGoveeDeviceIds: pruneLightSelection(current.hiddenGoveeDeviceIds, ids),
          };
        return {
          selectedHueDeviceIds: pruneLightSelection(current.selectedHueDeviceIds, ids),
          hiddenHueDeviceIds: pruneLightSelection(current.hiddenHueDeviceIds, ids),
        };
      }),
  });
  return {
    engine,
    start: () => engine.start(readLocalSettings(email).autoConnect),
  };
}
