import { defineConfig } from 'vitest/config';

// Unit and integration tests (node); browser tests live in e2e/ and run under Playwright.
export default defineConfig({
  test: {
    include: ['{build,core,db,server,dashboard,widget}/**/*.test.{ts,tsx}'],
    environment: 'node',
    // Server log lines are shown for failing tests only.
    silent: 'passed-only',
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});
