import { api, DEVICE_LIGHTS_BODY_LIMIT_BYTES, DEVICE_MAX_LIGHTS } from '@flaglight/contract';
import { LAN_LIGHT_PROVIDERS, type LanLightProvider } from '@flaglight/core';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { fallbackLightLabel, normalizeLightLabel } from '../lights/light-label.js';
import { prepareLightReport } from './light-report.js';

// What this companion reports about its lights, made with its own functions over any mix of brands,
// is what the contract takes, whole: every light of a house at its drivers' caps is listed (a report
// once stopped at 256 lights and 48 KiB, leaving a big Home Assistant's lights out of Light Control).

const hex = (length: number) =>
  fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: length, maxLength: length });

/** A light id in the form its brand really uses (Home Assistant entity ids up to the contract's 128). */
const idOf: Record<LanLightProvider, fc.Arbitrary<string>> = {
  lifx_lan: hex(6).map((tail) => `d073d5${tail}`),
  hue_local: fc.uuid(),
  govee_lan: hex(16).map((h) => h.toUpperCase().match(/../g)!.join(':')),
  nanoleaf: hex(8).map((tail) => `s${tail}`),
  home_assistant: fc
    .stringMatching(/^[a-z0-9]+(_[a-z0-9]+){0,12}$/)
    .map((slug) => `light.${slug}`.slice(0, 128)),
  wled: hex(12),
};

/** A light as the hub lists it: its name as the device gave it, cleaned by the hub's own function. */
const hubLight = fc.constantFrom(...LAN_LIGHT_PROVIDERS).chain((provider) =>
  fc.record({
    provider: fc.constant(provider),
    id: idOf[provider],
    name: fc.oneof(fc.string({ maxLength: 120 }), fc.string({ unit: 'grapheme', maxLength: 40 })),
    reachable: fc.boolean(),
  }),
);

const house = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.uniqueArray(hubLight, {
      maxLength: DEVICE_MAX_LIGHTS,
      selector: (l) => `${l.provider}:${l.id}`,
    }),
  },
  {
    weight: 1,
    arbitrary: fc.uniqueArray(hubLight, {
      minLength: DEVICE_MAX_LIGHTS - 16,
      maxLength: DEVICE_MAX_LIGHTS,
      selector: (l) => `${l.provider}:${l.id}`,
    }),
  },
);

describe('what the companion reports, the contract takes', () => {
  test('any mix of brands up to the contract cap is reported whole, inside the schema and the body limit', () => {
    fc.assert(
      fc.property(house, (found) => {
        const lights = found.map(({ provider, id, name, reachable }) => ({
          provider,
          id,
          label: normalizeLightLabel(name, fallbackLightLabel(provider, id)),
          reachable,
        }));
        const report = prepareLightReport(lights, new Map());
        expect(report.left).toEqual([]);
        expect(report.lights).toHaveLength(found.length);
        const body = { lights: report.lights };
        expect(api.devices.reportLights.body.safeParse(body).error?.issues ?? []).toEqual([]);
        expect(Buffer.byteLength(JSON.stringify(body))).toBeLessThanOrEqual(DEVICE_LIGHTS_BODY_LIMIT_BYTES);
      }),
      { numRuns: 40 },
    );
  });

  test('a house with every LAN driver at its cap fits one report', () => {
    const caps: [LanLightProvider, number][] = [
      ['lifx_lan', 256],
      ['home_assistant', 500],
      ['govee_lan', 64],
      ['nanoleaf', 64],
      ['wled', 64],
      ['hue_local', 63],
    ];
    const lights = caps.flatMap(([provider, count]) =>
      Array.from({ length: count }, (_, i) => {
        const id =
          provider === 'home_assistant'
            ? `light.living_room_ceiling_spot_${i}_${'x'.repeat(80)}`
            : `${provider}-${i}`;
        return {
          provider,
          id,
          label: normalizeLightLabel(`Ceiling spot ${i} ${'🏁'.repeat(30)}`, id),
          reachable: true,
        };
      }),
    );
    expect(lights.length).toBeLessThanOrEqual(DEVICE_MAX_LIGHTS);
    const report = prepareLightReport(lights, new Map());
    expect(report.left).toEqual([]);
    expect(api.devices.reportLights.body.safeParse({ lights: report.lights }).success).toBe(true);
  });
});
