import { defineConfig } from 'vitest/config';

// Unit and integration tests (node); browser tests live in e2e/ and run under Playwright.
export default defineConfig({
  test: {
    include: ['{build,core,db,server,dashboard,widget,testing}/**/*.test.{ts,tsx}'],
    environment: 'node',
    // The server bundle that tests starting the server or the CLI as processes run (testing/processes.ts).
    globalSetup: ['testing/vitest-setup.ts'],
    // Server log lines are shown for failing tests only.
    silent: 'passed-only',
    // The JSON report is what `npm test` (build/test-all.mjs) reads to list the slowest tests.
    reporters: ['default', ['json', { outputFile: '.vitest/results.json' }]],
    // A limit only stops a test that will never finish: verdicts never depend on the box's
    // speed (docs/testing.md), and the slowest tests (a restore drill, servers started and
    // killed) take three times as long beside a CPU hog. One wide limit, none per test.
    testTimeout: 180_000,
    hookTimeout: 180_000,
    // Two workers on a two-core box (Vitest's default is one fewer than the cores: one here),
    // and files share their worker's module cache instead of importing the server afresh
    // for each of ~190 files: measured 572 s of CPU with isolation against 331 s without
    // (import 219 s against 35 s). Every test builds its own app with createApp(deps) on its
    // own temp SQLite file, so no state a test can see lives in a module; docs/testing.md.
    maxWorkers: 2,
    isolate: false,
  },
});
