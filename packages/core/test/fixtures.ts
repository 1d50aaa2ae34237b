import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RaceControlFixture } from '../src/measure/agreement.js';

/** packages/core/test-data: unedited copies of ../shared/fixtures. */
export const TEST_DATA_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', 'test-data');

/** Loads one race-control fixture by its file name without `.json`. */
export function loadRaceControlFixture(name: string): RaceControlFixture {
  return JSON.parse(readFileSync(join(TEST_DATA_DIR, `${name}.json`), 'utf8')) as RaceControlFixture;
}

/** Names of every race-control fixture. */
export function listRaceControlFixtures(): string[] {
  return readdirSync(TEST_DATA_DIR)
    .filter((file) => file.endsWith('.json'))
    .map((file) => file.replace(/\.json$/, ''))
    .sort();
}

/** The complete sessions that carry F1's TrackStatus feed: the agreement set. */
export function listAgreementFixtures(): string[] {
  return listRaceControlFixtures().filter((name) => {
    const fixture = loadRaceControlFixture(name);
    return fixture.complete === true && (fixture.live_timing?.track_status_stream?.length ?? 0) > 0;
  });
}
