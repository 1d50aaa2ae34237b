import { describe, expect, test } from 'vitest';
import { EFFECT_FLAGS, isMomentary, LIGHT_STATES } from './types.js';

describe('isMomentary', () => {
  test('only the fastest lap is momentary, of every light state and effect flag', () => {
    const flags = [...new Set<string>([...LIGHT_STATES, ...EFFECT_FLAGS])];
    expect(flags.filter(isMomentary)).toEqual(['fastest_lap']);
  });

  test('a name that is no flag is not momentary', () => {
    expect(isMomentary('fastest-lap')).toBe(false);
    expect(isMomentary('')).toBe(false);
  });
});
