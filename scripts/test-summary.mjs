// Prints one closing line over every suite's machine-readable report:
// "tests: N passed, N failed, N skipped". Reports are written by vitest and Playwright (see
// vitest.config.ts and e2e/playwright.config.ts) under test-results/.
import fs from 'node:fs';

const read = (file) => {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
};

let passed = 0;
let failed = 0;
let skipped = 0;
// The whole-repo Vitest run, and the companion executable's tests that `test:package` runs.
const vitestReports = [
  'test-results/vitest.json',
  'test-results/vitest-core.json',
  'test-results/vitest-package.json',
].map(read);
for (const report of vitestReports) {
  if (!report) continue;
  passed += report.numPassedTests ?? 0;
  failed += report.numFailedTests ?? 0;
  skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
}
const vitest = vitestReports.some(Boolean);
// One report per Playwright run: the whole suite (`test:browser`), or one per lane (`npm test`).
const playwrightReports = fs.existsSync('test-results')
  ? fs
      .readdirSync('test-results')
      .filter((name) => /^playwright(-[a-z0-9-]+)?\.json$/.test(name))
      .map((name) => read(`test-results/${name}`))
  : [];
for (const playwright of playwrightReports) {
  if (!playwright?.stats) continue;
  passed += (playwright.stats.expected ?? 0) + (playwright.stats.flaky ?? 0);
  failed += playwright.stats.unexpected ?? 0;
  skipped += playwright.stats.skipped ?? 0;
}
const playwright = playwrightReports.some(Boolean);
if (!vitest && !playwright) {
  console.log('tests: no report found');
  process.exit(1);
}
console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
