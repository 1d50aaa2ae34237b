import { describe, expect, test } from 'vitest';
import { loadRaceControlFixture } from '../../test/fixtures.js';
import { LightDeviceListSchema } from './devices.js';
import { RaceControlInputSchema, RaceControlMessageSchema } from './race-control.js';
import { LocalSettingsSchema } from './ui.js';
import { AdminStatsSchema, UserSchema } from './user.js';

describe('boundary schemas', () => {
  test('race-control records are lenient: nulls, wrong types and unknown fields', () => {
    const parsed = RaceControlMessageSchema.parse({
      date: '2025-01-01T00:00:00+00:00',
      sector: 'x',
      flag: null,
      extra: 1,
    });
    expect(parsed).toMatchObject({ date: '2025-01-01T00:00:00+00:00', sector: null, flag: null });
    expect(parsed).not.toHaveProperty('extra');
    for (const message of loadRaceControlFixture('2025-britain-race').messages) {
      expect(RaceControlMessageSchema.safeParse(message).success).toBe(true);
    }
  });

  test('race-control input is an array or { messages }', () => {
    expect(RaceControlInputSchema.parse([1])).toEqual([1]);
    expect(RaceControlInputSchema.parse({ messages: [2], other: 3 })).toEqual([2]);
    expect(RaceControlInputSchema.safeParse({ message: [] }).success).toBe(false);
  });

  test('LIFX light lists come as an array or under data or lights', () => {
    const light = { id: 'd073d5', label: 'Lamp', connected: true };
    expect(LightDeviceListSchema.parse([light])).toHaveLength(1);
    expect(LightDeviceListSchema.parse({ data: [light] })).toHaveLength(1);
    expect(LightDeviceListSchema.parse({ lights: [light] })).toHaveLength(1);
  });

  test('users and admin stats (both revenue readings)', () => {
    expect(UserSchema.parse({ id: 1, email: 'a@b.co', plan: 'trial', createdAt: '2025-01-01' }).isAdmin).toBe(
      false,
    );
    expect(UserSchema.safeParse({ id: 1, email: 'a@b.co', plan: 'gold', createdAt: 'x' }).success).toBe(
      false,
    );
    expect(
      AdminStatsSchema.parse({ totalUsers: 1, trialUsers: 1, lifetimeUsers: 0, totalRevenue: 20 })
        .totalRevenue,
    ).toBe(20);
  });

  test('local settings default to a 5 s enabled delay with feature flags off', () => {
    expect(LocalSettingsSchema.parse({})).toEqual({
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
    expect(
      LocalSettingsSchema.parse({ companionSelectedLights: { lifx_lan: 'x' }, sharedLightsDriver: 'tv' }),
    ).toMatchObject({ companionSelectedLights: {}, sharedLightsDriver: 'companion' });
    expect(LocalSettingsSchema.parse({ delaySeconds: -4, selectedHueDeviceIds: 'x' }).delaySeconds).toBe(5);
    expect(LocalSettingsSchema.parse({ autoConnect: 'yes', hiddenLifxDeviceIds: 3 })).toMatchObject({
      autoConnect: true,
      hiddenLifxDeviceIds: [],
    });
    expect(LocalSettingsSchema.parse({ autoConnect: false }).autoConnect).toBe(false);
    expect(LocalSettingsSchema.parse({ screenLight: false }).screenLight).toBe(false);
    expect(LocalSettingsSchema.parse({ screenLight: 'no' }).screenLight).toBe(true);
  });
});
