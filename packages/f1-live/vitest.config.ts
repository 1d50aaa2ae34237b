import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'f1-live',
    environment: 'node',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
  },
});
