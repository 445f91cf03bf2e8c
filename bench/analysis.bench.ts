import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { normaliseImage, STORED_MAX_EDGE } from '../server/images/normalise';
import { IMAGE_SLOTS, MAX_WAITING, MAX_WAITING_BYTES } from '../server/analysis/slots';
import { UPLOAD_IDLE_MS } from '../server/http/multipart';
import { analysisForm, grantTo, photo } from '../testing/analysis';
import { registerClient, startTestServer, TestClient } from '../testing/harness';
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
 *      against the budget;
 *   4. 200 analyses at once on 500 credits: exactly 50 succeed, the rest are refused (402, or
 *      503 BUSY when the line for image slots is full), the ledger still sums to the balance;
 *   5. two drip-fed uploads held open, and a third user's analysis beside them against the same
 *      analysis alone (goal: less than a second later).
 * Run: npm run bench -- analysis (part of npm run bench). Writes bench/results/analysis.md.
 */

const WARMUP = 2;
const RUNS = 10;
const CONCURRENT = 10;
/** The issue's memory budget for 10 uploads at once. */
const RSS_BUDGET_MB = 400;
const DESCRIPTION = 'oak, about 16 inch trunk, 40 ft tall, next to the shed, access through a side gate';
/** The issue's crowd: 200 analyses at once against 500 credits, 10 credits each. */
const MANY = 200;
const MANY_CREDITS = 500;
const EXPECTED_SUCCESSES = MANY_CREDITS / 10;
/** Rounds of the drip-feed check, each: the analysis alone, then with two drip-fed uploads open. */
const DRIP_ROUNDS = 5;
const DRIP_DELAY_GOAL_MS = 1000;
/** A drip-fed upload sends this much at first and then a little every second, well inside the idle timeout. */
const DRIP_FIRST_BYTES = 64 * 1024;
const DRIP_EVERY_MS = 1000;
const DRIP_BYTES = 1024;

const m = machine();
const { bytes: image, quality } = await tenMegabyteJpeg();
console.log(`upload: 4000x3000 JPEG, quality ${quality}, ${image.length} bytes (${(image.length / MIB).toFixed(2)} MiB)`);

