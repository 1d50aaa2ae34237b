import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { measureHostPace, paced, pollFor, pollUntil, readPace } from '../../../scripts/test-pace.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/**
 * `paced(ms)` (or `stretched(ms)`) in a fresh process whose FLAGLIGHT_TEST_PACE is `pace` (unset
 * when undefined), outside CI unless `ci` says so.
 */
function pacedIn(pace: string | undefined, ms: number, { ci = false, fn = 'paced' } = {}): number {
  const env = { ...process.env };
  delete env.FLAGLIGHT_TEST_PACE;
  delete env.CI;
  if (pace !== undefined) env.FLAGLIGHT_TEST_PACE = pace;
  if (ci) env.CI = 'true';
  const result = spawnSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `import { ${fn} } from './scripts/test-pace.mjs'; console.log(${fn}(${ms}));`,
    ],
    { cwd: repoRoot, env, encoding: 'utf8' },
  );
  expect(result.stderr).toBe('');
  return Number(result.stdout.trim());
}

describe('the tests’ pace (scripts/test-pace.mjs)', () => {
  test('a pace is read within 1 and 3; anything else reads 1 or its bound', () => {
    expect(readPace('1.6')).toBe(1.6);
    expect(readPace('0.4')).toBe(1);
    expect(readPace('12')).toBe(3);
    expect(readPace('fast')).toBe(1);
    expect(readPace('')).toBe(1);
    expect(readPace(undefined)).toBe(1);
  });

  test('a wait’s ceiling stretches by the pace the environment gives, and stays as written without one', () => {
    expect(pacedIn(undefined, 5_000)).toBe(5_000);
    expect(pacedIn('1.5', 5_000)).toBe(7_500);
    expect(pacedIn('9', 30_000)).toBe(90_000);
    expect(pacedIn('not a number', 30_000)).toBe(30_000);
  });

  test('in CI a ceiling stretches by 3 whatever the reading; what a passing test waits out, by the reading', () => {
    expect(pacedIn('1.5', 5_000, { ci: true })).toBe(15_000);
    expect(pacedIn(undefined, 30_000, { ci: true })).toBe(90_000);
    expect(pacedIn('1.5', 3_000, { ci: true, fn: 'stretched' })).toBe(4_500);
    expect(pacedIn(undefined, 3_000, { ci: true, fn: 'stretched' })).toBe(3_000);
    expect(pacedIn('2', 250, { fn: 'stretched' })).toBe(500);
  });

  test('a poll goes on once its condition holds, and gives up after its stretched ceiling', async () => {
    let calls = 0;
    await pollUntil(() => ++calls === 3, 5_000, 1);
    expect(calls).toBe(3);
    const started = Date.now();
    await expect(pollUntil(() => false, 50, 5)).rejects.toThrow('timed out waiting for the condition');
    expect(Date.now() - started).toBeGreaterThanOrEqual(paced(50));
  });

  test('a poll for a value returns the first truthy one, awaits an async check, and says what it waited for', async () => {
    let calls = 0;
    expect(await pollFor(() => (++calls === 2 ? 'found' : null), 'the value', 5_000, 1)).toBe('found');
    expect(await pollFor(async () => ++calls >= 4 && calls, 'an async value', 5_000, 1)).toBe(4);
    const started = Date.now();
    let read = 0;
    const what = () => `the light (read ${++read} time)`;
    await expect(pollFor(() => 0, what, 50, 5)).rejects.toThrow(
      'timed out waiting for the light (read 1 time)',
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(paced(50));
  });

  test('the host is measured to a tenth, within the bounds', async () => {
    const { pace, ms } = await measureHostPace();
    expect(ms).toBeGreaterThan(0);
    expect(pace).toBeGreaterThanOrEqual(1);
    expect(pace).toBeLessThanOrEqual(3);
    expect(Math.round(pace * 10) / 10).toBe(pace);
  });
});
