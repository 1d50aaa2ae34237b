import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'server',
    environment: 'node',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Each file builds its own app on a fresh database; argon2 and SQLite keep the CPU busy.
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
