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
    // Every test's files (and its processes') in one folder of the run's, removed at its end.
    globalSetup: ['./e2e/support/vitest-global-setup.ts'],
    // Two cores on CI: keep the worker count modest so timings stay stable.
    maxWorkers: 2,
    testTimeout: 20_000,
  },
});
