import type { Preferences, PreferencesDocument } from '@flaglight/contract';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { ApiError } from '../api/client';
import { localSettingsKey, readLocalSettings, updateLocalSettings } from './local-settings';
import { readUnsavedPreferences, SAVE_TEXTS } from './preferences-save-state';
import {
  receivePushedPreferences,
  retryPreferencesSave,
  startPreferencesSync,
  type PreferencesApi,
  type PreferencesSync,
} from './preferences-sync';
import { SAVE_RETRY_DELAYS_MS } from './save-retrier';

const DEFAULTS: Preferences = {
  delay: { enabled: true, seconds: 5 },
  autoConnect: true,
  selectedLights: {},
  hiddenLights: {},
  featureFlags: { centralizedPolling: false, webSocketUpdates: false, newUI: false },
  delayOffsetsMs: {},
  sharedLightsDriver: 'companion',
};

const doc = (version: number, over: Partial<Preferences> = {}): PreferencesDocument => ({
  version,
  preferences: { ...DEFAULTS, ...over },
  updatedAt: version === 0 ? null : '2026-11-25T12:00:00.000Z',
});

/** The server at its boundary: one stored document, versioned like the real one. */
function fakeServer(initial: PreferencesDocument) {
  let stored = initial;
  const saves: { version: number; preferences: Preferences }[] = [];
  const fetch = vi.fn(() => Promise.resolve(stored));
  const api: PreferencesApi = {
    fetch,
    save: vi.fn((version: number, preferences: Preferences) => {
      saves.push({ version, preferences });
      if (version !== stored.version) {
        return Promise.reject(
          new ApiError('changed elsewhere', 409, {
            error: 'changed elsewhere',
            code: 'conflict',
            current: stored,
          }),
        );
      }
      stored = { version: version + 1, preferences, updatedAt: '2026-11-25T12:00:01.000Z' };
      return Promise.resolve(stored);
    }),
  };
  return {
    api,
    fetch,
    saves,
    stored: () => stored,
    /** Another page or a companion writes. */
    writeElsewhere(over: Partial<Preferences>) {
      stored = { ...stored, version: stored.version + 1, preferences: { ...stored.preferences, ...over } };
      return stored;
    },
  };
}

let email: string;
let sync: PreferencesSync | undefined;
beforeEach(() => {
  email = `fan-${Math.random().toString(36).slice(2)}@example.com`;
});
afterEach(() => {
  sync?.stop();
  sync = undefined;
  window.localStorage.clear();
});

