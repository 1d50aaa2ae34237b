import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'lights',
    environment: 'node',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
  },
});
