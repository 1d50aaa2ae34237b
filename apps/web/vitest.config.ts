import react from '@vitejs/plugin-react';
import { defineProject } from 'vitest/config';
import { paced } from '../../scripts/test-pace.mjs';

export default defineProject({
  plugins: [react()],
  test: {
    name: 'web',
    environment: 'jsdom',
    // CI's one retry (decision 008): a project does not inherit the root config's `retry`.
    retry: process.env.CI ? 1 : 0,
    // One module graph per worker, shared by its files (no test here mocks a module): each file
    // imported it again before, about half of the run's time (43 CPU s against 131 today). What
    // modules keep beyond the page's storage is reset after each test (test/setup.ts).
    isolate: false,
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['./test/setup.ts'],
    // A file's first test renders its screen with the imports that screen loads: on a slow CI host
    // with every core busy, one took over 5 s (Vitest's default) to find its first text.
    // Stretched on a slower host (scripts/test-pace.mjs, decision 054).
    testTimeout: paced(15_000),
  },
});
