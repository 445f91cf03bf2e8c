import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureServerBundle, SERVER_OUT_DIR } from '../build/server-bundle';
import { spawnServer } from '../build/server-process';
import { cpuMsOf, freePort, mb, percentile, procStatusKb, ROOT, writeSection } from './lib';

/**
 * Start-up time and idle memory (docs/performance.md, Server start-up): the bundled server exactly as
 * `npm run serve` starts it, against the TypeScript path (`node --import tsx server/main.ts`)
 * in the same run as a baseline. Each start: spawn to the first 200 from /healthz (polled every
 * 10 ms), then VmRSS after a second idle. The two take turns, so load from other work on the
 * box falls on both, and their ratio is printed beside the absolute figures.
 */
const RUNS = 5;
const POLL_MS = 10;
const IDLE_MS = 1_000;
const GOAL_HEALTHY_MS = 1_500;
const GOAL_IDLE_MB = 120;

interface Command {
  env: Record<string, string>;
  nodeArgs: string[];
}

/**
 * `npm run serve` read from package.json ("VAR=value ... node <args>"), so the bench measures
 * whatever flags and environment the script gains, without npm's own start-up in the figure.
 */
function serveCommand(): Command {
  const script = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts.serve!;
  const words = script.trim().split(/\s+/);
  const node = words.indexOf('node');
  if (node < 0 || words.slice(0, node).some((w) => !w.includes('='))) throw new Error(`npm run serve is not "VAR=value ... node <args>": ${script}`);
  const env = Object.fromEntries(words.slice(0, node).map((w) => [w.slice(0, w.indexOf('=')), w.slice(w.indexOf('=') + 1)]));
  return { env, nodeArgs: words.slice(node + 1) };
}

interface Sample {
  healthyMs: number;
  /** CPU time (user + system) the server had used when it was first healthy. */
  cpuMs: number;
  idleKb: number;
}

async function startOnce(command: Command, dataDir: string): Promise<Sample> {
  const server = await spawnServer({
    nodeArgs: command.nodeArgs,
    cwd: ROOT,
    port: await freePort(),
    env: { ...command.env, NODE_ENV: 'production', DATA_DIR: dataDir, PUBLIC_URL: 'http://127.0.0.1' },
    pollEveryMs: POLL_MS,
  });
  try {
    const cpu = cpuMsOf(server.child.pid!);
    await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
    return { healthyMs: server.healthyAfterMs, cpuMs: cpu, idleKb: procStatusKb(server.child.pid!, 'VmRSS') };
  } finally {
    await server.stop();
  }
}

const median = (values: number[]) => percentile(values, 50);

async function main(): Promise<void> {
  const loadAtStart = loadavg().map((l) => l.toFixed(2)).join(', ');
  const built = await ensureServerBundle();
  const serve = serveCommand();
  const variants = {
    bundled: serve,
    tsx: { env: serve.env, nodeArgs: ['--import', 'tsx', 'server/main.ts'] },
  } satisfies Record<string, Command>;
  const dataDirs = Object.fromEntries(Object.keys(variants).map((name) => [name, mkdtempSync(join(tmpdir(), `treeanalyzer-startup-${name}-`))]));
  const samples: Record<keyof typeof variants, Sample[]> = { bundled: [], tsx: [] };
  try {
    // One unmeasured start each: it creates and migrates the database and the session secret,
    // and warms the file cache and tsx's compile cache, so every measured start is a restart.
    for (const [name, command] of Object.entries(variants)) await startOnce(command, dataDirs[name]!);
    for (let run = 0; run < RUNS; run += 1) {
      for (const [name, command] of Object.entries(variants) as [keyof typeof variants, Command][]) {
        samples[name].push(await startOnce(command, dataDirs[name]!));
        const last = samples[name].at(-1)!;
        console.log(`${name} run ${run + 1}: healthy ${Math.round(last.healthyMs)} ms (CPU ${last.cpuMs} ms), idle ${mb(last.idleKb)} MB`);
      }
    }
  } finally {
    for (const dir of Object.values(dataDirs)) rmSync(dir, { recursive: true, force: true });
  }

  const healthy = { bundled: median(samples.bundled.map((s) => s.healthyMs)), tsx: median(samples.tsx.map((s) => s.healthyMs)) };
  const cpu = { bundled: median(samples.bundled.map((s) => s.cpuMs)), tsx: median(samples.tsx.map((s) => s.cpuMs)) };
  const idle = { bundled: median(samples.bundled.map((s) => s.idleKb)), tsx: median(samples.tsx.map((s) => s.idleKb)) };
  const bundleKb = statSync(join(SERVER_OUT_DIR, 'main.js')).size / 1024;
  const missed = [
    healthy.bundled >= GOAL_HEALTHY_MS && `healthy after ${Math.round(healthy.bundled)} ms (goal under ${GOAL_HEALTHY_MS} ms)`,
    mb(idle.bundled) >= GOAL_IDLE_MB && `idle RSS ${mb(idle.bundled)} MB (goal under ${GOAL_IDLE_MB} MB)`,
  ].filter((m): m is string => typeof m === 'string');

  const all = (name: keyof typeof variants, pick: (s: Sample) => string) => samples[name].map(pick).join(', ');
  const body = [
    `Written by \`bench/startup.bench.ts\` (\`npm run bench -- startup\`). Median of ${RUNS} starts each, taking turns, after one unmeasured start each (which creates the database): time from spawn to the first 200 from \`/healthz\` (polled every ${POLL_MS} ms), then VmRSS after ${IDLE_MS / 1000} s idle. \`NODE_ENV=production\`, a temp \`DATA_DIR\`, no outside services configured.`,
    '',
    `- bundled: \`npm run serve\` as package.json has it (\`${Object.entries(serve.env).map(([k, v]) => `${k}=${v}`).join(' ')} node ${serve.nodeArgs.join(' ')}\`), dist/server/main.js ${bundleKb.toFixed(0)} kB${built ? ', built for this run' : ''}.`,
    `- tsx: \`node --import tsx server/main.ts\` with the same environment, the TypeScript path \`npm run dev\` keeps.`,
    `- Goal for the bundle: healthy in under ${GOAL_HEALTHY_MS / 1000} s, idle RSS under ${GOAL_IDLE_MB} MB.`,
    '',
    '| Server | Healthy after (median) | CPU time to healthy (median) | Idle RSS (median) | Every start: ms / CPU ms / MB |',
    '| --- | ---: | ---: | ---: | --- |',
    ...(['bundled', 'tsx'] as const).map(
      (name) =>
        `| ${name} | ${Math.round(healthy[name])} ms | ${cpu[name]} ms | ${mb(idle[name])} MB | ${all(name, (s) => `${Math.round(s.healthyMs)}/${s.cpuMs}/${mb(s.idleKb)}`)} |`,
    ),
    `| ratio bundled / tsx | ${(healthy.bundled / healthy.tsx).toFixed(2)}x | ${(cpu.bundled / cpu.tsx).toFixed(2)}x | ${(idle.bundled / idle.tsx).toFixed(2)}x | |`,
    '',
    missed.length > 0 ? `**Goal missed:** ${missed.join('; ')}.` : 'Both goals met.',
    '',
    `Wall time to healthy depends on what else the box runs (load average at the start ${loadAtStart}); the CPU time and the ratios hold across runs.`,
  ].join('\n');
  writeSection('startup', 'Server start-up and idle memory', body);
  console.log(`\n${body}`);
  if (missed.length > 0) process.exitCode = 1;
}

await main();