describe('preferences sync with the account', () => {
  test("the server's preferences are applied and written to the browser's local record", async () => {
    const server = fakeServer(
      doc(4, { delay: { enabled: false, seconds: 33 }, selectedLights: { lifx: ['bulb-1'], hue: ['h2'] } }),
    );
    sync = startPreferencesSync(email, server.api, { debounceMs: 0 });
    await vi.waitFor(() => expect(readLocalSettings(email).delaySeconds).toBe(33));
    expect(readLocalSettings(email)).toMatchObject({
      delayEnabled: false,
      selectedLifxDeviceIds: ['bulb-1'],
      selectedHueDeviceIds: ['h2'],
    });
    // The SPEC §3 key keeps the offline copy.
    expect(JSON.parse(window.localStorage.getItem(localSettingsKey(email))!)).toMatchObject({
      delaySeconds: 33,
    });
    expect(server.saves).toEqual([]);
  });

  test("a browser's own choices move to an account still at its defaults, once", async () => {
    updateLocalSettings(email, { delaySeconds: 20, selectedLifxDeviceIds: ['bulb-9'] });
    const server = fakeServer(doc(0));
    sync = startPreferencesSync(email, server.api, { debounceMs: 0 });
    await vi.waitFor(() => expect(server.stored().version).toBe(1));
    expect(server.stored().preferences).toMatchObject({
      delay: { seconds: 20 },
      selectedLights: { lifx: ['bulb-9'] },
    });
    sync.stop();

    // Next sign-in: the account's value wins over what this (or another) browser has.
    updateLocalSettings(email, { delaySeconds: 7 });
    sync = startPreferencesSync(email, server.api, { debounceMs: 0 });
    await vi.waitFor(() => expect(readLocalSettings(email).delaySeconds).toBe(20));
    expect(server.saves).toHaveLength(1);
  });

  test('an account with a saved document is not overwritten by what a browser has', async () => {
    updateLocalSettings(email, { delaySeconds: 11 });
    const server = fakeServer(doc(2, { delay: { enabled: true, seconds: 30 } }));
    sync = startPreferencesSync(email, server.api, { debounceMs: 0 });
    await vi.waitFor(() => expect(readLocalSettings(email).delaySeconds).toBe(30));
    expect(server.saves).toEqual([]);
  });

  test("this page's changes are sent with the version they were based on; what the browser does not know is kept", async () => {
    const server = fakeServer(
      doc(3, { selectedLights: { lifx_lan: ['lan-1'] }, delayOffsetsMs: { dev: 250 } }),
    );
    sync = startPreferencesSync(email, server.api, { debounceMs: 0 });
    await vi.waitFor(() => expect(server.fetch).toHaveBeenCalled());
    await vi.waitFor(() => expect(readLocalSettings(email).delaySeconds).toBe(5));
    updateLocalSettings(email, { delaySeconds: 12, autoConnect: false });
    await vi.waitFor(() => expect(server.stored().version).toBe(4));
    expect(server.saves[0]!.version).toBe(3);
    expect(server.stored().preferences).toMatchObject({
      delay: { seconds: 12 },
      autoConnect: false,
      selectedLights: { lifx_lan: ['lan-1'], lifx: [], hue: [] },
      delayOffsetsMs: { dev: 250 },
    });
  });

  test('a stale write is merged with the current document and sent again', async () => {
    const server = fakeServer(doc(1));
    sync = startPreferencesSync(email, server.api, { debounceMs: 0 });
    await vi.waitFor(() => expect(server.fetch).toHaveBeenCalled());
    await new Promise((r) => setTimeout(r, 0));
    // A companion selected a light meanwhile; this page changes the delay.
    server.writeElsewhere({ selectedLights: { hue: ['h7'] } });
    updateLocalSettings(email, { delaySeconds: 45 });
    await vi.waitFor(() => expect(server.stored().version).toBe(3));
    expect(server.saves.map((s) => s.version)).toEqual([1, 2]);
    expect(server.stored().preferences).toMatchObject({
      delay: { seconds: 45 },
      selectedLights: { hue: ['h7'] },
    });
    expect(readLocalSettings(email)).toMatchObject({ delaySeconds: 45, selectedHueDeviceIds: ['h7'] });
  });

  test('the companion lights and who drives shared lights travel both ways; an absent companion provider stays absent', async () => {
    const server = fakeServer(
      doc(2, {
        selectedLights: { lifx: ['d073d5000001'], lifx_lan: ['d073d5000001'] },
        hiddenLights: { hue_local: ['uuid-9'] },
        sharedLightsDriver: 'browser',
      }),
    );
    sync = startPreferencesSync(email, server.api, { debounceMs: 0 });
    await vi.waitFor(() => expect(readLocalSettings(email).sharedLightsDriver).toBe('browser'));
    expect(readLocalSettings(email)).toMatchObject({
      companionSelectedLights: { lifx_lan: ['d073d5000001'] },
      companionHiddenLights: { hue_local: ['uuid-9'] },
    });
    expect(readLocalSettings(email).companionSelectedLights).not.toHaveProperty('hue_local');

    updateLocalSettings(email, {
      sharedLightsDriver: 'companion',
      companionSelectedLights: { lifx_lan: ['d073d5000001', 'd073d5000002'], hue_local: [] },
    });
    await vi.waitFor(() => expect(server.stored().version).toBe(3));
    expect(server.stored().preferences).toMatchObject({
      sharedLightsDriver: 'companion',
      selectedLights: { lifx: ['d073d5000001'], lifx_lan: ['d073d5000001', 'd073d5000002'], hue_local: [] },
      hiddenLights: { hue_local: ['uuid-9'] },
    });

    // No companion selection at all: the keys go, so the companion drives every light it finds.
    updateLocalSettings(email, { companionSelectedLights: {} });
    await vi.waitFor(() => expect(server.stored().version).toBe(4));
    expect(Object.keys(server.stored().preferences.selectedLights).sort()).toEqual(['govee', 'hue', 'lifx']);
  });

  test('a stored document from before sharedLightsDriver reads as companion', async () => {
    const { sharedLightsDriver: _dropped, ...older } = DEFAULTS;
    const server = fakeServer({ version: 3, preferences: older as Preferences, updatedAt: null });
    updateLocalSettings(email, { sharedLightsDriver: 'browser' });
    sync = startPreferencesSync(email, server.api, { debounceMs: 0 });
    await vi.waitFor(() => expect(server.fetch).toHaveBeenCalled());
    await vi.waitFor(() => expect(readLocalSettings(email).sharedLightsDriver).toBe('companion'));
  });

  test("a stale write keeps a companion's new selection and this page's choice of driver", async () => {
    const server = fakeServer(doc(1));
    sync = startPreferencesSync(email, server.api, { debounceMs: 0 });
    await vi.waitFor(() => expect(server.fetch).toHaveBeenCalled());
    await new Promise((r) => setTimeout(r, 0));
    server.writeElsewhere({ selectedLights: { hue_local: ['uuid-1'] } });
    updateLocalSettings(email, { sharedLightsDriver: 'browser' });
    await vi.waitFor(() => expect(server.stored().version).toBe(3));
    expect(server.stored().preferences).toMatchObject({
      sharedLightsDriver: 'browser',
      selectedLights: { hue_local: ['uuid-1'] },
    });
  });

  test('a document pushed on the event stream is applied to the open page, an older one is not', async () => {
    const server = fakeServer(doc(5));
    sync = startPreferencesSync(email, server.api, { debounceMs: 0 });
    await vi.waitFor(() => expect(server.fetch).toHaveBeenCalled());
    await new Promise((r) => setTimeout(r, 0));
    receivePushedPreferences(email, doc(6, { delay: { enabled: true, seconds: 25 }, autoConnect: false }));
    expect(readLocalSettings(email)).toMatchObject({ delaySeconds: 25, autoConnect: false });
    receivePushedPreferences(email, doc(4, { delay: { enabled: true, seconds: 1 } }));
    receivePushedPreferences(email, { version: 'x' });
    receivePushedPreferences('someone-else@example.com', doc(9, { delay: { enabled: true, seconds: 2 } }));
    expect(readLocalSettings(email).delaySeconds).toBe(25);
    // Applying what arrived is not sent back.
    await new Promise((r) => setTimeout(r, 10));
    expect(server.saves).toEqual([]);
  });
});

