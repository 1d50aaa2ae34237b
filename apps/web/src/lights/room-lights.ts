import type { GoveeSavedState, HueSavedState } from '@flaglight/contract';
import type { LightColor } from '@flaglight/core';
import type {
  GoveeCloudDriver,
  HueDriver,
  LifxCloudDriver,
  RestoreReport,
  SavedStates,
} from '@flaglight/lights';
import { apiCall } from '../api/client';
import type { DrivenLights, RoomLights, RoomProvider } from './cloud-room';

// How the room's lights are read and given back from this tab: LIFX's cloud by its own driver (the
// token stays in the browser), Hue and Govee through the app's server (their keys stay there).

/** The readable saved states of a snapshot as the server takes them back; the rest is left, with why. */
function split<T>(saved: SavedStates): { lights: { id: string; state: T }[]; left: RestoreReport['left'] } {
  const lights: { id: string; state: T }[] = [];
  const left: RestoreReport['left'] = [];
  for (const [id, entry] of Object.entries(saved)) {
    if (entry.readable) lights.push({ id, state: entry.state as T });
    else left.push({ id, reason: entry.reason });
  }
  return { lights, left };
}

export const hueRoomLights: RoomLights = {
  read: async (ids) =>
    ids.length === 0
      ? {}
      : (await apiCall('POST /hue/lights/read-states', { body: { lightIds: [...ids] } })).lights,
  async restore(saved) {
    const { lights, left } = split<HueSavedState>(saved);
    if (lights.length === 0) return { restored: [], left };
    const done = await apiCall('POST /hue/lights/restore-states', { body: { lights } });
    return { restored: done.restored, left: [...left, ...done.left] };
  },
};

export const goveeRoomLights: RoomLights = {
  read: async (ids) =>
    ids.length === 0
      ? {}
      : (await apiCall('POST /api/govee/lights/read-states', { body: { lightIds: [...ids] } })).lights,
  async restore(saved) {
    const { lights, left } = split<GoveeSavedState>(saved);
    if (lights.length === 0) return { restored: [], left };
    const done = await apiCall('POST /api/govee/lights/restore-states', { body: { lights } });
    return { restored: done.restored, left: [...left, ...done.left] };
  },
};

export function lifxRoomLights(driver: LifxCloudDriver): RoomLights {
  return {
    read: (ids) => (ids.length === 0 ? Promise.resolve({}) : driver.readStates(ids)),
    restore: (saved) => driver.restoreStates(saved),
  };
}

/** Every provider's reads and give-backs, LIFX through this tab's driver. */
export function roomLightsOf(lifx: LifxCloudDriver): Record<RoomProvider, RoomLights> {
  return { lifx: lifxRoomLights(lifx), hue: hueRoomLights, govee: goveeRoomLights };
}

const OFF: LightColor = { name: 'off', hue: 0, saturation: 0, off: true };
/** A light off, as one look. */
export const OFF_LOOK = { color: OFF, brightness: 0 };

export type RoomLook = { color: LightColor; brightness: number };

/**
 * Sets one look (null: off) on the lights named: LIFX's cloud from the tab, Hue and Govee through
 * the server (each paced there). Rejects with the first failure once every call has answered.
 */
export async function showOnLights(
  drivers: { lifx: LifxCloudDriver; hue: HueDriver; govee: GoveeCloudDriver },
  lights: DrivenLights,
  look: RoomLook | null,
  transitionMs: number,
): Promise<void> {
  const state = look
    ? { on: true, color: look.color, brightness: look.brightness, transitionMs }
    : { on: false, color: OFF, brightness: 0, transitionMs };
  const results = await Promise.allSettled(
    (['lifx', 'hue', 'govee'] as const)
      .filter((provider) => lights[provider].length > 0)
      .map((provider) => drivers[provider].setState(lights[provider], state)),
  );
  const failed = results.find((result) => result.status === 'rejected');
  if (failed) throw failed.reason;
}
