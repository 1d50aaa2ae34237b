import { defineConfig } from 'vitest/config';
import companion from './vitest.config';

// The Linux single executable's tests, run by `npm run test:package` once the packaging has built
// it: the companion project's settings, this one file only. Their report sits beside the whole-repo
// run's, so CI's closing count includes them.
export default defineConfig({
  test: {
    ...companion.test,
    name: 'companion-package',
    include: ['test/package.test.ts', 'test/update.package.test.ts'],
    exclude: ['**/node_modules/**'],
    reporters: ['default', ['json', { outputFile: '../../test-results/vitest-package.json' }]],
  },
});
