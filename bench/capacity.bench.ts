import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { freePort, spawnServer } from '../build/server-process';
import { immediate, openDatabase } from '../db/client';
import { STORED_MAX_EDGE } from '../server/images/normalise';
import { recordReservation, settleReservation } from '../server/analysis/reservations';
import { IMAGE_SLOTS, MAX_WAITING } from '../server/analysis/slots';
import { systemClock } from '../server/clock';
import { reserveAnalysisIn } from '../server/credits/ledger';
import { analysisForm, photo } from '../testing/analysis';
import { FIXTURE_PHOTOS } from '../testing/images';
import { cpuMsOf, machine, percentile, registerAccount, ROOT, writeSection } from './lib';

/**
 * How many analyses one box sustains, and what that means in businesses and visitors:
 *   1. the box's speed: sharp's bare decode -> fit 2048 -> JPEG of the five fixture photos, one
 *      at a time with one libvips thread, in this process (the baseline the rate is read against);
 *   2. the server in its own process (tsx, local provider, temp DATA_DIR), one signed-in user
 *      with credits, closed-loop clients at concurrency 1, 2, 4, 8 for LEVEL_SECONDS each,
 *      POST /api/analyze-tree on the dashboard path rotating through the photos: 201s a second,
 *      p50/p99, any other answer, and the server's CPU time (/proc/<pid>/stat) per analysis;
 *   3. the write path alone: an analysis's two write transactions (the reservation, then the row
 *      with the reservation settled) replayed on the server's SQLite file once it has stopped,
 *      to say how far the single writer is from being the limit.
 * Run: node --import tsx bench/capacity.bench.ts (part of npm run bench). Writes bench/results/capacity.md.
 */

const LEVELS = [1, 2, 4, 8];
const LEVEL_SECONDS = 10;
const WARMUP_SECONDS = 2;
const BASELINE_SECONDS = 4;
const SQLITE_SECONDS = 2;
const DESCRIPTION = 'oak, 16 inch trunk, 40 ft tall';
/** grant-credits takes at most 1,000,000 at once: 100,000 analyses, far more than a run makes. */
const CREDITS = 1_000_000;

/** The assumptions that turn a rate into businesses and visitors. */
const BUSY_HOUR_SHARE = 0.1;
const ESTIMATES_PER_BUSINESS_PER_DAY = 20;
const ESTIMATES_PER_VISITOR = 2;
/** A hosted model's answer time (server/analysis/slots.ts: 10-30 s); waiting, not CPU. */
const MODEL_SECONDS = [10, 30];

const m = machine();
const cores = availableParallelism();
const photos = FIXTURE_PHOTOS.map((name) => ({ name, bytes: photo(name) }));

// 1. The baseline, before the server starts, so nothing else of ours competes for the cores.
const baseline = await (async () => {
  sharp.concurrency(1);
  sharp.cache(false);
  const once = (bytes: Buffer) =>
    sharp(bytes).resize(STORED_MAX_EDGE, STORED_MAX_EDGE, { fit: 'inside', withoutEnlargement: true }).jpeg({ quality: 85, mozjpeg: false }).toBuffer();
  for (const p of photos) await once(p.bytes); // warm-up
  let ops = 0;
  const cpu = process.cpuUsage();
  const start = performance.now();
  while (performance.now() - start < BASELINE_SECONDS * 1000) await once(photos[ops++ % photos.length]!.bytes);
  const wallMs = performance.now() - start;
  const used = process.cpuUsage(cpu);
  return { ops, perSecond: (ops * 1000) / wallMs, cpuMsPerOp: (used.user + used.system) / 1000 / ops };
})();
console.log(`sharp baseline: ${baseline.perSecond.toFixed(0)}/s, ${baseline.cpuMsPerOp.toFixed(2)} ms CPU each`);

interface Level {
  concurrency: number;
  seconds: number;
  created: number;
  others: Map<string, number>;
  latencies: number[];
  serverCpuMs: number;
  clientCpuMs: number;
  /** Of serverCpuMs, the main thread's (JavaScript; libvips and libuv work on other threads). */
  mainCpuMs: number;
  /** The whole box's busy CPU time meanwhile (/proc/stat), ours and everyone else's. */
  boxCpuMs: number;
}

/** One thread's CPU time so far in ms: /proc/<pid>/task/<tid>/stat has the process stat's layout. */
function threadCpuMs(pid: number, tid: number): number {
  const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** The box's busy CPU time so far in ms, all cores: /proc/stat's first line less idle and iowait (USER_HZ = 100). */
function boxBusyMs(): number {
  const ticks = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1, 9).map(Number);
  return (ticks.reduce((a, b) => a + b, 0) - ticks[3]! - ticks[4]!) * 10;
}

