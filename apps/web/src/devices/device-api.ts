import { USER_CODE_ALPHABET, USER_CODE_LENGTH } from '@flaglight/contract/limits';
import type { EffectFlag } from '@flaglight/core';
import { apiCall } from '../api/client';

/** The account's companions (`GET /api/devices`) in the query cache: Settings and the dashboard share it. */
export const DEVICES_QUERY_KEY = ['devices'] as const;

/** A code as typed (any case, spaces or a dash) in its shown form `XXXX-XXXX`, or null if it cannot be one. */
export function normalizeUserCode(input: string): string | null {
  const letters = input.toUpperCase().replace(/[\s-]/g, '');
  if (letters.length !== USER_CODE_LENGTH || ![...letters].every((c) => USER_CODE_ALPHABET.includes(c)))
    return null;
  return `${letters.slice(0, 4)}-${letters.slice(4)}`;
}

export const fetchPendingDevice = (code: string) => apiCall('GET /api/device/pending', { query: { code } });
export const approveDevice = (code: string) => apiCall('POST /api/device/approve', { body: { code } });
export const denyDevice = (code: string) => apiCall('POST /api/device/deny', { body: { code } });
export const fetchDevices = () => apiCall('GET /api/devices');
export const unlinkDevice = (id: string) => apiCall('DELETE /api/devices/:id', { params: { id } });
/** Plays a test flag on the account's online companions; answers how many it reached. */
export const testCompanions = (state: EffectFlag) => apiCall('POST /api/devices/test', { body: { state } });
