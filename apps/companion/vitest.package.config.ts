import { defineConfig } from 'vitest/config';

// The Linux single executable's tests, run by `npm run test:package` once the packaging has built
// it. Their report sits beside the whole-repo run's, so CI's closing count includes them.
export default defineConfig({
  test: {
    name: 'companion-package',
    environment: 'node',
    include: ['test/package.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    reporters: ['default', ['json', { outputFile: '../../test-results/vitest-package.json' }]],
  },
});