/** Each analysis's multipart body, built once, so the client spends as little as it can. */
const bodies = await Promise.all(
  photos.map(async (p) => {
    const request = new Request('http://x/', { method: 'POST', body: analysisForm({ image: p.bytes, description: DESCRIPTION }) });
    return { body: Buffer.from(await request.arrayBuffer()), contentType: request.headers.get('content-type')! };
  }),
);

const dataDir = mkdtempSync(join(tmpdir(), 'treeanalyzer-capacity-'));
const env = { DATA_DIR: dataDir, LOG_LEVEL: 'warn' };
let levels: Level[];
let sqlite: { pairs: number; perSecond: number };
try {
  const server = await spawnServer({ nodeArgs: ['--import', 'tsx', 'server/main.ts'], cwd: ROOT, port: await freePort(), env, timeoutMs: 60_000 });
  let username: string;
  try {
    const owner = await registerAccount(server, { credits: CREDITS, env });
    username = owner.username;
    const pid = server.child.pid!;
    let next = 0;
    const analyse = async (): Promise<{ status: string; ms: number }> => {
      const { body, contentType } = bodies[next++ % bodies.length]!;
      const start = performance.now();
      try {
        const res = await fetch(`${server.url}/api/analyze-tree`, {
          method: 'POST',
          headers: { cookie: owner.cookie, origin: server.url, 'sec-fetch-site': 'same-origin', 'content-type': contentType },
          body,
        });
        const text = await res.text();
        // A refusal is named by its status and the API's error code, e.g. "503 BUSY".
        const code = res.status === 201 ? undefined : /"code"\s*:\s*"(\w+)"/.exec(text)?.[1];
        return { status: code ? `${res.status} ${code}` : String(res.status), ms: performance.now() - start };
      } catch (err) {
        return { status: `error ${(err as Error).message}`, ms: performance.now() - start };
      }
    };
    const run = async (concurrency: number, seconds: number): Promise<Level> => {
      const level: Level = { concurrency, seconds: 0, created: 0, others: new Map(), latencies: [], serverCpuMs: 0, clientCpuMs: 0, mainCpuMs: 0, boxCpuMs: 0 };
      const boxCpu = boxBusyMs();
      const serverCpu = cpuMsOf(pid);
      const mainCpu = threadCpuMs(pid, pid);
      const clientCpu = process.cpuUsage();
      const start = performance.now();
      const deadline = start + seconds * 1000;
      await Promise.all(
        Array.from({ length: concurrency }, async () => {
          while (performance.now() < deadline) {
            const answer = await analyse();
            level.latencies.push(answer.ms);
            if (answer.status === '201') level.created += 1;
            else level.others.set(answer.status, (level.others.get(answer.status) ?? 0) + 1);
          }
        }),
      );
      level.seconds = (performance.now() - start) / 1000;
      level.serverCpuMs = cpuMsOf(pid) - serverCpu;
      level.mainCpuMs = threadCpuMs(pid, pid) - mainCpu;
      level.boxCpuMs = boxBusyMs() - boxCpu;
      const used = process.cpuUsage(clientCpu);
      level.clientCpuMs = (used.user + used.system) / 1000;
      return level;
    };

    // Module loading, sharp's first load and the JIT are not what a server up for a day spends.
    const warm = await run(IMAGE_SLOTS, WARMUP_SECONDS);
    if (warm.created === 0) throw new Error(`warm-up: no analysis succeeded (${[...warm.others].map(([s, n]) => `${n} x ${s}`).join(', ')})`);
    levels = [];
    for (const concurrency of LEVELS) {
      const level = await run(concurrency, LEVEL_SECONDS);
      levels.push(level);
      console.log(
        `concurrency ${concurrency}: ${(level.created / level.seconds).toFixed(1)} 201/s, p50 ${percentile(level.latencies, 50).toFixed(0)} ms, ` +
          `p99 ${percentile(level.latencies, 99).toFixed(0)} ms, server ${(level.serverCpuMs / level.created).toFixed(1)} ms CPU each, others ${others(level)}`,
      );
    }
  } finally {
    await server.stop();
  }

  // 3. The single writer alone, on the file the run left (the server stopped: nothing else writes).
  sqlite = (() => {
    const db = openDatabase(join(dataDir, 'treeanalyzer.sqlite'));
    try {
      const sqliteDb = db.$client;
      const userId = (sqliteDb.prepare('select id from users where username = ?').get(username) as { id: number }).id;
      const columns = (sqliteDb.pragma('table_info(tree_analyses)') as { name: string }[]).map((c) => c.name).filter((n) => n !== 'id').join(', ');
      const source = (sqliteDb.prepare('select max(id) as id from tree_analyses').get() as { id: number }).id;
      const copy = sqliteDb.prepare(`insert into tree_analyses (${columns}) select ${columns} from tree_analyses where id = ?`);
      const setUrl = sqliteDb.prepare('update tree_analyses set image_url = ? where id = ?');
      let pairs = 0;
      const start = performance.now();
      while (performance.now() - start < SQLITE_SECONDS * 1000) {
        const reference = randomUUID();
        // As server/analysis/pipeline.ts does: pay and record the reservation, then store the row and settle.
        immediate(db, (tx) => {
          const payment = reserveAnalysisIn(tx, systemClock, userId, reference, 0);
          if (!payment) throw new Error('the bench user ran out of credits');
          recordReservation(tx, systemClock, { reference, userId, payment, imageName: 'bench.jpg' });
        });
        immediate(db, (tx) => {
          const id = Number(copy.run(source).lastInsertRowid);
          settleReservation(tx, reference);
          setUrl.run(`/api/analysis/${id}/image`, id);
        });
        pairs += 1;
      }
      return { pairs, perSecond: (pairs * 1000) / (performance.now() - start) };
    } finally {
      db.$client.close();
    }
  })();
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}

