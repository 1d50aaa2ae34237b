import crypto from 'node:crypto';
import {
  DEVICE_CODE_GRANT_TYPE,
  DEVICE_CODE_TTL_SECONDS,
  DEVICE_MAX_LINKED_PER_ACCOUNT,
  DEVICE_POLL_INTERVAL_SECONDS,
  USER_CODE_ALPHABET,
  USER_CODE_LENGTH,
  DeviceLightSchema,
  DeviceStateSchema,
  type DeviceLight,
  type DeviceState,
  type ErrorCode,
  type LinkedDevice,
  type PendingDevice,
} from '@flaglight/contract';
import type { EffectFlag } from '@flaglight/core';
import type { UserRow } from '../auth/repository.js';
import { createToken, hashToken } from '../auth/tokens.js';
import type { Db } from '../db/database.js';
import { conflict, HttpError, notFound, unauthorized } from '../http/errors.js';
import type { UserEvents } from '../live/user-events.js';
import { createDeviceCodesRepository, createDevicesRepository, type DeviceRow } from './repository.js';

/**
 * A poll sooner than this after the previous one gets `slow_down`: the interval less a second of
 * slack, so a companion that waits the interval is never told off for network jitter.
 */
export const MIN_POLL_GAP_MS = (DEVICE_POLL_INTERVAL_SECONDS - 1) * 1000;

/** `last_seen_at` is written at most this often per device (not on every request). */
export const LAST_SEEN_EVERY_MS = 60_000;

export const DEVICE_MESSAGES = {
  authorization_pending: 'Waiting for the user to link this companion.',
  slow_down: `Polled too fast: wait at least ${DEVICE_POLL_INTERVAL_SECONDS} seconds between polls.`,
  access_denied: 'The user cancelled linking this companion.',
  expired_token: 'This code has expired. Ask for a new one.',
  invalid_grant: 'This device code is unknown or has already been used.',
  unsupported_grant_type: `Only the device code grant (${DEVICE_CODE_GRANT_TYPE}) is supported.`,
  unknownCode: 'No companion is waiting for this code. Check the code it shows, or start linking again.',
  expiredCode: 'This code has expired. Start linking again from the companion.',
  notFound: 'No such companion on your account.',
  unlinked: 'This companion was unlinked from its account.',
  tooMany: `This account has ${DEVICE_MAX_LINKED_PER_ACCOUNT} linked companions, the most it can have. Unlink one in Settings → Devices, then link this one again.`,
} as const;

/** A token-route refusal: RFC 8628's code is both `error` and `code`; the words go in `error_description`. */
function grantError(code: Extract<ErrorCode, keyof typeof DEVICE_MESSAGES>): HttpError {
  return new HttpError(400, code, { error_description: DEVICE_MESSAGES[code] }, code);
}

/** `BCDF-GHJK` for show; the stored form has no dash. */
export function formatUserCode(code: string): string {
  return `${code.slice(0, 4)}-${code.slice(4)}`;
}

/** A user code as typed (any case, dash or spaces) in its stored form, or null when it cannot be one. */
export function normalizeUserCode(input: string): string | null {
  const letters = input.toUpperCase().replace(/[\s-]/g, '');
  if (letters.length !== USER_CODE_LENGTH) return null;
  return [...letters].every((c) => USER_CODE_ALPHABET.includes(c)) ? letters : null;
}

function drawUserCode(): string {
  let code = '';
  for (let i = 0; i < USER_CODE_LENGTH; i++)
    code += USER_CODE_ALPHABET[crypto.randomInt(USER_CODE_ALPHABET.length)];
  return code;
}

