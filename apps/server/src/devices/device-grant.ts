// The device authorization grant (RFC 8628): a companion asks for a code, the user approves it
// on the account's page, and the companion's polls then get its token.
import crypto from 'node:crypto';
import {
  DEVICE_CODE_GRANT_TYPE,
  DEVICE_CODE_TTL_SECONDS,
  DEVICE_MAX_LINKED_PER_ACCOUNT,
  DEVICE_POLL_INTERVAL_SECONDS,
  type PendingDevice,
} from '@flaglight/contract';
import { createToken, hashToken } from '../auth/tokens.js';
import { conflict, HttpError, notFound } from '../http/errors.js';
import { DEVICE_MESSAGES, grantError } from './messages.js';
import type {
  createDeviceCodesRepository,
  createDevicesRepository,
  DeviceCodeRow,
  DeviceRow,
} from './repository.js';
import type { DeviceServiceDeps } from './service-deps.js';
import { drawUserCode, formatUserCode, normalizeUserCode } from './user-codes.js';

/**
 * A poll sooner than this after the previous one gets `slow_down`: the interval less a second of
 * slack, so a companion that waits the interval is never told off for network jitter.
 */
export const MIN_POLL_GAP_MS = (DEVICE_POLL_INTERVAL_SECONDS - 1) * 1000;

/** The device an approved code links: new, with its token's hash. */
function newDevice(row: DeviceCodeRow, tokenHash: string, now: Date): DeviceRow {
  return {
    id: crypto.randomUUID(),
    user_id: row.user_id!,
    name: row.name,
    platform: row.platform,
    version: row.version,
    token_hash: tokenHash,
    created_at: now.toISOString(),
    last_seen_at: now.toISOString(),
    revoked_at: null,
    lights: null,
    lights_updated_at: null,
    state: null,
    state_updated_at: null,
  };
}

export function createDeviceGrant(
  deps: DeviceServiceDeps,
  codes: ReturnType<typeof createDeviceCodesRepository>,
  devices: ReturnType<typeof createDevicesRepository>,
) {
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
      const device = newDevice(row, hashToken(token), now);
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
  };
}
