// Benchmark of DESIGN §7 "full-race derivation (≈ 1,000 messages) < 5 ms" (race control alone and
// fused with TrackStatus, `--source f1`), plus the agreement figures of decision 018.
import { performance } from 'node:perf_hooks';
import { printAgreementReport } from '../scripts/agreement-report.js';
import { fuseInputs, readLiveTimingStreams } from '../src/flags/live-timing.js';
import { deriveLightChanges } from '../src/flags/tracker.js';
import { listRaceControlFixtures, loadRaceControlFixture } from '../test/fixtures.js';

const RUNS = 1000;

function time(run: () => number): { perRunUs: number; changes: number } {
  for (let i = 0; i < 100; i += 1) run();
  const started = performance.now();
  let changes = 0;
  for (let i = 0; i < RUNS; i += 1) changes = run();
  return { perRunUs: ((performance.now() - started) * 1000) / RUNS, changes };
}

const fixtures = listRaceControlFixtures().map((name) => ({ name, fixture: loadRaceControlFixture(name) }));
const largest = fixtures.reduce((a, b) => (b.fixture.messages.length > a.fixture.messages.length ? b : a));
const derive = time(() => deriveLightChanges(largest.fixture.messages).length);
console.log(
  `largest fixture: ${largest.name} (${largest.fixture.messages.length} messages, ${derive.changes} changes)`,
);
console.log(`derive x${RUNS}: ${derive.perRunUs.toFixed(1)} µs per race`);

const merged = readLiveTimingStreams(largest.fixture.live_timing);
if (merged.ok) {
  const fuse = time(() => {
    return fuseInputs(merged.inputs).length;
  });
  console.log(
    `fuse x${RUNS} (--source f1, ${merged.inputs.length} lines, ${fuse.changes} changes): ${fuse.perRunUs.toFixed(1)} µs per race`,
  );
}
console.log('');
printAgreementReport();
