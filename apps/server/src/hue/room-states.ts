import type { HueSavedState } from '@flaglight/contract';
import { hueRestoreCommand, savedHueLight } from '@flaglight/lights/lan';
import { HUE_MESSAGES, toHueHttpError } from './errors.js';
import type { HueLightsClient } from './lights-client.js';

// "As it was" for the lights the server plays through Hue's remote API (CLIP v2 under
// /route/clip/v2): one `GET /resource/light` reads every light's on, dimming and colour (xy, or a
// colour temperature); giving them back is one PUT per light, at most 10 a second (the bridge's
// pace, reference §3.5), after the account's flag player has stopped.

/** The bridge takes about 10 light commands a second: one give-back PUT every this long. */
export const HUE_RESTORE_GAP_MS = 100;
/** Why a light the bridge no longer lists is left as it is. */
export const HUE_LIGHT_GONE = 'This Hue light is not on the bridge any more';

export type HueSavedLight =
  { readable: true; on: boolean; state: HueSavedState } | { readable: false; reason: string };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The saved fields the contract takes back (savedHueLight's, with no other field). */
function toSavedState(resource: Record<string, unknown>): { on: boolean; state: HueSavedState } {
  const { on, state } = savedHueLight(resource);
  const saved: HueSavedState = { on };
  if (typeof state.brightness === 'number') saved.brightness = Math.min(100, Math.max(0, state.brightness));
  if (typeof state.mirek === 'number') saved.mirek = Math.round(state.mirek);
  else if (state.xy) saved.xy = state.xy as { x: number; y: number };
  return { on, state: saved };
}

export function createHueRoomStates(deps: {
  lights: HueLightsClient;
  /** Stops what the account's flag player is playing (its pending steps would undo the give-back). */
  stopFlags: (userId: string) => void;
  gapMs?: number;
}) {
  const gapMs = deps.gapMs ?? HUE_RESTORE_GAP_MS;
  return {
    /** Each named light as it is now; one the bridge does not list cannot be read. */
    read: async (userId: string, lightIds: readonly string[]): Promise<Record<string, HueSavedLight>> => {
      const result = await deps.lights.clip(userId, 'GET', 'light');
      if (!result.ok) throw toHueHttpError(result.kind, result.detail, HUE_MESSAGES.unreachable);
      const resources = Array.isArray(result.value) ? (result.value as Record<string, unknown>[]) : [];
      const byId = new Map(resources.map((resource) => [String(resource.id), resource]));
      const saved: Record<string, HueSavedLight> = {};
      for (const id of new Set(lightIds)) {
        const resource = byId.get(id);
        saved[id] = resource
          ? { readable: true, ...toSavedState(resource) }
          : { readable: false, reason: HUE_LIGHT_GONE };
      }
      return saved;
    },

    /** Puts each light back as it was read, one PUT at a time; what failed is left, with why. */
    restore: async (
      userId: string,
      lights: readonly { id: string; state: HueSavedState }[],
    ): Promise<{ restored: string[]; left: { id: string; reason: string }[] }> => {
      deps.stopFlags(userId);
      const report = { restored: [] as string[], left: [] as { id: string; reason: string }[] };
      for (const [index, { id, state }] of lights.entries()) {
        if (index > 0) await sleep(gapMs);
        const result = await deps.lights.clip(
          userId,
          'PUT',
          `light/${encodeURIComponent(id)}`,
          hueRestoreCommand(state),
        );
        if (result.ok) report.restored.push(id);
        else
          report.left.push({
            id,
            reason:
              result.kind === 'not-found'
                ? HUE_LIGHT_GONE
                : toHueHttpError(result.kind, result.detail, HUE_MESSAGES.commandRefused).message,
          });
      }
      return report;
    },
  };
}
