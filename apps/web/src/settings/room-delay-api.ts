import type { PreferencesDocument } from '@flaglight/contract';
import { ApiError, apiCall } from '../api/client';
import { withRoomOffset } from './room-delay';

/** The account's preferences document in the query cache (the rooms' offsets are read from it). */
export const PREFERENCES_QUERY_KEY = ['preferences'] as const;

/** As the browser's preferences sync: a write refused as stale is merged and sent again this often. */
const MAX_CONFLICT_RETRIES = 3;

export const fetchPreferencesDocument = () => apiCall('GET /api/me/preferences');

/**
 * Writes one companion's offset on top of `base`, the document it was based on. A stale version
 * (409 `conflict`) is answered with the current document: the offset is set on that one and sent
 * again, so another page's change to anything else is never overwritten.
 */
export async function saveRoomOffset(input: {
  base: PreferencesDocument;
  deviceId: string;
  offsetMs: number;
  linkedDeviceIds: readonly string[];
}): Promise<PreferencesDocument> {
  let base = input.base;
  for (let attempt = 0; ; attempt += 1) {
    const preferences = withRoomOffset(
      base.preferences,
      input.deviceId,
      input.offsetMs,
      input.linkedDeviceIds,
    );
    try {
      return await apiCall('PUT /api/me/preferences', { body: { version: base.version, preferences } });
    } catch (error) {
      const current = conflictDocument(error);
      if (!current || attempt >= MAX_CONFLICT_RETRIES) throw error;
      base = current;
    }
  }
}

function conflictDocument(error: unknown): PreferencesDocument | null {
  if (!(error instanceof ApiError) || error.code !== 'conflict') return null;
  const current = (error.body as { current?: PreferencesDocument } | undefined)?.current;
  return current && typeof current.version === 'number' && typeof current.preferences === 'object'
    ? current
    : null;
}
