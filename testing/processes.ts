import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * How tests start the server and the operators' CLI as processes of their own: the bundle
 * `npm run build` makes (dist/server), which `npm run serve` runs, not the TypeScript under
 * tsx, which compiles every module at each start (about a second of CPU a process, dozens of
 * processes a run). vitest's global setup (testing/vitest-setup.ts) builds the bundle first
 * when it is missing or older than any server, db or core source.
 */
const ROOT = fileURLToPath(new URL('../', import.meta.url));

/** `node <these> ` = `npm run serve`. */
export const SERVER_NODE_ARGS = ['--enable-source-maps', join(ROOT, 'dist/server/main.js')];

/** `node <these> <command> ...` = `npm run cli -- <command> ...`. */
export const CLI_NODE_ARGS = ['--enable-source-maps', join(ROOT, 'dist/server/cli.js')];
