import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'f1-live',
    environment: 'node',
    // One module graph per worker, shared by its files (no test here mocks a module or relies on a
    // fresh import): each file imported it again before, about half of the run's time.
    isolate: false,
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
  },
});
