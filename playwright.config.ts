import { defineConfig, devices } from '@playwright/test';
import { CHROMIUM_FLAGS } from './e2e/chromium-flags';

/**
 * Browser tests run in the system's Chromium (Debian's `chromium` package), never a
 * Playwright-downloaded browser: `npm run test:e2e` (e2e/run.mjs) finds it and
 * exports CHROMIUM_PATH. Global setup starts the real app and a mail catcher and
 * exports E2E_BASE_URL; e2e/fixtures.ts hands that to every test as baseURL.
 */
export default defineConfig({
  testDir: 'e2e',
  testMatch: '*.spec.ts',
  globalSetup: './e2e/global-setup.ts',
  fullyParallel: true,
  // Two browsers plus the app server on two cores: the browser tests are CPU-bound (834 s of CPU
  // in 446 s with two), so a third only adds contention. PW_WORKERS sets another number.
  workers: Number(process.env.PW_WORKERS) || 2,
  retries: 0,
  forbidOnly: !!process.env.CI,
  // Waits follow the page's state; these limits only stop a test that will never get there. A
  // whole user path (sign up, analyse, PDF, feedback) takes 15-40 s alone and three times that
  // beside a CPU hog on two cores, so the limits are wide: no verdict depends on the box's speed.
  timeout: 240_000,
  expect: { timeout: 30_000 },
  // The list as it runs, and a JSON report npm test reads to print the slowest specs.
  reporter: [['list'], ['json', { outputFile: '.playwright/results.json' }]],
  use: {
    baseURL: process.env.E2E_BASE_URL,
    actionTimeout: 30_000,
    navigationTimeout: 30_000,
    // A failed test leaves a screenshot and its page's accessibility snapshot (error-context.md)
    // beside the error. Traces are off unless asked for (PW_TRACE=on keeps a failed test's trace):
    // recording every test's actions and DOM cost a third of the browser tests' CPU on this
    // two-core box, for traces no one opens when the tests pass (docs/testing.md).
    trace: process.env.PW_TRACE === 'on' ? 'retain-on-failure' : 'off',
    screenshot: 'only-on-failure',
  },
  projects: [
    {
      name: 'chromium',
      use: {
        ...devices['Desktop Chrome'],
        launchOptions: {
          executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
          args: CHROMIUM_FLAGS,
        },
      },
    },
  ],
});
