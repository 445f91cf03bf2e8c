import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { normaliseImage, STORED_MAX_EDGE } from '../server/analysis/image';
import { analysisForm, grantTo } from '../server/testing/analysis';
import { registerClient, startTestServer, TestClient } from '../server/testing/harness';
import {
  allocatorSettings, freePort, machine, mb, MIB, ms, percentile, procStatusKb, runCli, sampleRss, startServerProcess,
  stopServerProcess, tenMegabyteJpeg, timeInTurns, writeSection,
} from './lib';

/**
 * The server-side cost of one analysis without a model call (the issue's benchmark):
 *   1. sharp's bare decode -> fit 2048 -> JPEG encode of a 10 MB 4000x3000 photo (the floor);
 *   2. the same photo through POST /api/analyze-tree on the real server with the local
 *      provider: upload, image normalisation, credits, local provider, storage, ledger;
 *   3. 10 such uploads at once against the server in its own process, its peak RSS
 *      against the budget.
 * Run: npm run bench -- analysis (part of npm run bench). Writes bench/results/analysis.md.
 */

const WARMUP = 2;
const RUNS = 10;
const CONCURRENT = 10;
/** The issue's memory budget for 10 uploads at once. */
const RSS_BUDGET_MB = 400;
const DESCRIPTION = 'oak, about 16 inch trunk, 40 ft tall, next to the shed, access through a side gate';

const m = machine();
const { bytes: image, quality } = await tenMegabyteJpeg();
console.log(`upload: 4000x3000 JPEG, quality ${quality}, ${image.length} bytes (${(image.length / MIB).toFixed(2)} MiB)`);

// 1 and 2, in turns: the floor, what any server must spend to turn this upload into a stored
// 2048 px JPEG (quality 85 without mozjpeg, the stored copy's settings in server/analysis/image.ts);
// normaliseImage alone; and one whole analysis through the real app over HTTP (the test
// harness: temp DATA_DIR, real SQLite, local provider).
const times = await (async () => {
  const server = await startTestServer();
  try {
    const { client, account } = await registerClient(server);
    grantTo(server, account.username, (WARMUP + RUNS) * 10);
    return await timeInTurns(WARMUP, RUNS, {
      baseline: async () => {
        await sharp(image)
          .resize(STORED_MAX_EDGE, STORED_MAX_EDGE, { fit: 'inside', withoutEnlargement: true })
          .jpeg({ quality: 85, mozjpeg: false })
          .toBuffer();
      },
      normalise: async () => {
        await normaliseImage(image);
      },
      full: async () => {
        const res = await client.upload('/api/analyze-tree', analysisForm({ image, description: DESCRIPTION }));
        if (res.status !== 201) throw new Error(`analysis answered ${res.status}: ${await res.text()}`);
        await res.arrayBuffer();
      },
    });
  } finally {
    await server.close();
  }
})();
const median = (name: keyof typeof times) => percentile(times[name], 50);
const p90 = (name: keyof typeof times) => percentile(times[name], 90);
const ratio = median('full') / median('baseline');
console.log(`sharp decode-resize-encode: median ${ms(median('baseline'))}, p90 ${ms(p90('baseline'))}`);
console.log(`normaliseImage: median ${ms(median('normalise'))}, p90 ${ms(p90('normalise'))}`);
console.log(`full analysis: median ${ms(median('full'))}, p90 ${ms(p90('full'))}, ratio ${ratio.toFixed(2)}x`);

// 3. Ten at once against `npm run serve` in a child process, whose memory we read from /proc.
const concurrent = await (async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'treeanalyzer-bench-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const env = { DATA_DIR: dataDir, PORT: String(port), PUBLIC_URL: url, NODE_ENV: 'production' };
  const server = await startServerProcess(env);
  const { pid } = server;
  const startedKb = procStatusKb(pid, 'VmRSS');
  const allocator = allocatorSettings(pid);
  try {
    const client = new TestClient({ url, origin: url });
    const username = `bench${process.pid}`;
    const res = await client.post('/api/auth/register', {
      firstName: 'Bench', lastName: 'Mark', username, email: `${username}@example.com`,
      password: 'correct horse', confirmPassword: 'correct horse',
    });
    if (res.status !== 201) throw new Error(`register answered ${res.status}: ${await res.text()}`);
    console.log(await runCli(['grant-credits', username, String((CONCURRENT + 1) * 10)], env));
    // One analysis first, as on a server that has been up a while: module loading and the
    // first sharp call's set-up are not what ten uploads cost.
    const first = await client.upload('/api/analyze-tree', analysisForm({ image, description: DESCRIPTION }));
    if (first.status !== 201) throw new Error(`warm-up analysis answered ${first.status}: ${await first.text()}`);
    await first.arrayBuffer();
    const idleKb = procStatusKb(pid, 'VmRSS');
    const warmHwmKb = procStatusKb(pid, 'VmHWM');

    const sampler = sampleRss(pid);
    const start = performance.now();
    const statuses = await Promise.all(
      Array.from({ length: CONCURRENT }, async () => {
        const r = await client.upload('/api/analyze-tree', analysisForm({ image, description: DESCRIPTION }));
        await r.arrayBuffer();
        return r.status;
      }),
    );
    const wallMs = performance.now() - start;
    const sampledKb = sampler.stop();
    return { statuses, wallMs, allocator, startedKb, idleKb, warmHwmKb, sampledKb, peakKb: procStatusKb(pid, 'VmHWM') };
  } finally {
    await stopServerProcess(server);
    rmSync(dataDir, { recursive: true, force: true });
  }
})();
const all201 = concurrent.statuses.every((s) => s === 201);
const peakMb = mb(concurrent.peakKb);
const overBudget = peakMb > RSS_BUDGET_MB;

