import { describe, expect, test } from 'vitest';
import { drivenIds } from './lights-hub.js';

const found = [
  { id: 'd073d5000001', reachable: true },
  { id: 'd073d5000002', reachable: false },
  { id: 'd073d5000003', reachable: true },
];

describe('which lights the companion drives', () => {
  test('with nothing chosen in Light Control: every light it found, answering or not', () => {
    expect(drivenIds('lifx_lan', found, { selectedLights: {}, sharedLightsDriver: 'companion' })).toEqual([
      'd073d5000001',
      'd073d5000002',
      'd073d5000003',
    ]);
  });

  test('a choice in Light Control decides, even an empty one', () => {
    expect(
      drivenIds('lifx_lan', found, {
        selectedLights: { lifx_lan: ['d073d5000003', 'gone'] },
        sharedLightsDriver: 'companion',
      }),
    ).toEqual(['d073d5000003']);
    expect(
      drivenIds('lifx_lan', found, { selectedLights: { lifx_lan: [] }, sharedLightsDriver: 'companion' }),
    ).toEqual([]);
  });

  test('lights the browser also drives as cloud lights are left to it only when the account says so', () => {
    const selectedLights = { lifx: ['d073d5000001'], hue: ['d073d5000003'] };
    expect(drivenIds('lifx_lan', found, { selectedLights, sharedLightsDriver: 'companion' })).toHaveLength(3);
    expect(drivenIds('lifx_lan', found, { selectedLights, sharedLightsDriver: 'browser' })).toEqual([
      'd073d5000002',
      'd073d5000003',
    ]);
    // A Hue cloud light is the twin of a local Hue light, not of a LIFX bulb.
    expect(drivenIds('hue_local', found, { selectedLights, sharedLightsDriver: 'browser' })).toEqual([
      'd073d5000001',
      'd073d5000002',
    ]);
  });

  test('a Govee bulb picked in the cloud too is left to the browser only when the account says so (decision 039)', () => {
    const strip = [{ id: '1F:80:C5:32:32:36:72:4E', reachable: true }];
    const selectedLights = { govee: ['1F:80:C5:32:32:36:72:4E'] };
    expect(drivenIds('govee_lan', strip, { selectedLights, sharedLightsDriver: 'companion' })).toEqual([
      '1F:80:C5:32:32:36:72:4E',
    ]);
    expect(drivenIds('govee_lan', strip, { selectedLights, sharedLightsDriver: 'browser' })).toEqual([]);
  });

  test('Nanoleaf has no cloud twin: the browser setting never takes its lights away', () => {
    const selectedLights = { lifx: ['d073d5000001'], hue: ['d073d5000003'] };
    expect(drivenIds('nanoleaf', found, { selectedLights, sharedLightsDriver: 'browser' })).toHaveLength(3);
    expect(
      drivenIds('nanoleaf', found, {
        selectedLights: { nanoleaf: ['d073d5000002'] },
        sharedLightsDriver: 'browser',
      }),
    ).toEqual(['d073d5000002']);
  });
});
