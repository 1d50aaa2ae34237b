import type { LightDeviceInfo } from '@flaglight/lights';
import { describe, expect, test } from 'vitest';
import { filterDevices, pageButtons, pageCount, pageOf, showsSearch } from './device-list';

const device = (label: string, group = 'Home'): LightDeviceInfo => ({
  id: label.toLowerCase().replace(/\s/g, '-'),
  label,
  group: { name: group },
  connected: true,
});

describe('device list rules (SPEC §2, §9)', () => {
  test('search shows only above 5 devices', () => {
    expect(showsSearch(5)).toBe(false);
    expect(showsSearch(6)).toBe(true);
  });

  test('search matches label and group, ignoring case and spaces around', () => {
    const list = [device('Desk', 'Office'), device('Lamp', 'Living Room'), device('Porch')];
    expect(filterDevices(list, ' desk ').map((d) => d.label)).toEqual(['Desk']);
    expect(filterDevices(list, 'living').map((d) => d.label)).toEqual(['Lamp']);
    expect(filterDevices(list, '')).toHaveLength(3);
    expect(filterDevices(list, 'garage')).toEqual([]);
  });

  test('pages of 10', () => {
    const items = Array.from({ length: 23 }, (_, i) => i);
    expect(pageCount(0)).toBe(1);
    expect(pageCount(23)).toBe(3);
    expect(pageOf(items, 3)).toEqual([20, 21, 22]);
  });

  test('at most 5 page buttons, centred on the current page, never beyond the ends', () => {
    expect(pageButtons(1, 2)).toEqual([1, 2]);
    expect(pageButtons(1, 9)).toEqual([1, 2, 3, 4, 5]);
    expect(pageButtons(5, 9)).toEqual([3, 4, 5, 6, 7]);
    expect(pageButtons(9, 9)).toEqual([5, 6, 7, 8, 9]);
    for (let total = 1; total <= 12; total++)
      for (let current = 1; current <= total; current++) {
        const buttons = pageButtons(current, total);
        expect(buttons.length).toBeLessThanOrEqual(5);
        expect(buttons).toContain(current);
        expect(buttons[0]).toBeGreaterThanOrEqual(1);
        expect(buttons.at(-1)).toBeLessThanOrEqual(total);
      }
  });
});