// 1 and 2, in turns: the floor, what any server must spend to turn this upload into a stored
// 2048 px JPEG (quality 85 without mozjpeg, the stored copy's settings in server/images/normalise.ts);
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
// 4 and 5 on a fresh server in its own process, so the figures above stay those of 3 alone.
const smallPhoto = photo();
const crowd = await (async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'treeanalyzer-bench-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const env = { DATA_DIR: dataDir, PORT: String(port), PUBLIC_URL: url, NODE_ENV: 'production' };
  const server = await startServerProcess(env);
  try {
    // 4. The crowd: every request is let in while the balance still covers one (the cheap look
    // before the upload is read), so the atomic reservation is what decides.
    const many = await benchUser(url, `many${process.pid}`, MANY_CREDITS, env);
    const start = performance.now();
    const statuses = await Promise.all(
      Array.from({ length: MANY }, async () => {
        const r = await many.upload('/api/analyze-tree', analysisForm({ image: smallPhoto, description: DESCRIPTION }));
        await r.arrayBuffer();
        return r.status;
      }),
    );
    const manyMs = performance.now() - start;
    const money = moneyOf(env.DATA_DIR, many.username);

    // 5. Two uploads that never finish, opened before each timed analysis and closed after it,
    // in turns with the same analysis alone.
    const dripper = await benchUser(url, `drip${process.pid}`, 10, env);
    const timed = await benchUser(url, `timed${process.pid}`, (2 * DRIP_ROUNDS + 1) * 10, env);
    const dripBody = await multipartBytes(analysisForm({ image, description: DESCRIPTION }));
    const analyseOnce = async () => {
      const started = performance.now();
      const r = await timed.client.upload('/api/analyze-tree', analysisForm({ image, description: DESCRIPTION }));
      await r.arrayBuffer();
      if (r.status !== 201) throw new Error(`timed analysis answered ${r.status}`);
      return performance.now() - started;
    };
    await analyseOnce(); // warm-up
    const alone: number[] = [];
    const beside: number[] = [];
    let dripsAnswered = 0;
    for (let round = 0; round < DRIP_ROUNDS; round += 1) {
      alone.push(await analyseOnce());
      const drips = [dripUpload(url, dripper.client, dripBody), dripUpload(url, dripper.client, dripBody)];
      // Both are in and being read: the server has their headers and first bytes.
      await new Promise((resolve) => setTimeout(resolve, 300));
      beside.push(await analyseOnce());
      dripsAnswered += drips.filter((d) => d.answered).length;
      for (const drip of drips) drip.close();
    }
    return { statuses, manyMs, money, alone, beside, dripsAnswered };
  } finally {
    await stopServerProcess(server);
    rmSync(dataDir, { recursive: true, force: true });
  }
})();
const byStatus = new Map<number, number>();
for (const status of crowd.statuses) byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
const statusList = [...byStatus].sort(([a], [b]) => a - b).map(([status, n]) => `${n} x ${status}`).join(', ');
const succeeded = byStatus.get(201) ?? 0;
const strays = crowd.statuses.filter((s) => ![201, 402, 503].includes(s));
const crowdOk = succeeded === EXPECTED_SUCCESSES && strays.length === 0 && crowd.money.balance === 0 && crowd.money.ledger === 0;
const aloneMedian = percentile(crowd.alone, 50);
const besideMedian = percentile(crowd.beside, 50);
const dripDelay = besideMedian - aloneMedian;
const dripOk = dripDelay < DRIP_DELAY_GOAL_MS && crowd.dripsAnswered === 0;

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
  [`${MANY} analyses at once on ${MANY_CREDITS} credits (${smallPhoto.length} byte photo): answers`, statusList],
  [`${MANY} at once: succeeded, goal exactly ${EXPECTED_SUCCESSES}`, `${succeeded} ${succeeded === EXPECTED_SUCCESSES ? 'met' : 'MISSED'}`],
  [`${MANY} at once: balance / ledger sum after`, `${crowd.money.balance} / ${crowd.money.ledger}${crowdOk ? '' : ' (CHECK)'}`],
  [`${MANY} at once: wall time`, ms(crowd.manyMs)],
  [`One analysis alone, median of ${DRIP_ROUNDS}`, ms(aloneMedian)],
  [`The same beside 2 drip-fed uploads, median of ${DRIP_ROUNDS}`, ms(besideMedian)],
  [`Delay from the drip-fed uploads, goal under ${DRIP_DELAY_GOAL_MS} ms`, `${ms(dripDelay)} ${dripOk ? 'met' : 'MISSED'}`],
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

### ${MANY} at once on ${MANY_CREDITS} credits

