import {
  DeviceLightSchema,
  DeviceStateSchema,
  type DeviceLight,
  type DeviceState,
  type LinkedDevice,
} from '@flaglight/contract';
import type { EffectFlag } from '@flaglight/core';
import type { UserRow } from '../auth/repository.js';
import { hashToken } from '../auth/tokens.js';
import { notFound, unauthorized } from '../http/errors.js';
import { createDeviceGrant } from './device-grant.js';
import { DEVICE_MESSAGES } from './messages.js';
import { createDeviceCodesRepository, createDevicesRepository, type DeviceRow } from './repository.js';
import type { DeviceServiceDeps } from './service-deps.js';

export type { DeviceServiceDeps } from './service-deps.js';

export { MIN_POLL_GAP_MS } from './device-grant.js';
export { DEVICE_MESSAGES } from './messages.js';
export { formatUserCode, normalizeUserCode } from './user-codes.js';

/** `last_seen_at` is written at most this often per device (not on every request). */
export const LAST_SEEN_EVERY_MS = 60_000;

/** A stored light list as the contract's lights; anything unreadable (never written by us) is none. */
function parseLights(json: string | null): DeviceLight[] {
  if (json === null) return [];
  try {
    const parsed = DeviceLightSchema.array().safeParse(JSON.parse(json));
    return parsed.success ? parsed.data : [];
  } catch {
    return [];
  }
}

/** A stored state as the contract's; anything unreadable (or from before the field) is none. */
function parseState(json: string | null): DeviceState | null {
  if (json === null) return null;
  try {
    const parsed = DeviceStateSchema.safeParse(JSON.parse(json));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** The linked device behind a bearer token. */
export interface DeviceCaller {
  device: DeviceRow;
  user: UserRow;
}

/** The device authorization grant (RFC 8628) and the linked companions of an account. */
export function createDeviceService(deps: DeviceServiceDeps) {
  const codes = createDeviceCodesRepository(deps.db);
  const devices = createDevicesRepository(deps.db);
  const grant = createDeviceGrant(deps, codes, devices);

  return {
    ...grant,

    async list(userId: string): Promise<LinkedDevice[]> {
      const rows = await devices.listForUser(userId);
      return rows.map((row) => ({
        id: row.id,
        name: row.name,
        platform: row.platform,
        version: row.version,
        linkedAt: row.created_at,
        lastSeenAt: row.last_seen_at,
        online: deps.isOnline(row.id),
        lights: parseLights(row.lights),
        lightsUpdatedAt: row.lights_updated_at,
        state: parseState(row.state),
        stateUpdatedAt: row.state_updated_at,
      }));
    },

    async revoke(id: string, userId: string): Promise<void> {
      if (!(await devices.revoke(id, userId, deps.now()))) throw notFound(DEVICE_MESSAGES.notFound);
      deps.onRevoked(id);
      deps.events.publish(userId, { type: 'devices' });
    },

    /** What a companion says of itself: stored; the account's pages hear of a change. */
    async reportState(caller: { deviceId: string; userId: string }, state: DeviceState): Promise<void> {
      const { bridgePort, paused, stream, message, showing } = state;
      const json = JSON.stringify({ bridgePort, paused, stream, message, showing });
      const stored = await devices.setState(caller.deviceId, json, deps.now());
      if (!stored) throw unauthorized(DEVICE_MESSAGES.unlinked);
      if (stored.previous !== json) deps.events.publish(caller.userId, { type: 'devices' });
    },

    /** A companion's report of its LAN lights: stored; the account's pages hear of a change. */
    async reportLights(caller: { deviceId: string; userId: string }, lights: DeviceLight[]): Promise<void> {
      const json = JSON.stringify(
        lights.map(({ provider, id, label, reachable }) => ({ provider, id, label, reachable })),
      );
      const stored = await devices.setLights(caller.deviceId, json, deps.now());
      if (!stored) throw unauthorized(DEVICE_MESSAGES.unlinked);
      if (stored.previous !== json) deps.events.publish(caller.userId, { type: 'devices' });
    },

    /**
     * Asks the account's companions to play a test flag; returns how many of them are online on
     * this instance (others, through Redis, hear it too but are not counted).
     */
    async test(userId: string, state: EffectFlag): Promise<number> {
      deps.events.publish(userId, {
        type: 'test',
        data: { state, requestedAt: deps.now().toISOString() },
      });
      const rows = await devices.listForUser(userId);
      return rows.filter((row) => deps.isOnline(row.id)).length;
    },

    async isLinked(deviceId: string): Promise<boolean> {
      return devices.isLinked(deviceId);
    },

    /** The linked device a bearer token belongs to (undefined: unknown or unlinked); notes it was seen. */
    async authenticate(token: string): Promise<DeviceCaller | undefined> {
      const found = await devices.findByToken(hashToken(token));
      if (!found) return undefined;
      const now = deps.now();
      const seen = found.device.last_seen_at ? Date.parse(found.device.last_seen_at) : 0;
      if (now.getTime() - seen >= LAST_SEEN_EVERY_MS) {
        await devices.touch(found.device.id, now);
        found.device.last_seen_at = now.toISOString();
      }
      return found;
    },
  };
}

export type DeviceService = ReturnType<typeof createDeviceService>;
