import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, totalmem } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { ensureServerBundle } from '../build/server-bundle';
import { MAX_UPLOAD_BYTES } from '../core/analysis';
import { fixturePhoto } from '../testing/images';

/** Helpers for bench/analysis.bench.ts: the upload it sends, timings, and the server child process. */

export const ROOT = fileURLToPath(new URL('../', import.meta.url));
export const MIB = 1024 * 1024;

/** The "10 MB" upload is the product's limit, MAX_UPLOAD_BYTES (10 MiB); we want 9.5 MiB up to it. */
export const TARGET_MIN_BYTES = 9.5 * MIB;

/**
 * A camera-sized 4000x3000 JPEG just under the upload limit: testing/images.ts bigJpeg
 * (a real photo stretched, plus sensor-like noise), but with a seeded noise so every run sends
 * the same bytes, and stronger noise at a higher quality so it reaches 9.5-10 MiB. Amplitude 50
 * at quality 98 measured 9.69 MiB; the loop steps down should libjpeg ever encode it larger.
 */
export async function tenMegabyteJpeg(width = 4000, height = 3000, amplitude = 50): Promise<{ bytes: Buffer; quality: number }> {
  const pixels = await sharp(fixturePhoto('elm-open-ground.jpg')).resize(width, height, { fit: 'fill' }).raw().toBuffer();
  let seed = 0x9e3779b9;
  for (let i = 0; i < pixels.length; i += 1) {
    // xorshift32 (Marsaglia 2003): a fixed sequence, so the file is identical run to run.
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    pixels[i] = Math.max(0, Math.min(255, pixels[i]! + ((seed >>> 0) % amplitude) - (amplitude >> 1)));
  }
  for (let quality = 98; quality >= 90; quality -= 1) {
    const bytes = await sharp(pixels, { raw: { width, height, channels: 3 } }).jpeg({ quality }).toBuffer();
    if (bytes.length <= MAX_UPLOAD_BYTES) {
      if (bytes.length < TARGET_MIN_BYTES) throw new Error(`bench image is ${bytes.length} bytes, under 9.5 MiB: raise the noise`);
      return { bytes, quality };
    }
  }
  throw new Error('bench image does not fit under the upload limit at quality 90');
}

/**
 * Milliseconds of each of `runs` calls of every measure after `warmup` unmeasured ones, one call
 * at a time. The measures take turns, so load from other work on the box falls on all alike
 * and their ratio holds even when the absolute figures move.
 */
export async function timeInTurns<K extends string>(warmup: number, runs: number, measures: Record<K, () => Promise<void>>): Promise<Record<K, number[]>> {
  const entries = Object.entries(measures) as [K, () => Promise<void>][];
  const times = Object.fromEntries(entries.map(([name]) => [name, [] as number[]])) as Record<K, number[]>;
  for (let i = 0; i < warmup + runs; i += 1) {
    for (const [name, fn] of entries) {
      const start = performance.now();
      await fn();
      if (i >= warmup) times[name].push(performance.now() - start);
    }
  }
  return times;
}

/** Nearest-rank percentile (p in 0-100). */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

export function machine() {
  const cpu = /^model name\s*:\s*(.+)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1] ?? 'unknown';
  return {
    node: process.version,
    cpu,
    cores: availableParallelism(),
    memoryGiB: Math.round(totalmem() / 1024 ** 3),
    sharp: sharp.versions.sharp ?? 'unknown',
    libvips: sharp.versions.vips,
    /** Other work on the box skews the timings (not the memory much): worth printing beside them. */
    load: loadavg().map((l) => l.toFixed(2)).join(', '),
  };
}

/**
 * A process's CPU time so far, user and system, in ms, from /proc/<pid>/stat (utime and stime,
 * fields 14 and 15, in USER_HZ ticks, which Linux fixes at 100 a second). On a busy box wall
 * times grow with the queue for the cores; this does not, so it says what the work costs.
 */
export function cpuMsOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name, which is in parentheses and may hold spaces: state is field 3.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** Allocator and thread settings in a process's environment, as it was started ('' for none). */
export function allocatorSettings(pid: number): string {
  return readFileSync(`/proc/${pid}/environ`, 'utf8')
    .split('\0')
    .filter((entry) => /^(MALLOC_|GLIBC_TUNABLES=|UV_THREADPOOL_SIZE=|VIPS_|LD_PRELOAD=)/.test(entry))
    .join(' ');
}

export { freePort } from '../build/server-process';

/**
 * The real server as an operator starts it, `npm run serve` (the bundle, `node
 * dist/server/main.js`, built first when missing or older than the sources), so any flag or
 * environment the script gains is measured too. Resolves with the server's own process id
 * (below npm and perhaps a shell) once it prints its listening line.
 */
