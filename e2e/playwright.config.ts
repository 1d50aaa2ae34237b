import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from '@playwright/test';
import { paced } from '../scripts/test-pace.mjs';

const E2E_DIR = path.dirname(fileURLToPath(import.meta.url));
const REPO_ROOT = path.resolve(E2E_DIR, '..');
// E2E_PORT lets two runs share a machine (parallel work); CI uses the default.
const PORT = Number(process.env.E2E_PORT ?? 3199);
const BASE_URL = `http://127.0.0.1:${PORT}`;

/**
 * The real-time journeys: a demo server of their own, or the shared one's light simulators and feeds.
 * In groups: `npm test` runs each group on a demo server of its own, side by side (E2E_REAL_TIME_GROUP,
 * scripts/test-lanes.mjs); `npm run test:browser` runs them all one after another. A group is about a
 * third of the lane's time (test-flags.spec.ts alone is over two minutes).
 */
const REAL_TIME_GROUPS = [
  [
    'test-flags.spec.ts',
    'lights-hue.spec.ts',
    'lights-govee.spec.ts',
    'preferences.spec.ts',
    'looks-players.spec.ts',
  ],
  [
    'live-race-control.spec.ts',
    'companion.spec.ts',
    'lights-accessibility.spec.ts',
    'live-sources.spec.ts',
    'connection-lost.spec.ts',
  ],
  [
    'lights.spec.ts',
    'first-minute.spec.ts',
    'every-brand-choice.spec.ts',
    'companion-looks.spec.ts',
    'cloud-room-back.spec.ts',
    'cloud-room-afterwards.spec.ts',
  ],
];
const REAL_TIME_FILES = REAL_TIME_GROUPS.flat();
// A renamed file would silently leave the real-time lane and race the others on the simulators.
for (const file of REAL_TIME_FILES) {
  if (!existsSync(path.join(E2E_DIR, 'tests', file)))
    throw new Error(`REAL_TIME names ${file}: no such journey`);
}
const GROUP = process.env.E2E_REAL_TIME_GROUP;
const groupFiles = GROUP ? REAL_TIME_GROUPS[Number(GROUP) - 1] : REAL_TIME_FILES;
if (!groupFiles) throw new Error(`E2E_REAL_TIME_GROUP=${GROUP}: there are ${REAL_TIME_GROUPS.length} groups`);

// `npm test` runs the journeys as lanes of their own, side by side (scripts/test-lanes.mjs): each
// lane keeps its failures and reports apart, so none clears another's.
const LANE = process.env.E2E_LANE ? `-${process.env.E2E_LANE.replace(/[^a-z0-9-]/g, '')}` : '';

const REAL_TIME = REAL_TIME_FILES.map((file) => `**/${file}`);

// A fresh database per run. The config is loaded by the runner and again by every worker;
// workers inherit the runner's environment, so they all agree on the one folder.
process.env.FLAGLIGHT_E2E_DATA_DIR ??= mkdtempSync(path.join(tmpdir(), 'flaglight-e2e-'));

export default defineConfig({
  testDir: path.join(E2E_DIR, 'tests'),
  // Failures (traces, and for screenshots the actual image and its diff) land here, git-ignored.
  outputDir: path.join(E2E_DIR, `artifacts/test-results${LANE}`),
  // Committed baselines of toHaveScreenshot, taken with this machine's Chromium and fonts.
  snapshotPathTemplate: path.join(E2E_DIR, 'screenshots/{arg}{ext}'),
  // Two journeys at a time (E2E_WORKERS, for the screens' own lane, may say more). The real-time ones
  // run one after another from the start, beside the others: they spend much of their time waiting
  // on the race's clock, which the others fill. When they are done, the rest run two at a time.
  workers: Number(process.env.E2E_WORKERS ?? 2),
  projects: [
    // Journeys that wait on flags in real time, and every one that drives the light simulators
    // (they reset them): one at a time, and first in the queue.
    { name: 'real-time', testMatch: groupFiles.map((file) => `**/${file}`), workers: 1 },
    { name: 'screens', testIgnore: REAL_TIME },
  ],
  // One retry in CI only; Playwright reports such a test as flaky (decision 008).
  retries: process.env.CI ? 1 : 0,
  forbidOnly: Boolean(process.env.CI),
  // Ceilings, stretched on a host slower than the CI machine they were tuned on (FLAGLIGHT_TEST_PACE,
  // measured by `npm test`: scripts/test-pace.mjs, decision 054), and by 3 in CI. A passing journey
  // never waits for them; a spec's own test.setTimeout is stretched the same way (paced).
  timeout: paced(30_000),
  expect: { timeout: paced(5_000) },
  reporter: [
    ['list'],
    ['html', { outputFolder: path.join(E2E_DIR, `artifacts/report${LANE}`), open: 'never' }],
    // Read by scripts/test-summary.mjs for CI's closing line.
    ['json', { outputFile: path.join(E2E_DIR, '..', 'test-results', `playwright${LANE}.json`) }],
  ],
  use: {
    baseURL: BASE_URL,
    browserName: 'chromium',
    viewport: { width: 1440, height: 900 },
    // A trace records every step's snapshot and a screencast: ~0.75 s a journey on this machine,
    // over two minutes a run. Only a retried journey records one (in CI, every failure is retried
    // once); locally, `--trace on` records them all.
    trace: 'on-first-retry',
    screenshot: 'only-on-failure',
    launchOptions: {
      // Debian's Chromium; never a downloaded browser (DESIGN §3).
      executablePath: '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
  webServer: {
    // The server bundled as one file, run in this one process (scripts/entry-bundle.mjs, decision
    // 053): about half the CPU of a start under tsx's loader, and there are four per `npm test`.
    command: 'node scripts/entry-bundle.mjs server',
    cwd: REPO_ROOT,
    env: {
      PORT: String(PORT),
      FLAGLIGHT_MODE: 'demo',
      // The journeys were written against the whole race from before its start (quiet at first);
      // the newcomer's looping demo has a fresh server of its own (first-minute.spec.ts).
      DEMO_RACE: 'full',
      DATA_DIR: process.env.FLAGLIGHT_E2E_DATA_DIR,
      LOG_LEVEL: 'warn',
      // E-mail links use this origin. A checkout returns to whichever of its loopback names the
      // page was opened at (checkout-origin.spec.ts opens the app at localhost).
      PUBLIC_URL: BASE_URL,
      // Every journey signs in for real; the production limit would refuse a full run.
      AUTH_RATE_LIMIT_PER_MINUTE: '1000',
    },
    url: `${BASE_URL}/api/health`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
