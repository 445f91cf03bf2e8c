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
    // Two workers on a two-core box (Vitest's default is one fewer than the cores: one here),
    // and files share their worker's module cache instead of importing the server afresh
    // for each of ~190 files: measured 572 s of CPU with isolation against 331 s without
    // (import 219 s against 35 s). Every test builds its own app with createApp(deps) on its
    // own temp SQLite file, so no state a test can see lives in a module; docs/testing.md.
    maxWorkers: 2,
    isolate: false,
  },
});
