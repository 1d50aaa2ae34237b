import { USER_CODE_ALPHABET, USER_CODE_LENGTH } from '@flaglight/contract/limits';
import { apiCall } from '../api/client';

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
