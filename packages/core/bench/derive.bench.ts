// Benchmark of DESIGN §7 "full-race derivation (≈ 1,000 messages) < 5 ms", plus agreement figures.
import { performance } from 'node:perf_hooks';
import { deriveLightChanges } from '../src/flags/tracker.js';
import { combineAgreements, measureAgreement } from '../src/measure/agreement.js';
import { listAgreementFixtures, listRaceControlFixtures, loadRaceControlFixture } from '../test/fixtures.js';

const RUNS = 1000;

const largest = listRaceControlFixtures()
  .map((name) => ({ name, messages: loadRaceControlFixture(name).messages }))
  .reduce((a, b) => (b.messages.length > a.messages.length ? b : a));

for (let i = 0; i < 100; i += 1) deriveLightChanges(largest.messages);
const started = performance.now();
let changes = 0;
for (let i = 0; i < RUNS; i += 1) changes = deriveLightChanges(largest.messages).length;
const perRaceUs = ((performance.now() - started) * 1000) / RUNS;

console.log(`largest fixture: ${largest.name} (${largest.messages.length} messages, ${changes} changes)`);
console.log(`derive x${RUNS}: ${perRaceUs.toFixed(1)} µs per race`);

const rows = listAgreementFixtures().map((name) => ({
  name,
  ...measureAgreement(loadRaceControlFixture(name)),
}));
for (const row of rows) console.log(`  ${row.name.padEnd(38)} ${(row.ratio * 100).toFixed(2)}%`);
console.log(
  `agreement over ${rows.length} complete sessions: ${(combineAgreements(rows).ratio * 100).toFixed(2)}%`,
);
