import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { envSchema } from '../server/config';

/**
 * A server started as a child process the way an operator starts it, timed from spawn to its
 * first 200 from /healthz. Shared by the bundle's test (build/server-bundle.test.ts) and the
 * start-up bench (bench/startup.bench.ts).
 */
export interface ServerProcess {
  child: ChildProcess;
  url: string;
  /** Milliseconds from spawn to the first 200 from GET /healthz. */
  healthyAfterMs: number;
  /** Everything it printed so far (stdout and stderr). */
  output(): string;
  stop(): Promise<void>;
}

export interface ServerProcessOptions {
  /** Arguments to node, e.g. ['dist/server/main.js'] or ['--import', 'tsx', 'server/main.ts']. */
  nodeArgs: string[];
  cwd: string;
  port: number;
  /** Settings for this run; the product's own variables are never inherited from the caller. */
  env: Record<string, string>;
  pollEveryMs?: number;
  timeoutMs?: number;
}

/**
 * The caller's environment without any of the product's own variables (PORT, DATA_DIR,
 * STRIPE_*, NODE_ENV, ...: every key config validates), so a developer's exported keys
 * cannot change what is measured or tested.
 */
export function environmentWithout(productVariables = Object.keys(envSchema.shape)): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !productVariables.includes(key)) env[key] = value;
  }
  return env;
}

export async function spawnServer(options: ServerProcessOptions): Promise<ServerProcess> {
  const url = `http://127.0.0.1:${options.port}`;
  const started = performance.now();
  const child = spawn(process.execPath, options.nodeArgs, {
    cwd: options.cwd,
    env: { ...environmentWithout(), ...options.env, PORT: String(options.port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout!.on('data', (chunk: Buffer) => (log += chunk));
  child.stderr!.on('data', (chunk: Buffer) => (log += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let gone = false;
  void exited.then(() => (gone = true));

  const stop = async () => {
    if (gone) return;
    child.kill('SIGTERM');
    const kill = setTimeout(() => child.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(kill);
  };

  const deadline = started + (options.timeoutMs ?? 120_000);
  while (performance.now() < deadline) {
    if (gone) throw new Error(`the server exited before it was healthy:\n${log}`);
    try {
      const res = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(2_000) });
      if (res.status === 200) return { child, url, healthyAfterMs: performance.now() - started, output: () => log, stop };
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, options.pollEveryMs ?? 10));
  }
  await stop();
  throw new Error(`the server was not healthy within ${options.timeoutMs ?? 120_000} ms:\n${log}`);
}

/** A port free on 127.0.0.1 just now, for a server process to listen on. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}
