import { expect, test } from 'vitest';
import { backoffDelay, DEFAULT_BACKOFF } from './backoff.js';

test('back-off: a quick first retry, then 5 s doubling up to 60 s', () => {
  const mid = () => 0.5;
  expect([0, 1, 2, 3, 4, 5, 6, 9].map((n) => backoffDelay(n, DEFAULT_BACKOFF, mid))).toEqual([
    500, 5_000, 10_000, 20_000, 40_000, 60_000, 60_000, 60_000,
  ]);
});

test('back-off jitter stays within ±20 %', () => {
  expect(backoffDelay(2, DEFAULT_BACKOFF, () => 0)).toBe(8_000);
  expect(backoffDelay(2, DEFAULT_BACKOFF, () => 0.999_999)).toBeCloseTo(12_000, -1);
  expect(backoffDelay(0, DEFAULT_BACKOFF, () => 0.999_999)).toBeLessThan(1_000);
});
