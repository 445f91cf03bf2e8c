import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServerBundle, ROOT, type BuiltFile } from './server-bundle';
import { freePort, spawnServer, type ServerProcess } from './server-process';

/**
 * The bundle as it is deployed: an installation folder holding package.json, node_modules,
 * db/migrations and dist/server/, started from some other working directory. Here that
 * folder is a temp one with links to this repository's node_modules and db/, so the test
 * proves the bundle finds its packages and migrations from its own location.
 */
const install = mkdtempSync(join(tmpdir(), 'treeanalyzer-bundle-'));
const elsewhere = mkdtempSync(join(tmpdir(), 'treeanalyzer-cwd-'));
const dataDir = mkdtempSync(join(tmpdir(), 'treeanalyzer-bundle-data-'));
const moduleLog = join(elsewhere, 'modules.log');
const outDir = join(install, 'dist', 'server');
let files: BuiltFile[] = [];
let server: ServerProcess | undefined;

/**
 * A module hook (node:module register) that writes every resolved module URL to a file:
 * what the process loaded, and when, seen from outside without touching the server's code.
 */
function writeModuleLogger(): string {
  const hooks = join(elsewhere, 'log-hooks.mjs');
  writeFileSync(
    hooks,
    `import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  appendFileSync(${JSON.stringify(moduleLog)}, result.url + '\\n');
  return result;
}
`,
  );
  const register = join(elsewhere, 'log-modules.mjs');
  writeFileSync(register, `import { register } from 'node:module';\nregister(${JSON.stringify(`file://${hooks}`)});\n`);
  return register;
}

/** Packages (by folder under node_modules) the server has resolved so far. */
function loadedPackages(): Set<string> {
  const urls = existsSync(moduleLog) ? readFileSync(moduleLog, 'utf8').split('\n') : [];
  return new Set(urls.map((url) => /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)?.[1]).filter((name): name is string => !!name));
}

beforeAll(async () => {
  writeFileSync(join(install, 'package.json'), JSON.stringify({ name: 'treeanalyzer-pro', private: true, type: 'module' }));
  symlinkSync(join(ROOT, 'node_modules'), join(install, 'node_modules'), 'dir');
  mkdirSync(join(install, 'db'));
  symlinkSync(join(ROOT, 'db', 'migrations'), join(install, 'db', 'migrations'), 'dir');
  files = await buildServerBundle(outDir);

  server = await spawnServer({
    nodeArgs: ['--enable-source-maps', '--import', writeModuleLogger(), join(outDir, 'main.js')],
    cwd: elsewhere,
    port: await freePort(),
    env: {
      NODE_ENV: 'production',
      DATA_DIR: dataDir,
      PUBLIC_URL: 'https://trees.example.com',
      // The real providers are chosen at start; their SDKs must still wait for first use.
      STRIPE_SECRET_KEY: 'sk_test_bundle',
      STRIPE_PUBLISHABLE_KEY: 'pk_test_bundle',
      STRIPE_WEBHOOK_SECRET: 'whsec_bundle',
      OPENAI_API_KEY: 'sk-bundle',
      OPENAI_BASE_URL: 'http://127.0.0.1:9/v1',
    },
    timeoutMs: 15_000,
  });
});

afterAll(async () => {
  await server?.stop();
  for (const dir of [install, elsewhere, dataDir]) rmSync(dir, { recursive: true, force: true });
});

const post = (path: string, body: unknown) =>
  fetch(`${server!.url}${path}`, {
    method: 'POST',
    // The browser's Origin is the public address (PUBLIC_URL), whatever host the request reached.
    headers: { 'content-type': 'application/json', origin: 'https://trees.example.com', 'sec-fetch-site': 'same-origin' },
    body: JSON.stringify(body),
  });

describe('the server bundle', () => {
  it('writes main.js and cli.js with source maps, keeping node_modules out', () => {
    expect(files.map((f) => f.name)).toEqual(['cli.js', 'cli.js.map', 'main.js', 'main.js.map']);
    const main = readFileSync(join(outDir, 'main.js'), 'utf8');
    for (const name of ['hono', 'drizzle-orm', 'better-sqlite3', 'zod', 'iron-session']) expect(main).toMatch(new RegExp(`from "${name}["/]`));
    // Hono alone is over 100 kB of source: inlined packages would show in the size. Our own code
    // was 1.05 MB with the team (December 2026); the packages it imports are several MB together.
    expect(files.find((f) => f.name === 'main.js')!.bytes).toBeLessThan(1.5 * 1024 * 1024);
    expect(main).toContain('//# sourceMappingURL=main.js.map');
  });

  it('starts from another working directory, answers /healthz and has run the migrations', async () => {
    expect((await fetch(`${server!.url}/healthz`)).status).toBe(200);
    const register = await post('/api/auth/register', {
      username: 'bundled',
      email: 'bundled@example.com',
      password: 'bundled-password',
      confirmPassword: 'bundled-password',
    });
    expect(register.status).toBe(201);
    expect(existsSync(join(dataDir, 'treeanalyzer.sqlite'))).toBe(true);
    expect(existsSync(join(elsewhere, 'data'))).toBe(false);
  });

  it('loads stripe, openai, pdfkit, nodemailer and sharp on first use, not at start', async () => {
    const atStart = loadedPackages();
    // The hook sees the packages the server does load at start.
    expect(atStart).toContain('hono');
    expect(atStart).toContain('better-sqlite3');
    for (const name of ['stripe', 'openai', 'pdfkit', 'nodemailer', 'sharp']) expect(atStart).not.toContain(name);

    // The first e-mail (a reset link, written to the outbox after the answer) brings nodemailer in.
    const reset = await post('/api/auth/forgot-password', { email: 'bundled@example.com' });
    expect(reset.status).toBe(200);
    await expect.poll(() => server!.output(), { timeout: 10_000 }).toContain('mail written to outbox');
    expect(loadedPackages()).toContain('nodemailer');
  });
});
