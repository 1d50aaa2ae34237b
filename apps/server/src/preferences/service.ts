import {
  DEFAULT_PREFERENCES,
  PreferencesSchema,
  type Preferences,
  type PreferencesDocument,
} from '@flaglight/contract';
import type { Logger } from 'pino';
import type { Db } from '../db/database.js';
import type { UserEvents } from '../live/user-events.js';
import { createPreferencesRepository, type UserPreferencesRow } from './repository.js';

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
      // A row written by an older release may lack a field: the defaults fill it.
      const parsed = PreferencesSchema.safeParse({
        ...DEFAULT_PREFERENCES,
        ...(JSON.parse(row.data) as object),
      });
      if (parsed.success) preferences = parsed.data;
      else deps.logger.warn({ userId: row.user_id }, 'stored preferences are invalid; serving defaults');
    } catch {
      deps.logger.warn({ userId: row.user_id }, 'stored preferences are not JSON; serving defaults');
    }
    return { version: row.version, preferences, updatedAt: row.updated_at };
  }

  return {
    async get(userId: string): Promise<PreferencesDocument> {
      return toDocument(await repository.find(userId));
    },

    async save(userId: string, baseVersion: number, preferences: Preferences): Promise<SaveResult> {
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
    },
  };
}

export type PreferencesService = ReturnType<typeof createPreferencesService>;
