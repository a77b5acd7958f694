import { defineConfig } from '@playwright/test';
import { chromiumExecutable } from './e2e/support/chromium.ts';

/**
 * End-to-end tests run a Chromium found on the machine, or installed when
 * there is none (e2e/support/chromium.ts), against `svc serve` started by
 * the fixtures in e2e/.
 */
export const CHROMIUM_PATH = chromiumExecutable();

export default defineConfig({
  testDir: 'e2e',
  // Vitest's unit tests of the e2e support code (e2e/support/*.test.ts) are not Playwright's.
  testMatch: '**/*.spec.ts',
  outputDir: 'test-results',
  // Every test's files (and the servers') in one folder of the run's, removed at its end.
  globalSetup: './e2e/support/playwright-global-setup.ts',
  timeout: 60_000,
  workers: 1,
  reporter: process.env.CI ? [['list']] : [['list']],
  use: {
    browserName: 'chromium',
    headless: true,
    viewport: { width: 1280, height: 800 },
    launchOptions: {
      executablePath: CHROMIUM_PATH,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
});