describe('a change the server does not take', () => {
  /** The fake server, refusing or dropping writes until `heal()`. */
  function flakyServer(initial: PreferencesDocument, failure: () => Error) {
    const server = fakeServer(initial);
    const save = server.api.save.bind(server.api);
    let broken = true;
    const flaky = vi.fn((version: number, preferences: Preferences) =>
      broken ? Promise.reject(failure()) : save(version, preferences),
    );
    server.api.save = flaky;
    return { ...server, saveCalls: flaky, heal: () => (broken = false) };
  }

  test('is shown where it was made with the reason, kept on the page, and saved by Retry', async () => {
    const server = flakyServer(
      doc(2),
      () =>
        new ApiError('preferences.selectedLights: at most 8 providers', 400, {
          error: 'preferences.selectedLights: at most 8 providers',
          code: 'invalid_input',
        }),
    );
    sync = startPreferencesSync(email, server.api, { debounceMs: 0 });
    await vi.waitFor(() => expect(server.fetch).toHaveBeenCalled());
    await vi.waitFor(() => expect(readLocalSettings(email).delaySeconds).toBe(5));
    updateLocalSettings(email, { companionSelectedLights: { wled: ['a0b765d00001'] } });
    await vi.waitFor(() => expect(readUnsavedPreferences(email)).not.toBeNull());
    expect(readUnsavedPreferences(email)).toEqual({
      areas: ['lights'],
      reason: 'The server refused it: preferences.selectedLights: at most 8 providers',
      retrying: false,
    });
    // The change stays on the page, and a refusal is not hammered on a timer.
    expect(readLocalSettings(email).companionSelectedLights).toEqual({ wled: ['a0b765d00001'] });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(server.saveCalls).toHaveBeenCalledTimes(1);

    server.heal();
    retryPreferencesSave(email);
    await vi.waitFor(() => expect(server.stored().version).toBe(3));
    expect(server.stored().preferences.selectedLights.wled).toEqual(['a0b765d00001']);
    expect(readUnsavedPreferences(email)).toBeNull();
  });

  test('a dropped connection is tried again when the network comes back, and a later change shows in its own place', async () => {
    const server = flakyServer(doc(1), () => new TypeError('Failed to fetch'));
    sync = startPreferencesSync(email, server.api, { debounceMs: 0 });
    await vi.waitFor(() => expect(server.fetch).toHaveBeenCalled());
    updateLocalSettings(email, { delaySeconds: 9 });
    await vi.waitFor(() => expect(readUnsavedPreferences(email)?.areas).toEqual(['delay']));
    expect(readUnsavedPreferences(email)?.reason).toBe(SAVE_TEXTS.offline);
    updateLocalSettings(email, { autoConnect: false });
    await vi.waitFor(() => expect(readUnsavedPreferences(email)?.areas).toEqual(['delay', 'autoConnect']));

    server.heal();
    window.dispatchEvent(new Event('online'));
    await vi.waitFor(() =>
      expect(server.stored().preferences).toMatchObject({ delay: { seconds: 9 }, autoConnect: false }),
    );
    expect(readUnsavedPreferences(email)).toBeNull();
  });

  test('a server fault is tried again by itself after a short wait', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const server = flakyServer(doc(1), () => new ApiError('down', 503, { error: 'down' }));
      sync = startPreferencesSync(email, server.api, { debounceMs: 0 });
      await vi.waitFor(() => expect(server.fetch).toHaveBeenCalled());
      updateLocalSettings(email, { delaySeconds: 14 });
      await vi.advanceTimersByTimeAsync(0);
      await vi.waitFor(() => expect(readUnsavedPreferences(email)?.reason).toBe(SAVE_TEXTS.serverFault));
      server.heal();
      await vi.advanceTimersByTimeAsync(SAVE_RETRY_DELAYS_MS[0]);
      await vi.waitFor(() => expect(server.stored().preferences.delay.seconds).toBe(14));
      expect(readUnsavedPreferences(email)).toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });

  test('a change made while the server could not be read at all is shown, and saved once it answers', async () => {
    const server = fakeServer(doc(3, { autoConnect: true }));
    const fetch = server.api.fetch.bind(server.api);
    let reachable = false;
    const flaky = vi.fn(() => (reachable ? fetch() : Promise.reject(new TypeError('Failed to fetch'))));
    server.api.fetch = flaky;
    sync = startPreferencesSync(email, server.api, { debounceMs: 0 });
    await vi.waitFor(() => expect(flaky).toHaveBeenCalled());
    updateLocalSettings(email, { autoConnect: false });
    await vi.waitFor(() => expect(readUnsavedPreferences(email)?.areas).toEqual(['autoConnect']));
    reachable = true;
    retryPreferencesSave(email);
    await vi.waitFor(() => expect(server.stored().preferences.autoConnect).toBe(false));
    expect(readUnsavedPreferences(email)).toBeNull();
  });
});
