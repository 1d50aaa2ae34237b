import type { Preferences, PreferencesDocument } from '@flaglight/contract';
import type { QueryClient } from '@tanstack/react-query';
import { ApiError, apiCall } from '../api/client';
import { withRoomOffset } from './room-delay';

/** The account's preferences document in the query cache (the rooms' offsets are read from it). */
export const PREFERENCES_QUERY_KEY = ['preferences'] as const;

/** As the browser's preferences sync: a write refused as stale is merged and sent again this often. */
const MAX_CONFLICT_RETRIES = 3;

export const fetchPreferencesDocument = () => apiCall('GET /api/me/preferences');

/** A document pushed on the event stream replaces the cached one when it is newer. */
export function keepNewerPreferences(queryClient: QueryClient, data: unknown): void {
  const pushed = data as Partial<PreferencesDocument> | null;
  if (
    typeof pushed?.version !== 'number' ||
    typeof pushed.preferences !== 'object' ||
    pushed.preferences === null
  )
    return;
  const cached = queryClient.getQueryData<PreferencesDocument>(PREFERENCES_QUERY_KEY);
  if (!cached || cached.version < pushed.version) queryClient.setQueryData(PREFERENCES_QUERY_KEY, pushed);
}

/** Thrown when the offset a measurement needs on the account's current delay is outside the room's range. */
export class RoomOffsetOutOfRange extends Error {
  override readonly name = 'RoomOffsetOutOfRange';
  constructor(
    readonly offsetMs: number,
    readonly baseMs: number,
    readonly measuredMs: number,
  ) {
    super(`An extra delay of ${offsetMs} ms is outside the room's range`);
  }
}

/**
 * Writes one companion's offset on top of `base`, the document it was based on. A stale version
 * (409 `conflict`) is answered with the current document: the offset is set on that one and sent
 * again, so another page's change to anything else is never overwritten. An offset given as a
 * function of the document (a calibration: the measurement less the broadcast delay) is worked out
 * again on each document it is written on, so it always uses the account's delay at that moment.
 */
export async function saveRoomOffset(input: {
  base: PreferencesDocument;
  deviceId: string;
  offsetMs: number | ((preferences: Preferences) => number);
  linkedDeviceIds: readonly string[];
}): Promise<PreferencesDocument> {
  let base = input.base;
  for (let attempt = 0; ; attempt += 1) {
    const offsetMs = typeof input.offsetMs === 'function' ? input.offsetMs(base.preferences) : input.offsetMs;
    const preferences = withRoomOffset(base.preferences, input.deviceId, offsetMs, input.linkedDeviceIds);
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
