// Prints the time-weighted agreement of derived flags with F1's TrackStatus, per session and overall.
import { combineAgreements, measureAgreement } from '../src/measure/agreement.js';
import { listAgreementFixtures, loadRaceControlFixture } from '../test/fixtures.js';

const rows = listAgreementFixtures().map((name) => ({
  name,
  ...measureAgreement(loadRaceControlFixture(name)),
}));
for (const row of rows) {
  console.log(
    `${row.name.padEnd(40)} ${(row.ratio * 100).toFixed(2).padStart(6)}%  (${(row.totalMs / 60000).toFixed(0)} min)`,
  );
}
const overall = combineAgreements(rows);
console.log(
  `${`overall (${rows.length} complete sessions)`.padEnd(40)} ${(overall.ratio * 100).toFixed(2).padStart(6)}%`,
);
