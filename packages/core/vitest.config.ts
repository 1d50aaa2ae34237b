import { defineProject } from 'vitest/config';
import { paced } from '../../scripts/test-pace.mjs';

export default defineProject({
  test: {
    name: 'core',
    environment: 'node',
    // CI's one retry (decision 008): a project does not inherit the root config's `retry`.
    retry: process.env.CI ? 1 : 0,
    // One module graph per worker, shared by its files (no test here mocks a module or relies on a
    // fresh import): each file imported it again before, about half of the run's time.
    isolate: false,
    // Vitest's 5 s, stretched on a slower host (scripts/test-pace.mjs, decision 054).
    testTimeout: paced(5_000),
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
  },
});
