// The account's preferences as this companion uses them: the broadcast delay (with this room's
// offset), the lights chosen, how each flag looks and which sessions drive the lights; kept in the
// state file for the F1 live-timing fallback.
import { PreferencesDocumentSchema, type Preferences } from '@flaglight/contract';
import {
  DEFAULT_LIGHT_FOLLOW,
  getEffectiveDelayMs,
  type LightFollowSettings,
  type LookSet,
} from '@flaglight/core';
import type { LightsHub } from '../lights/lights-hub.js';
import type { ServerApi } from '../link/server-api.js';
import type { Logger } from '../system/log.js';
import type { StateFile } from '../system/state-file.js';

export interface AccountPreferences {
  /** The delay the lights play at now; 0 before any preferences are known. */
  delayMs: () => number;
  /**
   * The account's look set, read as each flag starts (a change applies to the next flag); undefined
   * (no preferences yet, or none chosen) plays Trackside.
   */
  looks: () => LookSet | undefined;
  /** Which sessions drive the lights and what a long green and a session's end do. */
  follow: () => LightFollowSettings;
  /** A preferences document (the server's, or the one kept): ignored when it does not parse. */
  apply: (raw: unknown) => void;
  /** Reads the account's preferences again; a refused token is handed to `refusedToken`. */
  refresh: (token: string) => Promise<void>;
}

export function createAccountPreferences(deps: {
  api: ServerApi;
  store: StateFile;
  hub: LightsHub;
  log: Logger;
  /** True when the error is the server refusing this token (the companion unlinks). */
  refusedToken(token: string, error: unknown): boolean;
}): AccountPreferences {
  const { api, store, hub, log } = deps;
  let preferences: Preferences | null = null;

  const delayMs = () => {
    if (!preferences) return 0;
    const base = getEffectiveDelayMs(preferences.delay);
    const offset = preferences.delayOffsetsMs[store.get().device?.id ?? ''] ?? 0;
    return Math.max(0, base + offset);
  };

  const apply = (raw: unknown) => {
    const parsed = PreferencesDocumentSchema.safeParse(raw);
    if (!parsed.success) return;
    const before = preferences ? delayMs() : null;
    preferences = parsed.data.preferences;
    // Kept for the F1 live-timing fallback: the user's delay still applies while the server is away.
    if (JSON.stringify(store.get().preferences) !== JSON.stringify(raw))
      store.update((s) => ({ ...s, preferences: raw }));
    hub.setSelection({
      selectedLights: preferences.selectedLights,
      sharedLightsDriver: preferences.sharedLightsDriver,
    });
    if (before !== delayMs()) log.info(`Broadcast delay: ${(delayMs() / 1000).toFixed(1)} s`);
  };

  const refresh = async (token: string) => {
    try {
      apply(await api.preferences(token));
    } catch (error) {
      if (deps.refusedToken(token, error)) return;
      log.warn(
        `Could not read the account's settings: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  };

  return {
    delayMs,
    looks: () => preferences?.looks,
    follow: () => preferences?.lightFollow ?? DEFAULT_LIGHT_FOLLOW,
    apply,
    refresh,
  };
}
