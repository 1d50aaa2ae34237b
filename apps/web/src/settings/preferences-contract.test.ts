import {
  DEFAULT_PREFERENCES,
  DEVICE_MAX_LIGHTS,
  PREFERENCES_BODY_LIMIT_BYTES,
  PREFERENCES_MAX_DEVICE_OFFSETS,
  PutPreferencesBodySchema,
  type DeviceLight,
} from '@flaglight/contract';
import { CLOUD_LIGHT_PROVIDERS, LAN_LIGHT_PROVIDERS, LocalSettingsSchema } from '@flaglight/core';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { companionLightKey, companionSelectionFromKeys } from '../companion/companion-lights';
import { preferencesFromLocal } from './preferences-sync';
import { clampRoomOffset, ROOM_OFFSET_MAX_MS, ROOM_OFFSET_MIN_MS, withRoomOffset } from './room-delay';

// What this web app writes to the account, built with its own functions over any mix of brands and
// lights, must be what the contract takes: the server refuses anything else with a 400 the fan never
// caused. (A limit of 8 providers refused every companion choice once a ninth brand came in.)

const hex = (length: number) =>
  fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: length, maxLength: length });

/** A light id in the form its brand really uses. */
const idOf: Record<(typeof LAN_LIGHT_PROVIDERS)[number], fc.Arbitrary<string>> = {
  lifx_lan: hex(6).map((tail) => `d073d5${tail}`),
  hue_local: fc.uuid(),
  govee_lan: hex(16).map((h) => h.toUpperCase().match(/../g)!.join(':')),
  nanoleaf: hex(8).map((tail) => `s${tail}`),
  home_assistant: fc
    .stringMatching(/^[a-z0-9]+(_[a-z0-9]+){0,6}$/)
    .filter((slug) => slug.length <= 120)
    .map((slug) => `light.${slug}`),
  wled: hex(12),
};

const companionLight: fc.Arbitrary<DeviceLight> = fc.constantFrom(...LAN_LIGHT_PROVIDERS).chain((provider) =>
  fc.record({
    provider: fc.constant(provider),
    id: idOf[provider],
    label: fc.string({ maxLength: 80 }),
    reachable: fc.boolean(),
  }),
);

/** A companion's report: up to the contract's own cap, any mix of brands; a full house one time in four. */
const report = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.uniqueArray(companionLight, { maxLength: DEVICE_MAX_LIGHTS, selector: companionLightKey }),
  },
  {
    weight: 1,
    arbitrary: fc.uniqueArray(companionLight, {
      minLength: DEVICE_MAX_LIGHTS - 24,
      maxLength: DEVICE_MAX_LIGHTS,
      selector: companionLightKey,
    }),
  },
);

const cloudIds = fc.record(
  Object.fromEntries(
    CLOUD_LIGHT_PROVIDERS.map((provider) => [provider, fc.uniqueArray(hex(12), { maxLength: 64 })]),
  ) as Record<(typeof CLOUD_LIGHT_PROVIDERS)[number], fc.Arbitrary<string[]>>,
);

/** The Light Control choice: some of the companion's lights picked, some hidden, cloud lights too. */
const choice = fc.record({ lights: report, cloud: cloudIds, pickSeed: fc.integer(), hideSeed: fc.integer() });

const pickSome = <T>(items: readonly T[], seed: number) =>
  items.filter((_, i) => ((seed >> (i % 31)) & 1) === 1);

describe('what the web app writes to the account, the contract takes', () => {
  test('any choice of companion and cloud lights, of any mix of brands, is a valid preferences write', () => {
    fc.assert(
      fc.property(choice, ({ lights, cloud, pickSeed, hideSeed }) => {
        const keys = lights.map((light) => companionLightKey(light));
        const local = LocalSettingsSchema.parse({
          selectedLifxDeviceIds: pickSome(cloud.lifx, pickSeed),
          selectedHueDeviceIds: pickSome(cloud.hue, pickSeed),
          selectedGoveeDeviceIds: pickSome(cloud.govee, pickSeed),
          hiddenLifxDeviceIds: pickSome(cloud.lifx, hideSeed),
          hiddenHueDeviceIds: pickSome(cloud.hue, hideSeed),
          hiddenGoveeDeviceIds: pickSome(cloud.govee, hideSeed),
          companionSelectedLights: companionSelectionFromKeys(pickSome(keys, pickSeed)),
          companionHiddenLights: companionSelectionFromKeys(pickSome(keys, hideSeed)),
        });
        const preferences = preferencesFromLocal(local, DEFAULT_PREFERENCES);
        const body = { version: 7, preferences };
        const parsed = PutPreferencesBodySchema.safeParse(body);
        expect(parsed.error?.issues ?? []).toEqual([]);
        expect(Buffer.byteLength(JSON.stringify(body))).toBeLessThanOrEqual(PREFERENCES_BODY_LIMIT_BYTES);
      }),
      { numRuns: 60 },
    );
  });

  test('one light ticked of every brand names every provider, and the contract takes it', () => {
    const lights = LAN_LIGHT_PROVIDERS.map(
      (provider, i) => fc.sample(idOf[provider], { seed: i, numRuns: 1 })[0]!,
    );
    const keys = LAN_LIGHT_PROVIDERS.map((provider, i) => companionLightKey({ provider, id: lights[i]! }));
    const local = LocalSettingsSchema.parse({
      selectedLifxDeviceIds: ['d073d5000001'],
      selectedHueDeviceIds: ['hue-1'],
      selectedGoveeDeviceIds: ['1F:80:C5:32:32:36:72:4E'],
      companionSelectedLights: companionSelectionFromKeys(keys),
    });
    const preferences = preferencesFromLocal(local, DEFAULT_PREFERENCES);
    expect(Object.keys(preferences.selectedLights).sort()).toEqual(
      [...CLOUD_LIGHT_PROVIDERS, ...LAN_LIGHT_PROVIDERS].sort(),
    );
    expect(PutPreferencesBodySchema.safeParse({ version: 1, preferences }).success).toBe(true);
  });

  test('a room delay saved for any companion of an account keeps the offsets inside the contract', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.uuid(), { minLength: 1, maxLength: PREFERENCES_MAX_DEVICE_OFFSETS }),
        fc.dictionary(fc.uuid(), fc.integer({ min: ROOM_OFFSET_MIN_MS, max: ROOM_OFFSET_MAX_MS }), {
          maxKeys: PREFERENCES_MAX_DEVICE_OFFSETS,
        }),
        fc.integer({ min: ROOM_OFFSET_MIN_MS, max: ROOM_OFFSET_MAX_MS }),
        (linked, stored, offset) => {
          const base = { ...DEFAULT_PREFERENCES, delayOffsetsMs: stored };
          const preferences = withRoomOffset(base, linked[0]!, clampRoomOffset(offset), linked);
          const parsed = PutPreferencesBodySchema.safeParse({ version: 3, preferences });
          expect(parsed.error?.issues ?? []).toEqual([]);
        },
      ),
      { numRuns: 200 },
    );
  });
});
