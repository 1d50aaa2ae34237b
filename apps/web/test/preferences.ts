import type { Preferences, PreferencesDocument } from '@flaglight/contract';

/** A new account's preferences, as the server serves them (the contract's values stay out of the web bundle). */
export const DEFAULT_TEST_PREFERENCES: Preferences = {
  delay: { enabled: true, seconds: 5 },
  autoConnect: true,
  selectedLights: {},
  hiddenLights: {},
  featureFlags: { centralizedPolling: false, webSocketUpdates: false, newUI: false },
  delayOffsetsMs: {},
  sharedLightsDriver: 'companion',
};

export function buildPreferencesDocument(
  version: number,
  over: Partial<Preferences> = {},
): PreferencesDocument {
  return {
    version,
    preferences: { ...DEFAULT_TEST_PREFERENCES, ...over },
    updatedAt: version === 0 ? null : '2026-11-25T14:00:00.000Z',
  };
}
