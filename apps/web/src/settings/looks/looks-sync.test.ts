import {
  DEFAULT_PREFERENCES,
  PreferencesSchema,
  type Preferences,
  type PreferencesDocument,
} from '@flaglight/contract';
import { CALM, DEFAULT_LIGHT_FOLLOW, NIGHT_RACE } from '@flaglight/core';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { ApiError } from '../../api/client';
import { localSettingsKey, readLocalSettings, updateLocalSettings } from '../local-settings';
import { readUnsavedPreferences } from '../preferences-save-state';
import { startPreferencesSync, type PreferencesApi, type PreferencesSync } from '../preferences-sync';

/** The server at its boundary: one versioned document, and the contract's check of every write. */
function fakeServer(initial: Preferences, options: { refuse?: boolean } = {}) {
  let stored: PreferencesDocument = { version: 2, preferences: initial, updatedAt: null };
  const saves: Preferences[] = [];
  let fetches = 0;
  const api: PreferencesApi = {
    fetch: () => {
      fetches += 1;
      return Promise.resolve(stored);
    },
    save: (version: number, preferences: Preferences) => {
      saves.push(preferences);
      if (options.refuse) return Promise.reject(new ApiError('down', 503, { error: 'down' }));
      const checked = PreferencesSchema.parse(preferences);
      stored = { version: version + 1, preferences: checked, updatedAt: '2026-11-29T12:00:00.000Z' };
      return Promise.resolve(stored);
    },
  };
  return { api, saves, stored: () => stored, fetched: () => fetches };
}

let email: string;
let sync: PreferencesSync | undefined;
beforeEach(() => {
  email = `looks-${Math.random().toString(36).slice(2)}@example.com`;
});
afterEach(() => {
  sync?.stop();
  sync = undefined;
  window.localStorage.clear();
});

describe('the look set and the follow settings travel with the account', () => {
  test("the account's looks and follow settings come to this browser", async () => {
    const follow = { ...DEFAULT_LIGHT_FOLLOW, sessions: ['race' as const], sessionEnd: 'off' as const };
    const server = fakeServer({ ...DEFAULT_PREFERENCES, looks: CALM, lightFollow: follow });
    sync = startPreferencesSync(email, server.api, { debounceMs: 0 });
    await vi.waitFor(() => expect(readLocalSettings(email).looks).toEqual(CALM));
    expect(readLocalSettings(email).lightFollow).toEqual(follow);
    expect(server.saves).toEqual([]);
  });

  test("this page's choice is saved; removing it removes the account's key (Trackside again)", async () => {
    const server = fakeServer(DEFAULT_PREFERENCES);
    sync = startPreferencesSync(email, server.api, { debounceMs: 0 });
    await vi.waitFor(() => expect(server.fetched()).toBeGreaterThan(0));
    await new Promise((resolve) => setTimeout(resolve, 0));
    updateLocalSettings(email, { looks: NIGHT_RACE });
    await vi.waitFor(() => expect(server.stored().version).toBe(3));
    expect(server.stored().preferences.looks).toEqual(NIGHT_RACE);
    expect(server.stored().preferences).not.toHaveProperty('lightFollow');

    updateLocalSettings(email, { looks: undefined });
    await vi.waitFor(() => expect(server.stored().version).toBe(4));
    expect(server.stored().preferences).not.toHaveProperty('looks');
  });

  test('a look set the contract refuses is dropped on the way in and never sent', async () => {
    const broken = { ...CALM, brightnessCap: 400 };
    window.localStorage.setItem(localSettingsKey(email), JSON.stringify({ looks: broken, delaySeconds: 9 }));
    expect(readLocalSettings(email).looks).toBeUndefined();
    expect(readLocalSettings(email).delaySeconds).toBe(9);
    updateLocalSettings(email, { looks: broken });
    expect(readLocalSettings(email).looks).toBeUndefined();
  });

  test('a look set the account did not take is shown as unsaved beside the looks', async () => {
    const server = fakeServer(DEFAULT_PREFERENCES, { refuse: true });
    sync = startPreferencesSync(email, server.api, { debounceMs: 0 });
    await vi.waitFor(() => expect(server.fetched()).toBeGreaterThan(0));
    await new Promise((resolve) => setTimeout(resolve, 0));
    updateLocalSettings(email, { looks: CALM });
    await vi.waitFor(() => expect(readUnsavedPreferences(email)?.areas).toEqual(['looks']));
    updateLocalSettings(email, { lightFollow: { ...DEFAULT_LIGHT_FOLLOW, sessionEnd: 'off' } });
    await vi.waitFor(() => expect(readUnsavedPreferences(email)?.areas).toEqual(['looks', 'lightFollow']));
  });
});
