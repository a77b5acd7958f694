import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: [
      'src-shared/**/*.test.ts',
      'src-main/**/*.test.ts',
      'src-renderer/**/*.test.{ts,tsx}',
      'e2e/support/**/*.test.ts',
    ],
    environment: 'node',
    // Two cores on CI: keep the worker count modest so timings stay stable.
    maxWorkers: 2,
    testTimeout: 20_000,
  },
});