export async function startServerProcess(env: Record<string, string>): Promise<{ child: ChildProcess; pid: number }> {
  await ensureServerBundle();
  const child = spawn('npm', ['run', '--silent', 'serve'], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stderr!.on('data', (chunk: Buffer) => (log += chunk));
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      log += chunk;
      if (log.includes('listening on')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code} before listening:\n${log}`)));
  });
  const pid = findServerPid(child.pid!);
  if (pid === undefined) throw new Error('server is listening, but no node process running the server was found under npm');
  return { child, pid };
}

/** The server's entry as `npm run serve` runs it (the bundle) or as a developer does (tsx). */
const SERVER_ENTRIES = ['dist/server/main.js', 'server/main.ts'];

/** Breadth-first through /proc/<pid>/task/<tid>/children for the node process running the server. */
function findServerPid(rootPid: number): number | undefined {
  const queue = [rootPid];
  while (queue.length > 0) {
    const pid = queue.shift()!;
    let argv: string[];
    let tasks: string[];
    try {
      argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      tasks = readdirSync(`/proc/${pid}/task`);
    } catch {
      continue; // exited meanwhile
    }
    if (basename(argv[0] ?? '') === 'node' && argv.some((arg) => SERVER_ENTRIES.includes(arg))) return pid;
    for (const task of tasks) {
      const children = readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim();
      if (children) queue.push(...children.split(/\s+/).map(Number));
    }
  }
  return undefined;
}

/** SIGTERM to the server itself (its graceful shutdown), then wait for npm to exit with it. */
export async function stopServerProcess({ child, pid }: { child: ChildProcess; pid: number }): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  process.kill(pid, 'SIGTERM');
  await exited;
}

/** `npm run cli -- <args>` against the given DATA_DIR, as docs/operations.md, Operator commands, tells an operator. */
export async function runCli(args: string[], env: Record<string, string>): Promise<string> {
  const child = spawn('npm', ['run', '--silent', 'cli', '--', ...args], { cwd: ROOT, env: { ...process.env, ...env } });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk));
  child.stderr.on('data', (chunk: Buffer) => (out += chunk));
  const code = await new Promise((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`npm run cli -- ${args.join(' ')} failed (${code}): ${out}`);
  return out.trim();
}

/** A /proc/<pid>/status field in kB, e.g. VmRSS (resident now) or VmHWM (resident peak). */
export function procStatusKb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!match) throw new Error(`no ${field} for pid ${pid}`);
  return Number(match[1]);
}

/** Samples a process's VmRSS every `everyMs` until stopped; returns the largest sample in kB. */
export function sampleRss(pid: number, everyMs = 5): { stop(): number } {
  let max = procStatusKb(pid, 'VmRSS');
  const timer = setInterval(() => {
    max = Math.max(max, procStatusKb(pid, 'VmRSS'));
  }, everyMs);
  return {
    stop() {
      clearInterval(timer);
      return Math.max(max, procStatusKb(pid, 'VmRSS'));
    },
  };
}

export const mb = (kb: number) => Math.round(kb / 1024);
export const ms = (value: number) => `${Math.round(value)} ms`;

/**
 * The short commit the bench ran against, marked when server/, db/, core/, dashboard/ or widget/
 * have uncommitted changes (the figures then describe code no commit holds).
 */
export function commit(): string {
  try {
    const sha = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT }).toString().trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--', 'server', 'db', 'core', 'dashboard', 'widget'], { cwd: ROOT }).toString().trim();
    return dirty ? `${sha} (with uncommitted changes)` : sha;
  } catch {
    return 'unknown';
  }
}

/** The bench suite's sections, in the order bench/RESULTS.md shows them (bench/run.ts). */
export const SECTIONS = ['frontend', 'phone-photo', 'crew-phone', 'startup', 'api', 'analysis', 'capacity', 'restore', 'hostile', 'attacks', 'learning', 'schedule'] as const;
export type Section = (typeof SECTIONS)[number];

/**
 * Each bench script writes its own section to bench/results/<name>.md, stamped with its date
 * and commit; `npm run bench` (bench/run.ts) runs them all and joins the sections, under one
 * header naming the machine, into bench/RESULTS.md. A script run alone refreshes its section.
 */
export function writeSection(name: Section, title: string, body: string): void {
  const dir = join(ROOT, 'bench/results');
  mkdirSync(dir, { recursive: true });
  const stamp = `_Measured ${new Date().toISOString()} at commit ${commit()}; load average at the end ${loadavg().map((l) => l.toFixed(2)).join(', ')}._`;
  writeFileSync(join(dir, `${name}.md`), `## ${title}\n\n${stamp}\n\n${body.trim()}\n`);
}

/**
 * A server process's own account, made the way a user makes one: registered over HTTP (a
 * same-origin POST), then granted credits by the operator command in that installation.
 */
export async function postJson(server: { url: string }, path: string, body: unknown, cookie = ''): Promise<{ res: Response; cookie: string }> {
  const res = await fetch(server.url + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: server.url, 'sec-fetch-site': 'same-origin', ...(cookie && { cookie }) },
    body: JSON.stringify(body),
  });
  if (res.status >= 300) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return { res, cookie: cookie || res.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ') };
}

let benchAccounts = 0;
export async function registerAccount(
  server: { url: string },
  options: { credits?: number; root?: string; env?: Record<string, string> } = {},
): Promise<{ cookie: string; username: string }> {
  benchAccounts += 1;
  const username = `bench${process.pid}x${benchAccounts}`;
  const password = 'correct horse';
  const { cookie } = await postJson(server, '/api/auth/register', {
    firstName: 'Bench', lastName: 'Mark', username, email: `${username}@example.com`, password, confirmPassword: password,
  });
  if (options.credits) {
    execFileSync(process.execPath, ['--import', 'tsx', 'server/cli.ts', 'grant-credits', username, String(options.credits)], {
      cwd: options.root ?? ROOT,
      env: { ...process.env, ...options.env },
    });
  }
  return { cookie, username };
}
