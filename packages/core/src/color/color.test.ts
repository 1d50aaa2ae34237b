import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { clampToGamut, formatLifxColor, hsbToRgb, hsbToXy, HUE_GAMUTS, isInGamut, rgbToXy } from './color.js';

describe('colour → CIE xy (reference §3.7)', () => {
  test.each([
    ['red', [255, 0, 0], 0.6915, 0.3083],
    ['orange', [255, 128, 0], 0.6081, 0.3709],
    ['yellow', [255, 255, 0], 0.4334, 0.5022],
    ['green', [0, 255, 0], 0.17, 0.7],
    ['blue', [0, 0, 255], 0.1532, 0.0475],
    ['purple', [128, 0, 255], 0.2177, 0.0787],
    ['white', [255, 255, 255], 0.3227, 0.329],
  ] as const)('%s matches the gamut C table', (_name, [r, g, b], x, y) => {
    const point = rgbToXy({ r, g, b }, HUE_GAMUTS.C);
    expect(point.x).toBeCloseTo(x, 4);
    expect(point.y).toBeCloseTo(y, 4);
  });

  test('black gives the D65 white point', () => {
    expect(rgbToXy({ r: 0, g: 0, b: 0 })).toEqual({ x: 0.3127, y: 0.329, luminance: 0 });
  });

  test('every result lies in the chosen gamut', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 255 }),
        fc.integer({ min: 0, max: 255 }),
        fc.integer({ min: 0, max: 255 }),
        fc.constantFrom('A', 'B', 'C' as const),
        (r, g, b, name) => {
          const gamut = HUE_GAMUTS[name];
          const point = rgbToXy({ r, g, b }, gamut);
          expect(isInGamut(clampToGamut(point, gamut), gamut)).toBe(true);
          const back = clampToGamut(point, gamut);
          expect(Math.abs(back.x - point.x) + Math.abs(back.y - point.y)).toBeLessThan(1e-3);
        },
      ),
    );
  });

  test('hue/saturation/brightness converts through RGB', () => {
    expect(hsbToRgb({ hue: 0, saturation: 1, brightness: 1 })).toEqual({ r: 255, g: 0, b: 0 });
    expect(hsbToRgb({ hue: 120, saturation: 1, brightness: 0.5 })).toEqual({ r: 0, g: 128, b: 0 });
    expect(hsbToRgb({ hue: 240, saturation: 0, brightness: 1 })).toEqual({ r: 255, g: 255, b: 255 });
    for (const hue of [30, 60, 180, 240, 300, -60, 420]) {
      expect(Object.values(hsbToRgb({ hue, saturation: 1, brightness: 1 }))).toContain(255);
    }
    expect(hsbToXy({ hue: 0, saturation: 1 }).x).toBeCloseTo(0.6915, 4);
  });
});

describe('LIFX colour strings (reference §2.3)', () => {
  test('hue, saturation and optional brightness', () => {
    expect(formatLifxColor({ hue: 120, saturation: 1 })).toBe('hue:120 saturation:1');
    expect(formatLifxColor({ hue: 30, saturation: 1, brightness: 0.5 })).toBe(
      'hue:30 saturation:1 brightness:0.5',
    );
    expect(formatLifxColor({ hue: 0, saturation: 0, brightness: 2 })).toBe('hue:0 saturation:0 brightness:1');
  });

  test('black is brightness 0', () => {
    expect(formatLifxColor({ hue: 0, saturation: 0, off: true })).toBe('brightness:0');
  });
});
