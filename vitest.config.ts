import { defineConfig } from 'vitest/config';

// One run over every workspace; each project keeps its own environment.
export default defineConfig({
  test: {
    projects: [
      'packages/core',
      'packages/lights',
      'packages/data',
      'packages/sims',
      'packages/f1-live',
      'apps/server',
      'apps/web',
      'apps/companion',
    ],
    // Most suites wait on sockets, timers and child processes, not the CPU: with three files at a
    // time a whole run kept 0.7 of the 2-core CI machine's cores busy (244 s of CPU in 351 s). Four
    // at once fill them better (`npm test` runs the browser journeys beside it); a file's
    // timing-sensitive waits are generous for it (DESIGN §7: figures from bench/, never timed asserts).
    maxWorkers: 4,
    // CI gets one retry so a timing hiccup on a loaded machine does not sink a whole landing;
    // a test that fails twice still fails, and the retried ones are listed (decision 008). A
    // project does not inherit this: each project's config says it again.
    retry: process.env.CI ? 1 : 0,
    // Fails the run when a test leaves a process behind (a demo server it forgot to end).
    globalSetup: ['scripts/vitest-process-guard.mjs'],
    // `npm test` runs the core project (with coverage) and the rest (without) as two runs, each with
    // a report of its own (scripts/test-lanes.mjs); scripts/test-summary.mjs counts both.
    reporters: ['default', ['json', { outputFile: process.env.VITEST_REPORT ?? 'test-results/vitest.json' }]],
    coverage: {
      provider: 'v8',
      // Every branch of flag derivation and session windows stays covered: they decide what the lights show.
      // Core's own tests cover them whole, so `npm test` measures coverage on the core project only:
      // V8's precise coverage made the other projects' tests cost about a tenth more CPU.
      include: ['packages/core/src/flags/**', 'packages/core/src/sessions/**'],
      exclude: ['**/*.test.ts', '**/index.ts'],
      reporter: ['text-summary'],
      thresholds: { branches: 100 },
    },
  },
});
