import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { TEST_DATA_DIR, listRaceControlFixtures, loadRaceControlFixture } from '../../test/fixtures.js';
import { deriveLightChanges } from '../flags/tracker.js';

const here = dirname(fileURLToPath(import.meta.url));
const ROOT = join(here, '..', '..', '..', '..');
const CLI = join(here, 'flags.ts');
const TSX = join(ROOT, 'node_modules', '.bin', 'tsx');

function runCli(args: string[]) {
  const result = spawnSync(TSX, [CLI, ...args], { encoding: 'utf8', cwd: ROOT });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

const scratch = mkdtempSync(join(tmpdir(), 'flaglight-cli-'));
function writeScratch(name: string, text: string): string {
  const file = join(scratch, name);
  writeFileSync(file, text);
  return file;
}

describe('flags CLI (DESIGN §5.2)', () => {
  test('prints only a JSON array of {date, state, activeSectors} for a fixture file', () => {
    const { code, stdout, stderr } = runCli([join(TEST_DATA_DIR, '2021-saudi-arabia-race.json')]);
    expect(code).toBe(0);
    expect(stderr).toBe('');
    const changes = JSON.parse(stdout) as Record<string, unknown>[];
    expect(changes.length).toBeGreaterThan(10);
    for (const change of changes) expect(Object.keys(change)).toEqual(['date', 'state', 'activeSectors']);
    expect(changes).toContainEqual({ date: '2021-12-05T17:57:00+00:00', state: 'red', activeSectors: [] });
    expect(changes.at(-1)).toEqual({
      date: '2021-12-05T19:39:57+00:00',
      state: 'checkered',
      activeSectors: [],
    });
  });

  // Each spawn starts tsx (about a second on a loaded 2-core machine), so the process is checked
  // on a spread of fixtures; deriveLightChanges itself is checked on every fixture elsewhere.
  const sample = listRaceControlFixtures().filter((_, i, all) => i % Math.ceil(all.length / 6) === 0);

  test('matches deriveLightChanges on a spread of fixtures', { timeout: 120_000 }, () => {
    expect(sample.length).toBeGreaterThanOrEqual(5);
    for (const name of sample) {
      const { code, stdout } = runCli([join(TEST_DATA_DIR, `${name}.json`)]);
      expect(code).toBe(0);
      const expected = deriveLightChanges(loadRaceControlFixture(name).messages).map(
        ({ date, state, activeSectors }) => ({ date, state, activeSectors }),
      );
      expect(JSON.parse(stdout)).toEqual(expected);
    }
  });

  test('accepts a bare array of records', () => {
    const file = writeScratch(
      'array.json',
      JSON.stringify([
        {
          date: '2025-01-01T10:00:00+00:00',
          category: 'Flag',
          flag: 'DOUBLE YELLOW',
          scope: 'Sector',
          sector: 7,
          message: 'x',
        },
        {
          date: '2025-01-01T10:00:05+00:00',
          category: 'Flag',
          flag: 'YELLOW',
          scope: 'Sector',
          sector: 2,
          message: 'y',
        },
        {
          date: '2025-01-01T10:01:00+00:00',
          category: 'Flag',
          flag: 'RED',
          scope: 'Track',
          message: 'RED FLAG',
        },
      ]),
    );
    const { code, stdout } = runCli([file]);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual([
      { date: '2025-01-01T10:00:00+00:00', state: 'yellow', activeSectors: [7] },
      { date: '2025-01-01T10:01:00+00:00', state: 'red', activeSectors: [] },
    ]);
  });

  test('an empty stream prints an empty array', () => {
    const { code, stdout } = runCli([writeScratch('empty.json', '{"messages": []}')]);
    expect(code).toBe(0);
    expect(stdout.trim()).toBe('[]');
  });

  test.each([
    ['a missing file', () => join(scratch, 'absent.json'), /no such file/],
    ['a directory', () => scratch, /is a directory/],
    ['invalid JSON', () => writeScratch('bad.json', '{"messages": ['), /invalid JSON/],
    ['the wrong shape', () => writeScratch('shape.json', '{"records": []}'), /expected a JSON array/],
    ['a scalar', () => writeScratch('scalar.json', '42'), /expected a JSON array/],
  ])('%s exits 1 with one line on stderr', (_label, makeFile, pattern) => {
    const { code, stdout, stderr } = runCli([makeFile()]);
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(pattern);
  });

  test('no file argument exits 1 with a usage line', () => {
    const { code, stderr } = runCli([]);
    expect(code).toBe(1);
    expect(stderr.trimEnd().split('\n')).toHaveLength(1);
  });
});