const rows: [string, string][] = [
  ['Upload', `4000x3000 JPEG q${quality}, ${image.length} bytes (${(image.length / MIB).toFixed(2)} MiB)`],
  [`sharp decode -> fit ${STORED_MAX_EDGE} -> JPEG, median / p90 (${RUNS} runs)`, `${ms(median('baseline'))} / ${ms(p90('baseline'))}`],
  [`of the full path, normaliseImage alone, median / p90`, `${ms(median('normalise'))} / ${ms(p90('normalise'))}`],
  [`Full analysis over HTTP, local provider, median / p90 (${RUNS} runs)`, `${ms(median('full'))} / ${ms(p90('full'))}`],
  ['Ratio full / sharp (medians)', `${ratio.toFixed(2)}x`],
  [`${CONCURRENT} uploads at once: wall time`, ms(concurrent.wallMs)],
  [`${CONCURRENT} uploads at once: answers`, all201 ? `all 201` : concurrent.statuses.join(', ')],
  ['Server RSS when listening / after one analysis / peak so far', `${mb(concurrent.startedKb)} MB / ${mb(concurrent.idleKb)} MB / ${mb(concurrent.warmHwmKb)} MB`],
  [`Server peak RSS (VmHWM), budget ${RSS_BUDGET_MB} MB`, `${peakMb} MB ${overBudget ? 'OVER BUDGET' : 'within budget'}`],
  ['Server largest sampled VmRSS (every 5 ms)', `${mb(concurrent.sampledKb)} MB`],
];
const width = Math.max(...rows.map(([k]) => k.length));
console.log(`\n${rows.map(([k, v]) => `${k.padEnd(width)}  ${v}`).join('\n')}`);

const markdown = `Written by \`bench/analysis.bench.ts\` (\`npm run bench -- analysis\`).

- Load average at the start: ${m.load} (other work on the box slows the timings)
- Server's allocator and thread settings: ${concurrent.allocator || 'none (defaults)'}

| Measure | Result |
|---|---|
${rows.map(([k, v]) => `| ${k} | ${v} |`).join('\n')}

### One analysis, excluding the model call

The floor is sharp's bare decode, resize to fit ${STORED_MAX_EDGE} px and JPEG encode of the
upload, in the same process. The full path is \`POST /api/analyze-tree\` on the real app over HTTP
on 127.0.0.1 (temp DATA_DIR, real SQLite): multipart upload, image normalisation, credit
reservation, the local provider, the estimate, the stored photo and row; \`normaliseImage\` alone
shows how much of it is image work. ${WARMUP} warm-up rounds, then ${RUNS} measured, one call at a time,
the three measures taking turns so that other load on the box falls on all of them alike.

### ${CONCURRENT} uploads at once

The server runs as an operator starts it, \`npm run serve\`, in a child process (NODE_ENV=production,
local provider), one analysis first; then ${CONCURRENT} uploads are sent at once from the bench
process. Peak RSS is the child's \`VmHWM\` from \`/proc/<pid>/status\` (its lifetime peak), with
\`VmRSS\` sampled every 5 ms beside it. Budget: ${RSS_BUDGET_MB} MB; the script exits non-zero past it.
The child inherits the bench's environment, so allocator settings can be tried without code
changes, e.g. \`MALLOC_MMAP_THRESHOLD_=131072 npm run bench\`.
`;
writeSection('analysis', 'Analysis: overhead over sharp, uploads at once, memory', markdown);
console.log('\nwrote bench/results/analysis.md');

if (!all201) {
  console.error(`FAIL: not every concurrent upload answered 201 (${concurrent.statuses.join(', ')})`);
  process.exitCode = 1;
}
if (overBudget) {
  console.error(`FAIL: server peak RSS ${peakMb} MB is over the ${RSS_BUDGET_MB} MB budget`);
  process.exitCode = 1;
}
