import { ensureServerBundle } from '../build/server-bundle';

/**
 * vitest's global setup, once per run before any test file: the server bundle the
 * process-starting tests run (testing/processes.ts), rebuilt only when a source is newer
 * (under a second; `npm test` has just built it).
 */
export default async function setup(): Promise<void> {
  if (await ensureServerBundle()) console.log('vitest: built dist/server for the tests that start the server or the CLI');
}
