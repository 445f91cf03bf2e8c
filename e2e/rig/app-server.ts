import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync } from 'node:fs';
import { join } from 'node:path';
import { createServer, type AddressInfo } from 'node:net';

export interface AppServer {
  baseURL: string;
  stop(): Promise<void>;
}

export interface AppServerOptions {
  repoRoot: string;
  dataDir: string;
  smtpPort: number;
  logFile: string;
  startTimeoutMs?: number;
  /** More settings, e.g. OPENAI_BASE_URL for a server with a (fake) vision model. */
  env?: Record<string, string>;
}

/** Outside-service settings a developer may have exported; the rig must not use them. */
const INHERITED_ENV_TO_DROP = [
  'PORT',
  'DATA_DIR',
  'PUBLIC_URL',
  'SESSION_SECRET',
  'SMTP_URL',
  'MAIL_FROM',
  'OPENAI_API_KEY',
  'OPENAI_BASE_URL',
  'OPENAI_MODEL',
  'STRIPE_SECRET_KEY',
  'STRIPE_PUBLISHABLE_KEY',
  'STRIPE_WEBHOOK_SECRET',
  'STRIPE_API_BASE',
  'POSTCODE_LOOKUP_URL',
  'PLANNING_DATA_URL',
  'PROTECTION_LOOKUPS',
  'WEATHER',
  'WEATHER_URL',
  'WEATHER_CONTACT',
  'WEATHER_TIMEOUT_MS',
];

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** What `npm run serve` runs: the bundle `npm run build` writes (build/server-bundle.ts). */
export const SERVER_BUNDLE = 'dist/server/main.js';

/**
 * Starts the real app as users run it (`node --enable-source-maps dist/server/main.js`, the
 * bundle `npm run build` makes; `npm run test:e2e` builds first) on a free loopback port
 * with a temp DATA_DIR and the mail catcher as its SMTP server, and resolves once
 * GET /healthz answers 200. Its output goes to `logFile`; the tail of it is put in
 * the error when the server exits or does not become healthy in time.
 */
export async function startAppServer(opts: AppServerOptions): Promise<AppServer> {
  const port = await freePort();
  const baseURL = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of INHERITED_ENV_TO_DROP) delete env[name];
  Object.assign(env, {
    PORT: String(port),
    DATA_DIR: opts.dataDir,
    SMTP_URL: `smtp://127.0.0.1:${opts.smtpPort}`,
    MAIL_FROM: 'no-reply@treeanalyzer.test',
    PUBLIC_URL: baseURL,
    NODE_ENV: 'test',
    // Every browser test's visitor comes from 127.0.0.1: more estimates an hour than one real visitor needs.
    EMBED_ANALYSES_PER_ADDRESS: '200',
    LEADS_PER_ADDRESS: '100',
    ...opts.env,
  });

  if (!existsSync(join(opts.repoRoot, SERVER_BUNDLE))) {
    throw new Error(`e2e: ${SERVER_BUNDLE} is missing: run the browser tests with \`npm run test:e2e\`, which builds it first.`);
  }
  const child = spawn(process.execPath, ['--enable-source-maps', SERVER_BUNDLE], {
    cwd: opts.repoRoot,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log = createWriteStream(opts.logFile);
  let tail = '';
  const keepTail = (chunk: Buffer) => {
    log.write(chunk);
    tail = (tail + chunk.toString('utf8')).slice(-6000);
  };
  child.stdout?.on('data', keepTail);
  child.stderr?.on('data', keepTail);

  const exited = new Promise<string>((resolve) => {
    child.once('exit', (code, signal) => resolve(`exited with ${signal ?? `code ${code}`}`));
    child.once('error', (err) => resolve(`could not start: ${err.message}`));
  });

  const stop = async () => {
    await stopChild(child, exited);
    await new Promise<void>((resolve) => log.end(() => resolve()));
  };

  const problem = await Promise.race([
    waitForHealthy(baseURL, opts.startTimeoutMs ?? 30_000),
    exited.then((how) => `the server ${how}`),
  ]);
  if (problem) {
    await stop();
    throw new Error(
      `e2e: the app did not start at ${baseURL}: ${problem}.\n` +
        `--- server output (full log: ${opts.logFile}) ---\n${tail.trim() || '(none)'}\n---`,
    );
  }
  return { baseURL, stop };
}

/** Resolves to undefined when healthy, or to a description of why it is not. */
async function waitForHealthy(baseURL: string, timeoutMs: number): Promise<string | undefined> {
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer';
  while (Date.now() < deadline) {
    try {
      const res = await fetch(`${baseURL}/healthz`, { signal: AbortSignal.timeout(2000) });
      if (res.status === 200) return undefined;
      last = `GET /healthz answered ${res.status}`;
    } catch (err) {
      last = `GET /healthz failed: ${(err as Error).message}`;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return `not healthy after ${timeoutMs / 1000} s (${last})`;
}

async function stopChild(child: ChildProcess, exited: Promise<string>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(timer);
}
