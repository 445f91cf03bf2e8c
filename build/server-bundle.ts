import { build, type BuildOptions } from 'esbuild';
import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The production server as plain JavaScript: `npm run build` bundles server/main.ts (and the
 * operators' server/cli.ts) into dist/server/ with esbuild, and `npm run serve` runs
 * `node dist/server/main.js`. We measured the same code at 4.9 s to healthy and 182 MB
 * idle under tsx (which compiles every module at start) against 2.0 s and 123 MB bundled.
 *
 * node_modules stay external (`packages: 'external'`): native addons (better-sqlite3,
 * argon2, sharp) cannot be bundled, and the lazily loaded SDKs (stripe, openai, pdfkit,
 * nodemailer) must stay separate files that load on first use. Migrations, the dashboard
 * and the widget are found from configuration (server/config.ts), not from this output.
 */
export const ROOT = fileURLToPath(new URL('../', import.meta.url));
export const SERVER_OUT_DIR = join(ROOT, 'dist/server');
export const SERVER_ENTRIES = ['server/main.ts', 'server/cli.ts'];

export function serverBundleOptions(outdir: string): BuildOptions {
  return {
    absWorkingDir: ROOT,
    entryPoints: SERVER_ENTRIES,
    outdir,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    // Stack traces in the logs point at server/*.ts under `node --enable-source-maps`; the
    // sources themselves are not copied into the map (they are in the repository).
    sourcemap: 'linked',
    sourcesContent: false,
    // Function and class names survive for the same stack traces; no minification, the
    // output is read by node once at start, not sent over a network.
    minify: false,
    legalComments: 'none',
    logLevel: 'warning',
  };
}

export interface BuiltFile {
  name: string;
  bytes: number;
}

/** Builds into `outdir` (emptied first, so no stale chunk survives) and lists what it wrote. */
export async function buildServerBundle(outdir = SERVER_OUT_DIR): Promise<BuiltFile[]> {
  rmSync(outdir, { recursive: true, force: true });
  const result = await build({ ...serverBundleOptions(outdir), metafile: true });
  return Object.keys(result.metafile.outputs)
    .map((file) => ({ name: basename(file), bytes: statSync(join(ROOT, file)).size }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** Newest modification time (ms) of the TypeScript the server bundle is built from. */
function newestSource(dirs = ['server', 'db', 'core']): number {
  let newest = 0;
  for (const dir of dirs) {
    for (const entry of readdirSync(join(ROOT, dir), { recursive: true, withFileTypes: true })) {
      if (entry.isFile() && entry.name.endsWith('.ts')) newest = Math.max(newest, statSync(join(entry.parentPath, entry.name)).mtimeMs);
    }
  }
  return newest;
}

/**
 * For the benches, which run `npm run serve` (dist/server/main.js): builds the bundle when it
 * is missing or older than any server, db or core source, so a figure never describes stale
 * code. Returns whether it built.
 */
export async function ensureServerBundle(): Promise<boolean> {
  const main = join(SERVER_OUT_DIR, 'main.js');
  if (existsSync(main) && statSync(main).mtimeMs >= newestSource()) return false;
  await buildServerBundle();
  return true;
}

// `node --import tsx build/server-bundle.ts`, the last step of `npm run build`.
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const files = await buildServerBundle();
  const listed = files.filter((f) => f.name.endsWith('.js')).map((f) => `${f.name} ${(f.bytes / 1024).toFixed(1)} kB`);
  console.log(`server bundle (dist/server): ${listed.join(', ')}`);
}
