import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RaceControlFixture } from '../src/measure/agreement.js';

/** packages/core/test-data: unedited copies of ../shared/fixtures. */
export const TEST_DATA_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', 'test-data');

/** The shared fixtures beside the repository (read-only), when this checkout has them. */
export const SHARED_FIXTURES_DIR = join(
  TEST_DATA_DIR,
  '..',
  '..',
  '..',
  '..',
  'shared',
  'fixtures',
  'race-control',
);

/** Where the agreement figures read fixtures: the shared folder when present, else the bundled copies. */
export function agreementFixturesDir(): string {
  return existsSync(SHARED_FIXTURES_DIR) ? SHARED_FIXTURES_DIR : TEST_DATA_DIR;
}

/** Loads one race-control fixture by its file name without `.json`. */
export function loadRaceControlFixture(name: string, dir = TEST_DATA_DIR): RaceControlFixture {
  return JSON.parse(readFileSync(join(dir, `${name}.json`), 'utf8')) as RaceControlFixture;
}

/** Names of every race-control fixture. */
export function listRaceControlFixtures(dir = TEST_DATA_DIR): string[] {
  return readdirSync(dir)
    .filter((file) => file.endsWith('.json'))
    .map((file) => file.replace(/\.json$/, ''))
    .sort();
}

/** The complete sessions that carry F1's TrackStatus feed: the agreement set. */
export function listAgreementFixtures(dir = TEST_DATA_DIR): string[] {
  return listRaceControlFixtures(dir).filter((name) => {
    const fixture = loadRaceControlFixture(name, dir);
    return fixture.complete === true && (fixture.live_timing?.track_status_stream?.length ?? 0) > 0;
  });
}

/** Every fixture with F1 live-timing streams on a stream clock (TrackStatus included): the `--source f1` set. */
export function listLiveTimingFixtures(dir = TEST_DATA_DIR): string[] {
  return listRaceControlFixtures(dir).filter((name) => {
    const live = loadRaceControlFixture(name, dir).live_timing;
    return (
      (live?.track_status_stream?.length ?? 0) > 0 &&
      (live?.race_control_stream ?? []).every((line) => typeof line.stream_offset === 'string')
    );
  });
}
