// Time-weighted agreement of the derived light with F1's TrackStatus: race control alone and
// `--source f1` (decision 018). Shared by `npm run agreement -w packages/core` and the core bench.
import {
  combineAgreements,
  measureAgreement,
  type AgreementDetail,
  type AgreementOptions,
} from '../src/measure/agreement.js';
import {
  agreementFixturesDir,
  listLiveTimingFixtures,
  loadRaceControlFixture,
  TEST_DATA_DIR,
} from '../test/fixtures.js';

/** The reading DESIGN §7's targets quote: the whole recording, chequered time counted as agreeing. */
const WHOLE: AgreementOptions = { window: 'whole', checkered: 'agree' };
/** The same, from TrackStatus's first line (before it F1 has said nothing to compare with). */
const SPOKEN: AgreementOptions = { ...WHOLE, beforeTrackStatus: 'exclude' };

const pct = (ratio: number, digits = 2): string => `${(ratio * 100).toFixed(digits).padStart(4 + digits)}%`;
const share = (ms: number, total: number): string => `${((ms / total) * 100).toFixed(3)}%`;

function summary(rows: { name: string; detail: AgreementDetail }[]): string {
  const overall = combineAgreements(rows.map((row) => row.detail));
  const lowest = rows.reduce((a, b) => (b.detail.ratio < a.detail.ratio ? b : a));
  return `${pct(overall.ratio, 3)} overall, lowest ${pct(lowest.detail.ratio, 3).trim()} (${lowest.name})`;
}

/** Prints the figures, one line per session, then the overall and lowest for each source and reading. */
export function printAgreementReport(log: (line: string) => void = console.log): void {
  const dir = agreementFixturesDir();
  const names = listLiveTimingFixtures(dir);
  const fixtures = names.map((name) => ({ name, fixture: loadRaceControlFixture(name, dir) }));
  const measure = (options: AgreementOptions) =>
    fixtures.map(({ name, fixture }) => ({ name, detail: measureAgreement(fixture, options) }));
  const rc = measure(WHOLE);
  const f1 = measure({ ...WHOLE, source: 'f1' });
  const rcSpoken = measure(SPOKEN);
  const f1Spoken = measure({ ...SPOKEN, source: 'f1' });

  log(
    `fixtures: ${dir === TEST_DATA_DIR ? 'bundled copies' : dir} (${names.length} with live-timing streams)`,
  );
  log('time-weighted agreement with TrackStatus (whole recording, chequered counted as agreeing)');
  log(
    `${'session'.padEnd(38)} ${'race ctl'.padStart(8)} ${'f1'.padStart(8)}   f1 from TrackStatus's first line`,
  );
  rc.forEach((row, i) => {
    log(
      `${row.name.padEnd(38)} ${pct(row.detail.ratio).padStart(8)} ${pct(f1[i]!.detail.ratio).padStart(8)}   ${pct(f1Spoken[i]!.detail.ratio)}`,
    );
  });
  log('');
  log(`race control only, whole recording:                ${summary(rc)}`);
  log(`race control only, from TrackStatus's first line:  ${summary(rcSpoken)}`);
  log(`--source f1, whole recording:                      ${summary(f1)}`);
  log(`--source f1, from TrackStatus's first line:        ${summary(f1Spoken)}`);
  const def = combineAgreements(measure({}).map((row) => row.detail));
  log(
    `race control only, package reading (from the first message, chequered left out): ${pct(def.ratio).trim()}`,
  );

  // Fed by TrackStatus and measured against it, the fused track-wide state agrees by construction;
  // what race control adds is where the light differs from TrackStatus on purpose.
  const total = f1Spoken.reduce((sum, row) => sum + row.detail.totalMs, 0);
  const sum = (key: 'sectorsMs' | 'checkeredMs' | 'otherMs') =>
    f1Spoken.reduce((s, row) => s + row.detail[key], 0);
  log('');
  log(
    `--source f1, where the light differs from TrackStatus (from its first line, ${(total / 3_600_000).toFixed(1)} h):`,
  );
  log(`  race-control sector yellows while TrackStatus says AllClear: ${share(sum('sectorsMs'), total)}`);
  log(`  chequered flag (no TrackStatus code; counted as agreeing):   ${share(sum('checkeredMs'), total)}`);
  log(`  anything else (track-wide: race control leading, stale):    ${share(sum('otherMs'), total)}`);
}
