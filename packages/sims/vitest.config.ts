import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'sims',
    environment: 'node',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
  },
});