export interface DeviceServiceDeps {
  db: Db;
  publicUrl: string;
  now: () => Date;
  /** Whether a device has an open event stream on this instance. */
  isOnline: (deviceId: string) => boolean;
  /** Called after a device is unlinked: its open streams close. */
  onRevoked: (deviceId: string) => void;
  /** Account-wide stream events: `devices` when a companion's lights change, `test` for its streams. */
  events: Pick<UserEvents, 'publish'>;
  /**
   * A companion was linked that is the same computer as an earlier one of the account (same name and
   * platform, the earlier one unlinked or offline): its room delay goes over (decision 041).
   */
  onRelinked?: (link: { userId: string; fromDeviceId: string; toDeviceId: string }) => Promise<void>;
}

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

  /** A new link of a computer the account had linked before takes over its room delay; never fails the link. */
  async function carryOver(device: DeviceRow): Promise<void> {
    if (!deps.onRelinked) return;
    try {
      const twin = await devices.findEarlierTwin(device.user_id, device);
      // An earlier one that is online is another computer of the same name (two Pis): it keeps its own.
      if (!twin || (twin.revoked_at === null && deps.isOnline(twin.id))) return;
      await deps.onRelinked({ userId: device.user_id, fromDeviceId: twin.id, toDeviceId: device.id });
    } catch {
      // The room delay can be set again in Settings; the link itself stands.
    }
  }

  /** The pending request behind a typed user code, or a 404 saying why there is none. */
  async function pendingRequest(input: string, now: Date) {
    const userCode = normalizeUserCode(input);
    const row = userCode ? await codes.findByUserCode(userCode) : undefined;
    if (!row || row.status !== 'pending') throw notFound(DEVICE_MESSAGES.unknownCode);
    if (row.expires_at <= now.toISOString()) {
      throw new HttpError(404, DEVICE_MESSAGES.expiredCode, {}, 'expired_token');
    }
    return row;
  }

  return {
    async requestCode(info: { name: string; platform: string; version: string }) {
      const now = deps.now();
      await codes.deleteExpired(now);
      const deviceCode = createToken();
      const expiresAt = new Date(now.getTime() + DEVICE_CODE_TTL_SECONDS * 1000);
      for (;;) {
        const userCode = drawUserCode();
        const stored = await codes.insert({
          device_code_hash: hashToken(deviceCode),
          user_code: userCode,
          ...info,
          status: 'pending',
          user_id: null,
          created_at: now.toISOString(),
          expires_at: expiresAt.toISOString(),
          last_polled_at: null,
        });
        if (!stored) continue; // a user code still in use: draw again (19^8 = 1.7e10 of them)
        const shown = formatUserCode(userCode);
        const verificationUri = `${deps.publicUrl}/#/link`;
        return {
          device_code: deviceCode,
          user_code: shown,
          verification_uri: verificationUri,
          verification_uri_complete: `${verificationUri}?code=${shown}`,
          expires_in: DEVICE_CODE_TTL_SECONDS,
          interval: DEVICE_POLL_INTERVAL_SECONDS,
        };
      }
    },

    /** RFC 8628 §3.4/3.5: the token once the user approved, else the reason to keep or stop polling. */
    async poll(grantType: string, deviceCode: string) {
      if (grantType !== DEVICE_CODE_GRANT_TYPE) throw grantError('unsupported_grant_type');
      const now = deps.now();
      const hash = hashToken(deviceCode);
      const row = await codes.findByDeviceCode(hash);
      if (!row || row.status === 'used') throw grantError('invalid_grant');
      if (row.expires_at <= now.toISOString()) throw grantError('expired_token');
      if (row.status === 'denied') throw grantError('access_denied');
      if (row.status === 'pending') {
        const last = row.last_polled_at ? Date.parse(row.last_polled_at) : Number.NEGATIVE_INFINITY;
        await codes.recordPoll(hash, now);
        if (now.getTime() - last < MIN_POLL_GAP_MS) throw grantError('slow_down');
        throw grantError('authorization_pending');
      }
      const token = createToken();
      const device: DeviceRow = {
        id: crypto.randomUUID(),
        user_id: row.user_id!,
        name: row.name,
        platform: row.platform,
        version: row.version,
        token_hash: hashToken(token),
        created_at: now.toISOString(),
        last_seen_at: now.toISOString(),
        revoked_at: null,
        lights: null,
        lights_updated_at: null,
        state: null,
        state_updated_at: null,
      };
      if (!(await codes.redeem(hash, device))) throw grantError('invalid_grant');
      await carryOver(device);
      return {
        access_token: token,
        token_type: 'Bearer' as const,
        device: { id: device.id, name: device.name },
      };
    },

    async pending(userCode: string): Promise<PendingDevice> {
      const row = await pendingRequest(userCode, deps.now());
      return {
        name: row.name,
        platform: row.platform,
        version: row.version,
        userCode: formatUserCode(row.user_code),
        expiresAt: row.expires_at,
      };
    },

    async decide(userCode: string, decision: 'approved' | 'denied', userId: string): Promise<void> {
      const now = deps.now();
      const row = await pendingRequest(userCode, now);
      if (
        decision === 'approved' &&
        (await devices.listForUser(userId)).length >= DEVICE_MAX_LINKED_PER_ACCOUNT
      )
        throw conflict(DEVICE_MESSAGES.tooMany);
      if (!(await codes.decide(row.user_code, decision, userId, now))) {
        throw notFound(DEVICE_MESSAGES.unknownCode);
      }
    },

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
