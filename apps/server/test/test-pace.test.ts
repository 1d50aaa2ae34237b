import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { measureHostPace, readPace } from '../../../scripts/test-pace.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** `paced(ms)` in a fresh process whose FLAGLIGHT_TEST_PACE is `pace` (unset when undefined). */
function pacedIn(pace: string | undefined, ms: number): number {
  const env = { ...process.env };
  delete env.FLAGLIGHT_TEST_PACE;
  if (pace !== undefined) env.FLAGLIGHT_TEST_PACE = pace;
  const result = spawnSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `import { paced } from './scripts/test-pace.mjs'; console.log(paced(${ms}));`,
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

  test('the host is measured to a tenth, within the bounds', async () => {
    const { pace, ms } = await measureHostPace();
    expect(ms).toBeGreaterThan(0);
    expect(pace).toBeGreaterThanOrEqual(1);
    expect(pace).toBeLessThanOrEqual(3);
    expect(Math.round(pace * 10) / 10).toBe(pace);
  });
});
