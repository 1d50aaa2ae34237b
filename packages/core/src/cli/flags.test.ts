import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { paced } from '../../../../scripts/test-pace.mjs';
import { TEST_DATA_DIR, listRaceControlFixtures, loadRaceControlFixture } from '../../test/fixtures.js';
import { fuseInputs, readLiveTimingStreams } from '../flags/live-timing.js';
import { deriveLightChanges } from '../flags/tracker.js';
import { runFlagsCommand } from './flags-command.js';

const here = dirname(fileURLToPath(import.meta.url));
const ROOT = join(here, '..', '..', '..', '..');
const CLI = join(here, 'flags.ts');
const TSX = join(ROOT, 'node_modules', '.bin', 'tsx');

function runCli(args: string[]) {
  const result = spawnSync(TSX, [CLI, ...args], { encoding: 'utf8', cwd: ROOT });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** The command in this process, with the real file system (the spawned CLI adds only the process). */
function runInProcess(args: string[]) {
  return runFlagsCommand(args, (file) => ({ ok: true, text: readFileSync(file, 'utf8') }));
}

const BUNDLED_DIR = join(ROOT, 'packages', 'data', 'race-control');

const scratch = mkdtempSync(join(tmpdir(), 'flaglight-cli-'));
function writeScratch(name: string, text: string): string {
  const file = join(scratch, name);
  writeFileSync(file, text);
  return file;
}

/**
 * Each test starts the CLI as a process (tsx compiles it first): a second alone, many more on a
 * machine the test lanes keep busy, where Vitest's 5 s default timed all ten out in a rehearsal.
 */
const CLI_PROCESS = { timeout: paced(60_000) };

describe('flags CLI (DESIGN §5.2)', CLI_PROCESS, () => {
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

  test('matches deriveLightChanges on a spread of fixtures', { timeout: paced(120_000) }, () => {
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

  test('without --source prints exactly what it printed before, for every bundled fixture', () => {
    const files = [
      ...listRaceControlFixtures().map((name) => join(TEST_DATA_DIR, `${name}.json`)),
      ...readdirSync(BUNDLED_DIR)
        .filter((file) => file.endsWith('.json'))
        .map((file) => join(BUNDLED_DIR, file)),
    ];
    files.forEach((file) => {
      const parsed = JSON.parse(readFileSync(file, 'utf8')) as { messages: unknown[] };
      // The output before --source existed, byte for byte: the DESIGN §5.2 projection, one line.
      const before = `${JSON.stringify(
        deriveLightChanges(parsed.messages).map(({ date, state, activeSectors }) => ({
          date,
          state,
          activeSectors,
        })),
      )}\n`;
      expect({ file, ...runInProcess([file]) }).toEqual({ file, code: 0, stdout: before, stderr: '' });
    });
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
    const { code, stderr } = runCli(['--source', 'f1']);
    expect(code).toBe(1);
    expect(stderr).toMatch(/usage/);
  });

  test('no file argument, without --source, exits 1 with a usage line', () => {
    const { code, stderr } = runCli([]);
    expect(code).toBe(1);
    expect(stderr.trimEnd().split('\n')).toHaveLength(1);
  });
});

describe('flags CLI --source f1 (DESIGN §5.8)', CLI_PROCESS, () => {
  test('the process exits 1 with one line for an unknown source', () => {
    const { code, stdout, stderr } = runCli([join(TEST_DATA_DIR, '2025-bahrain-race.json'), '--source', 'x']);
    expect([code, stdout, stderr]).toEqual([1, '', 'flags: unknown --source "x" (expected f1)\n']);
  });

  test('derives from the live-timing streams, each change with its offset (2025 Bahrain, hand-checked)', () => {
    const { code, stdout, stderr } = runCli([
      join(TEST_DATA_DIR, '2025-bahrain-race.json'),
      '--source',
      'f1',
    ]);
    expect([code, stderr]).toEqual([0, '']);
    expect(JSON.parse(stdout)).toEqual([
      // TrackStatus 4 came 10 ms before SAFETY CAR DEPLOYED (15:56:09); its date is placed on that clock.
      {
        date: '2025-04-13T15:56:09.236+00:00',
        state: 'yellow',
        activeSectors: [],
        safetyCar: true,
        offset: '01:47:55.160',
      },
      // TRACK CLEAR (16:03:55, 01:55:40.784) ends nothing TrackStatus holds: the green is its AllClear.
      { date: '2025-04-13T16:03:54.887+00:00', state: 'green', activeSectors: [], offset: '01:55:40.811' },
      { date: '2025-04-13T16:39:29+00:00', state: 'checkered', activeSectors: [], offset: '02:31:14.492' },
    ]);
  });

  test('prints the fused changes of every fixture with live-timing streams, in either argument order', () => {
    const names = listRaceControlFixtures().filter((name) => {
      const merged = readLiveTimingStreams(loadRaceControlFixture(name).live_timing);
      return merged.ok && merged.inputs.length > 0;
    });
    expect(names.length).toBeGreaterThanOrEqual(28);
    names.forEach((name, index) => {
      const merged = readLiveTimingStreams(loadRaceControlFixture(name).live_timing);
      const expected = fuseInputs(merged.ok ? merged.inputs : []).map(
        ({ date, state, activeSectors, safetyCar, offset }) => ({
          date,
          state,
          activeSectors,
          ...(safetyCar ? { safetyCar } : {}),
          offset,
        }),
      );
      const file = join(TEST_DATA_DIR, `${name}.json`);
      const result = runInProcess(index % 2 === 0 ? ['--source=f1', file] : [file, '--source', 'f1']);
      expect(result.code).toBe(0);
      const printed = JSON.parse(result.stdout) as Record<string, unknown>[];
      expect(printed).toEqual(expected);
      for (const change of printed) {
        expect(Object.keys(change)).toEqual(
          change.safetyCar === true
            ? ['date', 'state', 'activeSectors', 'safetyCar', 'offset']
            : ['date', 'state', 'activeSectors', 'offset'],
        );
      }
    });
  });

  test.each([
    [
      'no live_timing',
      () => [writeScratch('plain.json', '{"messages": []}'), '--source', 'f1'],
      /no live_timing/,
    ],
    ['a bare array', () => [writeScratch('bare.json', '[]'), '--source', 'f1'], /no live_timing/],
    [
      'race control without offsets',
      () => [join(TEST_DATA_DIR, '2022-france-race.json'), '--source', 'f1'],
      /has no stream_offset/,
    ],
    ['invalid JSON', () => [writeScratch('bad-f1.json', '{'), '--source', 'f1'], /invalid JSON/],
    [
      'an unknown source',
      () => [join(TEST_DATA_DIR, '2025-bahrain-race.json'), '--source', 'openf1'],
      /unknown --source/,
    ],
    [
      'a missing source value',
      () => [join(TEST_DATA_DIR, '2025-bahrain-race.json'), '--source'],
      /needs a value/,
    ],
  ])('%s exits 1 with one line on stderr', (_label, makeArgs, pattern) => {
    const { code, stdout, stderr } = runInProcess(makeArgs());
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(pattern);
  });
});
