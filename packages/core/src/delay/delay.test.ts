import { describe, expect, test } from 'vitest';
import {
  calibrateDelay,
  clampDelayForSlider,
  DELAY_PRESETS,
  getEffectiveDelayMs,
  REDUCE_DELAY_TEXTS,
  requiresReduceConfirmation,
} from './delay.js';

describe('broadcast delay', () => {
  test('presets are 5, 20 and 30 seconds', () => {
    expect(DELAY_PRESETS.map((preset) => preset.seconds)).toEqual([5, 20, 30]);
  });

  test('reducing the delay needs confirmation; raising or keeping it does not', () => {
    expect(requiresReduceConfirmation(20, 5)).toBe(true);
    expect(requiresReduceConfirmation(5, 20)).toBe(false);
    expect(requiresReduceConfirmation(5, 5)).toBe(false);
    expect(REDUCE_DELAY_TEXTS).toEqual({
      title: 'Reduce Broadcast Delay?',
      confirm: 'Yes, Reduce Delay',
      cancel: 'Cancel',
    });
  });

  test('calibration: seconds between start and mark, rounded', () => {
    expect(calibrateDelay(1_000, 8_400)).toBe(7);
    expect(calibrateDelay(1_000, 8_600)).toBe(8);
    expect(calibrateDelay(new Date(0), new Date(30_000))).toBe(30);
    expect(calibrateDelay(5_000, 1_000)).toBe(0);
  });

  test('the slider value is whole and within 0 to 60', () => {
    expect(clampDelayForSlider(75)).toBe(60);
    expect(clampDelayForSlider(-3)).toBe(0);
    expect(clampDelayForSlider(4.6)).toBe(5);
    expect(clampDelayForSlider(Number.NaN)).toBe(0);
  });

  test('a disabled delay waits zero', () => {
    expect(getEffectiveDelayMs({ seconds: 5, enabled: true })).toBe(5000);
    expect(getEffectiveDelayMs({ seconds: 5, enabled: false })).toBe(0);
    expect(getEffectiveDelayMs({ seconds: -1, enabled: true })).toBe(0);
  });
});
