import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const indexFile = join(repoRoot, 'dist/dashboard/index.html');

/**
 * A fingerprint of the built dashboard. The server reads index.html once at start and
 * serves the hashed assets from disk, so a rebuild during a run (another `npm run build`)
 * leaves it pointing at scripts that are gone: every page would render blank.
 */
export function dashboardBuildId(): string {
  if (!existsSync(indexFile)) {
    throw new Error('e2e: dist/dashboard is missing. Run `npm run test:e2e` (it builds first) or `npm run build`.');
  }
  return createHash('sha256').update(readFileSync(indexFile)).digest('hex');
}
