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
  // Two cores: two browsers plus the app server is what the machine carries well.
  workers: 2,
  retries: 0,
  forbidOnly: !!process.env.CI,
  // A whole user path (sign up, analyse, PDF, feedback) takes 15-20 s alone and twice that on a
  // loaded shared box: 60 s keeps a slow machine from failing a test that works.
  timeout: 60_000,
  expect: { timeout: 7_000 },
  reporter: 'list',
  use: {
    baseURL: process.env.E2E_BASE_URL,
    actionTimeout: 10_000,
    navigationTimeout: 15_000,
    trace: 'retain-on-failure',
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
