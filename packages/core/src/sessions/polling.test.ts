import { describe, expect, test } from 'vitest';
import { nextPollDelay } from './polling.js';

describe('SPEC §4 polling delays', () => {
  test('3 s normally, and after up to 3 errors in a row', () => {
    expect(nextPollDelay('ok', 0)).toBe(3_000);
    expect(nextPollDelay('error', 3)).toBe(3_000);
  });

  test('5 s after more than 3 errors in a row', () => {
    expect(nextPollDelay('error', 4)).toBe(5_000);
  });

  test('10 s after a rate limit, however many errors came before', () => {
    expect(nextPollDelay('rate-limited', 0)).toBe(10_000);
    expect(nextPollDelay('rate-limited', 9)).toBe(10_000);
  });
});
