import { describe, expect, test } from 'vitest';
import { describeSectors, toDisplayFlag } from './display-flag';

describe('toDisplayFlag', () => {
  test('a yellow with safetyCar is shown as the safety car, whatever the text says', () => {
    expect(toDisplayFlag('yellow', 'SCDeployed', true)).toBe('safety');
    expect(toDisplayFlag('yellow', '', true)).toBe('safety');
  });

  test('a yellow with safetyCar false is a yellow, even when the text names a safety car', () => {
    expect(toDisplayFlag('yellow', 'SAFETY CAR DEPLOYED', false)).toBe('yellow');
  });

  test('an older event without safetyCar falls back to the cause text', () => {
    expect(toDisplayFlag('yellow', 'SAFETY CAR DEPLOYED')).toBe('safety');
    expect(toDisplayFlag('yellow', 'VIRTUAL SAFETY CAR DEPLOYED')).toBe('yellow');
    expect(toDisplayFlag('yellow', 'DOUBLE YELLOW IN TRACK SECTOR 4')).toBe('yellow');
  });

  test('other states are shown as they are', () => {
    expect(toDisplayFlag('vsc', 'VIRTUAL SAFETY CAR DEPLOYED', false)).toBe('vsc');
    expect(toDisplayFlag('red', 'RED FLAG')).toBe('red');
  });
});

describe('describeSectors', () => {
  test('names one or several sectors', () => {
    expect(describeSectors([])).toBeNull();
    expect(describeSectors([4])).toBe('Sector 4');
    expect(describeSectors([4, 7])).toBe('Sectors 4, 7');
  });
});