function others(level: Level): string {
  return level.others.size === 0 ? 'none' : [...level.others].map(([status, n]) => `${n} x ${status}`).join(', ');
}

const rate = (l: Level) => l.created / l.seconds;
const clean = levels.filter((l) => l.others.size === 0);
const best = (clean.length > 0 ? clean : levels).reduce((a, b) => (rate(b) > rate(a) ? b : a));
const sustained = rate(best);
const perCore = sustained / cores;
const cpuMsPerAnalysis = best.serverCpuMs / best.created;
const mainMsPerAnalysis = best.mainCpuMs / best.created;
/**
 * What the box would make with the server alone on it: every core's time over the CPU an analysis
 * costs, unless the one main thread (the JavaScript) runs out first.
 */
const byCores = (cores * 1000) / cpuMsPerAnalysis;
const byMainThread = 1000 / mainMsPerAnalysis;
const ceiling = Math.min(byCores, byMainThread);
/** The share of the box's CPU that neither the server nor this client used during the best level. */
const othersShare = Math.max(0, (best.boxCpuMs - best.serverCpuMs - best.clientCpuMs) / (cores * 1000 * best.seconds));
const baselinePerCore = 1000 / baseline.cpuMsPerOp;
const costInBaselines = cpuMsPerAnalysis / baseline.cpuMsPerOp;
const writerHeadroom = sqlite.perSecond / sustained;
const last = levels.at(-1)!;
const anyOthers = levels.some((l) => l.others.size > 0);

/** Two significant figures: these are capacities, not counts. */
const round2 = (n: number) => Number(n.toPrecision(2)).toLocaleString('en-GB');
const f1 = (n: number) => n.toFixed(1);
const pct = (cpuMs: number, l: Level) => `${Math.round((cpuMs / (cores * 1000 * l.seconds)) * 100)}%`;
/** A day's analyses, businesses and estimating visitors at a rate of `perSecond`. */
const serves = (perSecond: number) => {
  const perDay = (perSecond * 3600) / BUSY_HOUR_SHARE;
  return `${round2(perSecond * 3600)} in the busiest hour, ${round2(perDay)} a day: **${round2(perDay / ESTIMATES_PER_BUSINESS_PER_DAY)} businesses, ${round2(perDay / ESTIMATES_PER_VISITOR)} estimating visitors a day**`;
};

const table = levels
  .map(
    (l) =>
      `| ${l.concurrency} | ${l.created} | **${f1(rate(l))}** | ${percentile(l.latencies, 50).toFixed(0)} / ${percentile(l.latencies, 99).toFixed(0)} ms | ${f1(l.serverCpuMs / Math.max(1, l.created))} ms (${f1(l.mainCpuMs / Math.max(1, l.created))}) | ${pct(l.serverCpuMs, l)} / ${pct(l.clientCpuMs, l)} / ${pct(Math.max(0, l.boxCpuMs - l.serverCpuMs - l.clientCpuMs), l)} | ${others(l)} |`,
  )
  .join('\n');