A fresh server the same way; one user with ${MANY_CREDITS} credits sends ${MANY} analyses at once. The
photo is a real ${Math.round(smallPhoto.length / 1024)} KB tree photo (e2e/fixtures/photos), not the 10 MB one:
${MANY} x 10 MB would put 2 GB in the bench's and the server's memory, and the point here is the
counting. Every request passes the cheap credit look before its upload is read (the balance still
covers one); the upload is read holding nothing; image work takes one of ${IMAGE_SLOTS} slots, with at most
${MAX_WAITING} uploads or ${MAX_WAITING_BYTES / MIB} MiB of them waiting in line (more: 503 \`BUSY\` with
Retry-After); once a slot is free, a request whose user can no longer pay is refused (402) before
its decode; credits are reserved atomically after the image work. Goal: exactly ${EXPECTED_SUCCESSES} answers 201, every other one 402 or 503, and the balance
and the ledger sum both 0 afterwards (read from the SQLite file).

### Drip-fed uploads

On the same server, ${DRIP_ROUNDS} rounds: one user's full analysis of the 10 MB photo alone, then two
uploads from another user are opened (headers and ${DRIP_FIRST_BYTES / 1024} KB, then ${DRIP_BYTES} bytes every
${DRIP_EVERY_MS / 1000} s, inside the ${UPLOAD_IDLE_MS / 1000} s idle timeout) and the same analysis runs again beside
them; the drips are closed after each round. Goal: the median beside them is less than
${DRIP_DELAY_GOAL_MS} ms over the median alone, and neither drip was answered meanwhile (they were open
throughout, holding no slot).
`;
writeSection('analysis', 'Analysis: overhead over sharp, uploads at once, memory', markdown);
console.log('\nwrote bench/results/analysis.md');

if (!all201) {
  console.error(`FAIL: not every concurrent upload answered 201 (${concurrent.statuses.join(', ')})`);
  process.exitCode = 1;
}
if (!crowdOk) {
  console.error(`FAIL: ${MANY} at once on ${MANY_CREDITS} credits: ${statusList}; balance ${crowd.money.balance}, ledger ${crowd.money.ledger} (goal: exactly ${EXPECTED_SUCCESSES} x 201, the rest 402/503, both 0)`);
  process.exitCode = 1;
}
if (!dripOk) {
  console.error(`FAIL: beside two drip-fed uploads an analysis took ${ms(dripDelay)} longer (goal under ${DRIP_DELAY_GOAL_MS} ms); drips answered meanwhile: ${crowd.dripsAnswered}`);
  process.exitCode = 1;
}
if (overBudget) {
  console.error(`FAIL: server peak RSS ${peakMb} MB is over the ${RSS_BUDGET_MB} MB budget`);
  process.exitCode = 1;
}

/** A registered user with credits granted through the CLI, as an operator would. */
async function benchUser(url: string, username: string, credits: number, env: Record<string, string>) {
  const client = new TestClient({ url, origin: url });
  const res = await client.post('/api/auth/register', {
    firstName: 'Bench', lastName: 'Mark', username, email: `${username}@example.com`,
    password: 'correct horse', confirmPassword: 'correct horse',
  });
  if (res.status !== 201) throw new Error(`register answered ${res.status}: ${await res.text()}`);
  await runCli(['grant-credits', username, String(credits)], env);
  return { client, username, upload: client.upload.bind(client) };
}

/** A user's balance and ledger sum, straight from the server's SQLite file. */
function moneyOf(dataDir: string, username: string): { balance: number; ledger: number } {
  const db = new Database(join(dataDir, 'treeanalyzer.sqlite'), { readonly: true });
  try {
    return db
      .prepare(
        `select t.tokens_remaining as balance, (select coalesce(sum(l.delta), 0) from credit_ledger l where l.user_id = u.id) as ledger
         from users u join user_tokens t on t.user_id = u.id where u.username = ?`,
      )
      .get(username) as { balance: number; ledger: number };
  } finally {
    db.close();
  }
}

/** A multipart body's exact bytes and Content-Type, to send by hand. */
async function multipartBytes(form: FormData): Promise<{ body: Buffer; contentType: string }> {
  const request = new Request('http://localhost/', { method: 'POST', body: form });
  return { body: Buffer.from(await request.arrayBuffer()), contentType: request.headers.get('content-type')! };
}

/**
 * An upload that is never finished: headers and the first bytes, then a trickle that keeps it
 * inside the idle timeout, as a client on a very bad connection (or a slow-loris) would send.
 */
function dripUpload(url: string, client: TestClient, { body, contentType }: { body: Buffer; contentType: string }) {
  const req = httpRequest(`${url}/api/analyze-tree`, {
    method: 'POST',
    headers: {
      'content-type': contentType,
      'content-length': body.length,
      cookie: client.cookieHeader(),
      origin: url,
      'sec-fetch-site': 'same-origin',
    },
  });
  let answered = false;
  req.on('response', (res) => {
    answered = true;
    res.resume();
  });
  req.on('error', () => undefined); // closed by us
  let sent = DRIP_FIRST_BYTES;
  req.write(body.subarray(0, sent));
  const trickle = setInterval(() => {
    req.write(body.subarray(sent, sent + DRIP_BYTES));
    sent += DRIP_BYTES;
  }, DRIP_EVERY_MS);
  return {
    get answered() {
      return answered;
    },
    close() {
      clearInterval(trickle);
      req.destroy();
    },
  };
}
