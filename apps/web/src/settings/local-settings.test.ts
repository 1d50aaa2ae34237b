import { act, renderHook } from '@testing-library/react';
import { describe, expect, test } from 'vitest';
import {
  DEFAULT_LOCAL_SETTINGS,
  localSettingsKey,
  readLocalSettings,
  updateLocalSettings,
  useLocalSettings,
} from './local-settings';

const FAN = 'fan@example.com';

describe('local settings (SPEC §3)', () => {
  test('defaults: delay on at 5 s, no lights selected or hidden, auto-connect on, every feature flag off', () => {
    expect(readLocalSettings(FAN)).toEqual({
      selectedLifxDeviceIds: [],
      selectedHueDeviceIds: [],
      selectedGoveeDeviceIds: [],
      delaySeconds: 5,
      delayEnabled: true,
      autoConnect: true,
      screenLight: true,
      screenFlashing: false,
      hiddenLifxDeviceIds: [],
      hiddenHueDeviceIds: [],
      hiddenGoveeDeviceIds: [],
      companionSelectedLights: {},
      companionHiddenLights: {},
      sharedLightsDriver: 'companion',
      featureFlags: { centralizedPolling: false, webSocketUpdates: false, newUI: false },
    });
  });

  test('are kept per user e-mail', () => {
    updateLocalSettings(FAN, { delaySeconds: 30 });
    expect(readLocalSettings(FAN).delaySeconds).toBe(30);
    expect(readLocalSettings('other@example.com').delaySeconds).toBe(5);
    expect(JSON.parse(window.localStorage.getItem(localSettingsKey(FAN)) ?? '{}')).toMatchObject({
      delaySeconds: 30,
    });
  });

  test('corrupt JSON falls back to the defaults', () => {
    window.localStorage.setItem(localSettingsKey(FAN), '{not json');
    expect(readLocalSettings(FAN)).toEqual(DEFAULT_LOCAL_SETTINGS);
  });

  test('a wrong field falls back on its own, keeping the good ones', () => {
    window.localStorage.setItem(
      localSettingsKey(FAN),
      JSON.stringify({ delaySeconds: -4, delayEnabled: false, selectedHueDeviceIds: ['1', 2] }),
    );
    const settings = readLocalSettings(FAN);
    expect(settings.delaySeconds).toBe(5);
    expect(settings.delayEnabled).toBe(false);
    expect(settings.selectedHueDeviceIds).toEqual([]);
  });

  test('a feature-flag patch merges with the others', () => {
    updateLocalSettings(FAN, {
      featureFlags: { centralizedPolling: false, webSocketUpdates: true, newUI: false },
    });
    updateLocalSettings(FAN, (current) => ({
      featureFlags: { ...current.featureFlags, newUI: true },
    }));
    expect(readLocalSettings(FAN).featureFlags).toEqual({
      centralizedPolling: false,
      webSocketUpdates: true,
      newUI: true,
    });
  });

  test('every hook of the user sees an update; signed out gives defaults and ignores updates', () => {
    const first = renderHook(() => useLocalSettings(FAN));
    const second = renderHook(() => useLocalSettings(FAN));
    act(() => first.result.current[1]({ selectedLifxDeviceIds: ['d073d5'] }));
    expect(second.result.current[0].selectedLifxDeviceIds).toEqual(['d073d5']);

    const signedOut = renderHook(() => useLocalSettings(null));
    act(() => signedOut.result.current[1]({ delaySeconds: 50 }));
    expect(signedOut.result.current[0]).toEqual(DEFAULT_LOCAL_SETTINGS);
  });

  test('the snapshot is stable between writes', () => {
    expect(readLocalSettings(FAN)).toBe(readLocalSettings(FAN));
  });
});
