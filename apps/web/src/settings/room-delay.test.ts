import type { PreferencesDocument } from '@flaglight/contract';
import { PREFERENCES_MAX_DEVICE_OFFSETS, PREFERENCES_MAX_OFFSET_MS } from '@flaglight/contract/limits';
import { QueryClient } from '@tanstack/react-query';
import { describe, expect, test } from 'vitest';
import { buildPreferencesDocument, DEFAULT_TEST_PREFERENCES } from '../../test/preferences';
import {
  clampRoomOffset,
  describeRoomDelay,
  formatOffset,
  measureTenths,
  offsetFromMeasurement,
  parseOffsetInput,
  ROOM_DELAY_TEXTS,
  ROOM_OFFSET_MAX_MS,
  ROOM_OFFSET_MIN_MS,
  withRoomOffset,
} from './room-delay';
import { keepNewerPreferences, PREFERENCES_QUERY_KEY } from './room-delay-api';

test('the control offers only offsets the server accepts', () => {
  expect(ROOM_OFFSET_MIN_MS).toBeGreaterThanOrEqual(-PREFERENCES_MAX_OFFSET_MS);
  expect(ROOM_OFFSET_MAX_MS).toBeLessThanOrEqual(PREFERENCES_MAX_OFFSET_MS);
});

describe('parseOffsetInput', () => {
  test.each([
    ['2.5', 2500],
    ['+2,5', 2500],
    ['−1.5', -1500],
    ['-5', -5000],
    ['10', 10_000],
    ['.3', 300],
    ['0', 0],
    ['-0', 0],
    ['2.46 s', 2500],
  ])('%s is %i ms', (text, ms) => {
    expect(parseOffsetInput(text)).toEqual({ ok: true, ms });
  });

  test.each(['', 'abc', 'NaN', 'Infinity', '1e3', '2..5', '--1'])('%j is not a number', (text) => {
    expect(parseOffsetInput(text)).toEqual({ ok: false, error: ROOM_DELAY_TEXTS.notANumber });
  });

  test.each(['-5.1', '10.1', '120'])('%s is out of range', (text) => {
    expect(parseOffsetInput(text)).toMatchObject({
      ok: false,
      error: expect.stringMatching(/between −5 s and \+10 s/),
    });
  });
});

test('offsets read with their sign, whole seconds without a decimal', () => {
  expect([2500, -1500, 0, 10_000, 100].map(formatOffset)).toEqual([
    '+2.5 s',
    '−1.5 s',
    '0 s',
    '+10 s',
    '+0.1 s',
  ]);
});

test('clampRoomOffset keeps to the 0.1 s grid and the range', () => {
  expect([2549, -7000, 12_000, Number.NaN].map(clampRoomOffset)).toEqual([2500, -5000, 10_000, 0]);
});

test('describeRoomDelay spells out the sum, and a sum below zero waits 0 s', () => {
  expect(describeRoomDelay(5000, 2500, true)).toBe('This room: 7.5 s = 5 s broadcast delay + 2.5 s');
  expect(describeRoomDelay(20_000, -3000, true)).toBe('This room: 17 s = 20 s broadcast delay − 3 s');
  expect(describeRoomDelay(0, -2000, false)).toMatch(/^This room: 0 s \(0 s broadcast delay \(off\) − 2 s/);
});

test('a room’s calibration measures tenths and subtracts the broadcast delay', () => {
  expect(measureTenths(0, 7449)).toBe(7.4);
  expect(measureTenths(5000, 0)).toBe(0);
  expect(offsetFromMeasurement(7400, 5000)).toBe(2400);
  expect(offsetFromMeasurement(3000, 5000)).toBe(-2000);
});

describe('withRoomOffset', () => {
  const base = { ...DEFAULT_TEST_PREFERENCES, autoConnect: false, delayOffsetsMs: { a: 1000, b: -500 } };

  test('changes only this device’s offset and keeps the rest', () => {
    expect(withRoomOffset(base, 'c', 2500, ['a', 'b', 'c'])).toEqual({
      ...base,
      delayOffsetsMs: { a: 1000, b: -500, c: 2500 },
    });
    expect(withRoomOffset(base, 'a', 0, ['a'])).toEqual({ ...base, delayOffsetsMs: { b: -500 } });
  });

  test('drops offsets of companions no longer linked only when the limit would be passed', () => {
    const full = Object.fromEntries(
      Array.from({ length: PREFERENCES_MAX_DEVICE_OFFSETS }, (_, i) => [`old-${i}`, 100]),
    );
    const next = withRoomOffset({ ...base, delayOffsetsMs: full }, 'new', 300, ['new', 'old-1']);
    expect(next.delayOffsetsMs).toEqual({ 'old-1': 100, new: 300 });
  });
});

describe('a pushed preferences document', () => {
  test('replaces the cached one when newer, never when older or not a document', () => {
    const client = new QueryClient();
    const at = (version: number, seconds: number) =>
      buildPreferencesDocument(version, { delay: { enabled: true, seconds } });
    client.setQueryData(PREFERENCES_QUERY_KEY, at(3, 10));
    keepNewerPreferences(client, at(2, 30));
    keepNewerPreferences(client, { version: 9 });
    keepNewerPreferences(client, 'nonsense');
    expect(client.getQueryData<PreferencesDocument>(PREFERENCES_QUERY_KEY)?.preferences.delay.seconds).toBe(
      10,
    );
    keepNewerPreferences(client, at(4, 5));
    expect(client.getQueryData<PreferencesDocument>(PREFERENCES_QUERY_KEY)?.preferences.delay.seconds).toBe(
      5,
    );
  });
});
