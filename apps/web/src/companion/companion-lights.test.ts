import type { DeviceLight, LinkedDevice } from '@flaglight/contract';
import { LocalSettingsSchema, type LocalSettings } from '@flaglight/core';
import { describe, expect, test } from 'vitest';
import { companion as linkedCompanion } from '../../test/companions';
import {
  browserSelection,
  companionSelectionFromKeys,
  companionSelectionKeys,
  isEveryLightSelection,
  tickedCompanionKeys,
  drivenLightCount,
  findSharedLights,
} from './companion-lights';

const lamp: DeviceLight = { provider: 'lifx_lan', id: 'd073d5000001', label: 'Lamp', reachable: true };
const strip: DeviceLight = { provider: 'lifx_lan', id: 'd073d5000002', label: 'Strip', reachable: false };
const go: DeviceLight = { provider: 'hue_local', id: 'uuid-go', label: 'Hue go', reachable: true };

/** A linked companion with the three lights above. */
function companion(over: Partial<LinkedDevice> = {}): LinkedDevice {
  return linkedCompanion({ lights: [lamp, strip, go], ...over });
}

const settings = (over: Partial<LocalSettings> = {}): LocalSettings => ({
  ...LocalSettingsSchema.parse({}),
  ...over,
});

describe('which lights a companion drives', () => {
  test('without a selection: every reachable light it found; with one: the selected lights', () => {
    expect(drivenLightCount([lamp, strip, go], {})).toBe(2);
    expect(drivenLightCount([lamp, strip, go], { lifx_lan: ['d073d5000002'], hue_local: [] })).toBe(1);
    // A provider without a key is not narrowed.
    expect(drivenLightCount([lamp, strip, go], { lifx_lan: [] })).toBe(1);
  });

  test('the list keys round-trip; nothing ticked names every provider with no light (the companion drives none)', () => {
    // Govee ids carry colons themselves: the key splits at the first one.
    const keys = companionSelectionKeys({
      lifx_lan: ['a'],
      hue_local: ['b'],
      govee_lan: ['D4:AD:01'],
      nanoleaf: ['s1'],
      home_assistant: ['light.desk'],
      wled: ['a0b765d00001'],
    });
    expect(keys).toEqual([
      'lifx_lan:a',
      'hue_local:b',
      'govee_lan:D4:AD:01',
      'nanoleaf:s1',
      'home_assistant:light.desk',
      'wled:a0b765d00001',
    ]);
    expect(companionSelectionFromKeys(keys)).toEqual({
      lifx_lan: ['a'],
      hue_local: ['b'],
      govee_lan: ['D4:AD:01'],
      nanoleaf: ['s1'],
      home_assistant: ['light.desk'],
      wled: ['a0b765d00001'],
    });
    expect(companionSelectionFromKeys(['hue_local:b'])).toEqual({
      lifx_lan: [],
      hue_local: ['b'],
      govee_lan: [],
      nanoleaf: [],
      home_assistant: [],
      wled: [],
    });
    const none = { lifx_lan: [], hue_local: [], govee_lan: [], nanoleaf: [], home_assistant: [], wled: [] };
    expect(companionSelectionFromKeys([])).toEqual(none);
    expect(isEveryLightSelection(companionSelectionFromKeys([]))).toBe(false);
    expect(isEveryLightSelection({})).toBe(true);
    expect(companionSelectionFromKeys(['nonsense', 'lifx:x'])).toEqual({
      lifx_lan: [],
      hue_local: [],
      govee_lan: [],
      nanoleaf: [],
      home_assistant: [],
      wled: [],
    });
  });
});

describe('lights selected in the cloud and on an online companion', () => {
  const chosen = settings({
    selectedLifxDeviceIds: ['d073d5000001', 'd073d5000002', 'd073d5000009'],
    selectedHueDeviceIds: ['uuid-go', 'uuid-other'],
  });

  test('are the same bulbs by id, counted only while the companion is online and can reach them', () => {
    expect(findSharedLights([companion()], chosen)).toEqual({
      lifx: ['d073d5000001'],
      hue: ['uuid-go'],
      govee: [],
      count: 2,
    });
    expect(findSharedLights([companion({ online: false })], chosen).count).toBe(0);
    expect(findSharedLights(null, chosen).count).toBe(0);
    // A companion selection that leaves the lamp out: the browser keeps the lamp.
    expect(
      findSharedLights([companion()], {
        ...chosen,
        companionSelectedLights: { lifx_lan: [], hue_local: ['uuid-go'] },
      }),
    ).toEqual({ lifx: [], hue: ['uuid-go'], govee: [], count: 1 });
  });

  test('the browser leaves them out while the companion drives them, and keeps them when it drives them itself', () => {
    expect(browserSelection([companion()], chosen)).toEqual({
      lifx: ['d073d5000002', 'd073d5000009'],
      hue: ['uuid-other'],
      govee: [],
    });
    expect(browserSelection([companion()], { ...chosen, sharedLightsDriver: 'browser' })).toEqual({
      lifx: chosen.selectedLifxDeviceIds,
      hue: chosen.selectedHueDeviceIds,
      govee: [],
    });
    expect(browserSelection([companion({ online: false })], chosen).lifx).toBe(chosen.selectedLifxDeviceIds);
  });
});

describe('a Govee bulb picked in the cloud and on the LAN (decision 039)', () => {
  const govee = {
    provider: 'govee_lan',
    id: '1F:80:C5:32:32:36:72:4E',
    label: 'Strip',
    reachable: true,
  } as const;
  const picked = settings({ selectedGoveeDeviceIds: ['1F:80:C5:32:32:36:72:4E', '1F:80:C5:32:32:36:72:4F'] });

  test('is one light: driven by the companion, left out of the browser, as for LIFX and Hue', () => {
    expect(findSharedLights([companion({ lights: [govee] })], picked)).toEqual({
      lifx: [],
      hue: [],
      govee: ['1F:80:C5:32:32:36:72:4E'],
      count: 1,
    });
    expect(browserSelection([companion({ lights: [govee] })], picked).govee).toEqual([
      '1F:80:C5:32:32:36:72:4F',
    ]);
  });

  test('kept by the browser when the account says the browser drives shared lights (the companion then leaves it)', () => {
    expect(
      browserSelection([companion({ lights: [govee] })], { ...picked, sharedLightsDriver: 'browser' }).govee,
    ).toEqual(picked.selectedGoveeDeviceIds);
  });
});

describe('the ticks the Companion tab shows', () => {
  const lamp = { provider: 'lifx_lan', id: 'a', label: 'Lamp', reachable: true } as const;
  const strip = { provider: 'wled', id: 'w1', label: 'Strip', reachable: false } as const;

  test('before any choice every reported light is ticked, reachable or not', () => {
    expect(tickedCompanionKeys([{ lights: [lamp, strip] }], {}).sort()).toEqual(['lifx_lan:a', 'wled:w1']);
  });

  test('after a choice only the chosen lights, and chosen lights no companion reports now stay chosen', () => {
    const selection = { lifx_lan: ['a', 'gone'], wled: [] };
    expect(tickedCompanionKeys([{ lights: [lamp, strip] }], selection).sort()).toEqual([
      'lifx_lan:a',
      'lifx_lan:gone',
    ]);
  });

  test('a brand the choice does not name yet (one added since) is driven whole and shown ticked', () => {
    expect(tickedCompanionKeys([{ lights: [lamp, strip] }], { lifx_lan: [] })).toEqual(['wled:w1']);
  });
});