writeSection(
  'capacity',
  'Capacity: analyses a second per box, and whom that serves',
  `
\`bench/capacity.bench.ts\`: the server in its own process (tsx, local provider, temp DATA_DIR; ${IMAGE_SLOTS} image slots, a line of ${MAX_WAITING}), one
signed-in user, \`POST /api/analyze-tree\` with the five fixture photos in turn (${photos.map((p) => Math.round(p.bytes.length / 1024)).join('/')} KB, 450-700 px) and
"${DESCRIPTION}"; closed-loop clients, ${LEVEL_SECONDS} s a level after ${WARMUP_SECONDS} s of warm-up. CPU from /proc as a share of all ${cores}
cores; "others" is work on the box that is not this bench (load at the start: ${m.load}).

| Clients | 201s | 201/s | p50 / p99 | Server CPU per analysis (main thread) | CPU: server / client / others | Not 201 |
| ---: | ---: | ---: | ---: | ---: | ---: | --- |
${table}

Baseline, same run: sharp decode -> fit ${STORED_MAX_EDGE} -> JPEG q85 of the same photos, one at a time, one libvips thread:
${baseline.cpuMsPerOp.toFixed(1)} ms CPU each, ${baselinePerCore.toFixed(0)}/s per core (${baseline.perSecond.toFixed(0)}/s by the clock).

**Headline.** Sustained **${f1(sustained)} analyses/s** at ${best.concurrency} clients${anyOthers ? '' : ', every answer 201'} = **${f1(perCore)}/s per core** as measured,
with other work taking ${Math.round(othersShare * 100)}% of the box; that figure moves with such work, the CPU cost is the steady one:
**${f1(cpuMsPerAnalysis)} ms of server CPU per analysis = ${f1(costInBaselines)} sharp baselines** (${f1(mainMsPerAnalysis)} ms on the main thread). With the box to
itself: ${f1(byCores)}/s by its cores, ${f1(byMainThread)}/s by the one main thread, so a **ceiling of ${f1(ceiling)}/s, ${f1(ceiling / cores)}/s per core**; on
another box, its baseline rate per core / ${f1(costInBaselines)}.

**Whom one box serves** if the busiest hour carries ${BUSY_HOUR_SHARE * 100}% of a day's analyses, a business's widget makes ${ESTIMATES_PER_BUSINESS_PER_DAY}
estimates a day and a visitor who uses it runs ${ESTIMATES_PER_VISITOR}, with no headroom (plan on half):
- at the measured ${f1(sustained)}/s: ${serves(sustained)};
- at the ceiling ${f1(ceiling)}/s: ${serves(ceiling)}.

These are 600 px photos; phone photos (3-12 MP, up to 10 MB, not downsized before upload) cost several times the image
work: scale by the analysis section's 10 MB figures. A hosted model adds ${MODEL_SECONDS.join('-')} s of waiting, not CPU: at ${f1(sustained)}/s,
${Math.round(sustained * MODEL_SECONDS[0]!)}-${Math.round(sustained * MODEL_SECONDS[1]!)} requests are open at once.

**Where the limit is.** The cores, on image work: from ${levels[0]!.concurrency} to ${last.concurrency} clients p50 went ${percentile(levels[0]!.latencies, 50).toFixed(0)} -> ${percentile(last.latencies, 50).toFixed(0)} ms and the
rate ${f1(rate(levels[0]!))} -> ${f1(rate(last))}/s, the box ${pct(last.boxCpuMs, last)} busy at ${last.concurrency}; past ${IMAGE_SLOTS} slots, clients wait in line. SQLite's single writer
is far behind: an analysis's two write transactions, replayed alone on the run's file, ran at ${Math.round(sqlite.perSecond).toLocaleString('en-GB')}/s
(${f1(writerHeadroom)}x the sustained rate), but one file serves one box only.

**When one box is not enough** (several app servers behind a load balancer):
- *Shared database*: Postgres for the SQLite file. The ledger's conditional reservation (\`update ... where tokens_remaining
  >= 10\` in \`BEGIN IMMEDIATE\`, with its reservation row) becomes one Postgres transaction doing the same. Sessions are
  already rows in the database, so any server answers any signed-in request once they share it.
- *Object storage for photos*: files under DATA_DIR/uploads today, readable by one box; S3 or the like behind
  saveImage/deleteImage, written before the row commits and deleted on refund as now.
- *Shared rate limits*: RateLimiterMemory (rate-limiter-flexible) counts per process, so N servers allow N times each
  limit; its Redis store keeps one count. Image slots stay per process: they guard each box's CPU and memory.
`,
);
console.log(`\nsustained ${f1(sustained)}/s (${f1(perCore)}/s per core, others ${Math.round(othersShare * 100)}% of the box), ${f1(cpuMsPerAnalysis)} ms CPU each = ${f1(costInBaselines)} sharp baselines, main thread ${f1(mainMsPerAnalysis)} ms, ceiling ${f1(ceiling)}/s; load ${m.load}`);
console.log('wrote bench/results/capacity.md');
if (anyOthers) {
  console.error('FAIL: an analysis was answered with something other than 201 (see the table)');
  process.exitCode = 1;
}
