import { defineProject } from 'vitest/config';
import { paced } from '../../scripts/test-pace.mjs';

export default defineProject({
  test: {
    name: 'companion',
    environment: 'node',
    // CI's one retry (decision 008): a project does not inherit the root config's `retry`.
    retry: process.env.CI ? 1 : 0,
    // One module graph per worker, shared by its files (no test here mocks a module or relies on a
    // fresh import): each file imported it again before, about half of the run's time.
    isolate: false,
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // The built executable's tests run once, in `npm run test:package` right after the packaging
    // (vitest.package.config.ts); in the whole-repo run they would race that build or repeat it.
    exclude: ['test/package.test.ts', 'test/update.package.test.ts', '**/node_modules/**'],
    // Stretched on a slower host (scripts/test-pace.mjs, decision 054).
    testTimeout: paced(20_000),
    hookTimeout: paced(30_000),
  },
});
