import {
  DEFAULT_PREFERENCES,
  PREFERENCES_MAX_DEVICE_OFFSETS,
  PreferencesSchema,
  type Preferences,
  type PreferencesDocument,
} from '@flaglight/contract';
import { LIGHT_PROVIDERS } from '@flaglight/core';
import type { Logger } from 'pino';
import type { Db } from '../db/database.js';
import type { UserEvents } from '../live/user-events.js';
import { createPreferencesRepository, type UserPreferencesRow } from './repository.js';

/** A stored light list with only the providers of today's list (anything else passes through to the schema). */
function knownProvidersOnly(lists: unknown): unknown {
  if (typeof lists !== 'object' || lists === null || Array.isArray(lists)) return lists;
  const known: readonly string[] = LIGHT_PROVIDERS;
  return Object.fromEntries(Object.entries(lists).filter(([provider]) => known.includes(provider)));
}

export type SaveResult =
  { ok: true; document: PreferencesDocument } | { ok: false; current: PreferencesDocument };

/**
 * An account's preferences, shared by its browsers and companions: read, written with optimistic
 * concurrency, and each accepted write pushed to every open stream of the account.
 */
export function createPreferencesService(deps: {
  db: Db;
  events: UserEvents;
  logger: Logger;
  now: () => Date;
}) {
  const repository = createPreferencesRepository(deps.db);

  function toDocument(row: UserPreferencesRow | undefined): PreferencesDocument {
    if (!row) return { version: 0, preferences: DEFAULT_PREFERENCES, updatedAt: null };
    let preferences: Preferences = DEFAULT_PREFERENCES;
    try {
      // A row written by an older release may lack a field (the defaults fill it) or name a provider
      // this release no longer knows (that list is dropped, the rest kept).
      const stored = { ...DEFAULT_PREFERENCES, ...(JSON.parse(row.data) as object) } as Record<
        string,
        unknown
      >;
      const parsed = PreferencesSchema.safeParse({
        ...stored,
        selectedLights: knownProvidersOnly(stored.selectedLights),
        hiddenLights: knownProvidersOnly(stored.hiddenLights),
      });
      if (parsed.success) preferences = parsed.data;
      else deps.logger.warn({ userId: row.user_id }, 'stored preferences are invalid; serving defaults');
    } catch {
      deps.logger.warn({ userId: row.user_id }, 'stored preferences are not JSON; serving defaults');
    }
    return { version: row.version, preferences, updatedAt: row.updated_at };
  }

  async function save(userId: string, baseVersion: number, preferences: Preferences): Promise<SaveResult> {
    const row = await repository.write({
      userId,
      baseVersion,
      data: JSON.stringify(preferences),
      now: deps.now(),
    });
    if (!row) return { ok: false, current: toDocument(await repository.find(userId)) };
    const document = toDocument(row);
    deps.events.publish(userId, { type: 'preferences', document });
    return { ok: true, document };
  }

  return {
    /**
     * The room delay of one companion given to another (a relink of the same computer), unless the
     * new one has one or the account is at its limit of offsets; a stale write is tried again.
     */
    async carryRoomDelay(userId: string, fromDeviceId: string, toDeviceId: string): Promise<void> {
      for (let attempt = 0; attempt < 3; attempt += 1) {
        const current = toDocument(await repository.find(userId));
        const offsets = current.preferences.delayOffsetsMs;
        const offset = offsets[fromDeviceId];
        if (offset === undefined || offsets[toDeviceId] !== undefined) return;
        if (Object.keys(offsets).length >= PREFERENCES_MAX_DEVICE_OFFSETS) return;
        const preferences = { ...current.preferences, delayOffsetsMs: { ...offsets, [toDeviceId]: offset } };
        const result = await save(userId, current.version, preferences);
        if (result.ok) return;
      }
    },

    async get(userId: string): Promise<PreferencesDocument> {
      return toDocument(await repository.find(userId));
    },

    save,
  };
}

export type PreferencesService = ReturnType<typeof createPreferencesService>;
