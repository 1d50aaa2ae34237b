import type { GoveeDiagnostics, GoveeLightView, GoveeSavedState } from '@flaglight/contract';
import type { EffectFlag } from '@flaglight/core';
import { HttpError } from '../http/errors.js';
import { planFlag, toGoveeRgb, type GoveeLook } from './budget.js';
import type { GoveeDevice } from './client.js';
import { createGoveeConnections, sealContext } from './connections.js';
import { connectedDiagnostics, diagnosticProblem, notConnectedDiagnostics } from './diagnostics.js';
import { toGoveeHttpError } from './errors.js';
import { checkGoveeApiKey } from './key.js';
import type { GoveeServiceDeps } from './service-deps.js';

export type { GoveeServiceDeps } from './service-deps.js';

export { GOVEE_LIST_TTL_MS } from './connections.js';

function toView(device: GoveeDevice): GoveeLightView {
  return {
    id: device.device,
    label: device.deviceName,
    name: device.deviceName,
    type: device.sku,
    connected: true,
  };
}

/**
 * Each account's Govee cloud connection: the API key sealed at rest (never logged, never
 * returned), the device list cached per account, and one paced sender per account
 * (`sender.ts`) made with that account's key only.
 */
export function createGoveeService(deps: GoveeServiceDeps) {
  const connections = createGoveeConnections(deps);
  const nowMs = () => deps.now().getTime();

  return {
    status: async (userId: string): Promise<{ connected: boolean }> => ({
      connected: (await connections.readKey(userId)) !== null,
    }),

    /** Checks the key by listing its devices (one call), then stores it sealed. */
    connect: async (userId: string, typed: string): Promise<{ success: true; lights: number }> => {
      const checked = checkGoveeApiKey(typed);
      if (!checked.ok) throw new HttpError(400, checked.message, {}, 'invalid_input');
      const apiKey = checked.key;
      const result = await deps.client.listDevices(apiKey);
      if (!result.ok) {
        connections.logFailure(userId, result);
        throw toGoveeHttpError(result.kind, { connecting: true, retryAfterMs: result.retryAfterMs });
      }
      const sealed = deps.box.seal(apiKey, sealContext(userId));
      await connections.repo.save(userId, sealed, deps.now());
      connections.adopt(userId, sealed, apiKey, result);
      return { success: true, lights: result.value.length };
    },

    disconnect: async (userId: string): Promise<void> => {
      connections.drop(userId);
      await connections.repo.remove(userId);
    },

    /** `GET /api/govee/lights`: always asked for (the user wants the list as it is now). */
    listLights: async (userId: string): Promise<GoveeLightView[]> =>
      (await connections.devices(userId, { fresh: true })).devices.map(toView),

    setState: async (
      userId: string,
      body: {
        lightIds: string[];
        on?: boolean | undefined;
        color?: { r: number; g: number; b: number } | undefined;
        brightness?: number | undefined;
      },
    ): Promise<number> => {
      const ids = [...new Set(body.lightIds)];
      const link = await connections.target(userId, ids);
      const look: GoveeLook = {
        on: body.on ?? true,
        ...(body.color ? { rgb: toGoveeRgb(body.color) } : {}),
        ...(body.brightness === undefined ? {} : { brightness: body.brightness }),
      };
      link.setLook(ids, look);
      return ids.length;
    },

    /**
     * A flag's settled colour in the account's look set on these lights, as much as the day's budget
     * allows (budget.ts). The looks are read at each flag, so a change mid-session applies to the next.
     */
    playFlag: async (userId: string, lightIds: readonly string[], flag: EffectFlag) => {
      const ids = [...new Set(lightIds)];
      const link = await connections.target(userId, ids);
      const mode = link.mode();
      const plan = planFlag(flag, mode, await deps.looksOf?.(userId));
      if (plan.send && plan.look) link.playLook(ids, plan.look, plan.restoreAfterMs);
      return { sent: plan.send, mode, note: plan.note, lights: ids.length };
    },

    /** "As it was": each device read before a session's first change (one state call each). */
    readStates: async (userId: string, lightIds: readonly string[]) => {
      const ids = [...new Set(lightIds)];
      const link = await connections.target(userId, ids);
      const read = await Promise.all(ids.map(async (id) => [id, await link.readState(id)] as const));
      return Object.fromEntries(read);
    },

    /** Gives the devices back their saved looks, paced like every other update. */
    restoreStates: async (userId: string, lights: readonly { id: string; state: GoveeSavedState }[]) => {
      const link = await connections.target(
        userId,
        lights.map((light) => light.id),
      );
      link.restore(lights.map(({ id, state }) => ({ id, look: { ...state } })));
      return { restored: lights.map((light) => light.id), left: [] };
    },

    diagnostics: async (userId: string): Promise<GoveeDiagnostics> => {
      const sealed = await connections.readKey(userId);
      const at = nowMs();
      if (!sealed) return notConnectedDiagnostics(at);
      let lights = 0;
      let problem: ReturnType<typeof diagnosticProblem> | null = null;
      try {
        lights = (await connections.devices(userId)).devices.length;
      } catch (error) {
        problem = diagnosticProblem(error);
      }
      return connectedDiagnostics(lights, problem, connections.linkOf(userId)?.status(), at);
    },

    close: (): void => connections.closeAll(),
  };
}

export type GoveeService = ReturnType<typeof createGoveeService>;
