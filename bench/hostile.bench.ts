import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, spawnServer, type ServerProcess } from '../build/server-process';
import { analysisForm, photo } from '../testing/analysis';
import { BOUNDARY, multipartBody, repeatedParts, send } from '../testing/hostile-upload';
import { ms, postJson, registerAccount, ROOT, writeSection } from './lib';

/**
 * A hostile upload, timed (docs/security.md, Uploads and hostile input): N empty `description` parts to a business's public estimator
 * (no session; the real rate limits, one request per size), against the server in its own
 * process, while a second client's signed-in `GET /api/auth/me` runs back to back. Reported:
 * how long the attack took to be answered, the slowest read meanwhile, and a normal upload (the
 * same photo analysed) measured on the same server for scale. Then the other shapes of
 * server/routes/analysis.fuzz.test.ts, timed the same way: the test bounds their CPU time, so
 * a busy box cannot fail it; their wall-clock figures are kept here.
 *
 * `HOSTILE_BEFORE_ROOT=/path/to/an/older/checkout npm run bench -- hostile` runs the same attack
 * against that checkout too (its own `server/main.ts`, this node_modules), so a change's before
 * and after come from one run on one box.
 */

const AFTER_PARTS = [20_000, 80_000, 200_000];
/** The hand-written parser took 34 s for 80,000 and about 3.5 minutes for 200,000. */
const BEFORE_PARTS = [20_000, 60_000, 80_000];

/** The shapes of server/routes/analysis.fuzz.test.ts, one request each on the public estimator. */
function shapes(): { shape: string; body: Buffer }[] {
  const jpeg = photo('elm-beside-building.jpg');
  const image = { name: 'image', filename: 'tree.jpg', headers: ['Content-Type: image/jpeg'], content: jpeg };
  return [
    { shape: 'a text field of 6 MB', body: multipartBody([image, { name: 'description', content: 'a'.repeat(6 * 1024 * 1024) }]) },
    { shape: '100,000 parts of different names', body: multipartBody(Array.from({ length: 100_000 }, (_, i) => ({ name: `field${i}`, content: '' }))) },
    { shape: '4,000 file parts', body: repeatedParts({ ...image, content: jpeg.subarray(0, 2048) }, 4000) },
    { shape: 'the boundary repeated 100,000 times', body: Buffer.from(`--${BOUNDARY}\r\n`.repeat(100_000)) },
    { shape: 'a part header of 8 KB', body: multipartBody([{ ...image, headers: [`X-Padding: ${'p'.repeat(8192)}`] }]) },
  ];
}

interface ShapeRow {
  shape: string;
  bytes: number;
  status: number;
  answerMs: number;
  worstReadMs: number;
  reads: number;
}

interface Row {
  parts: number;
  bytes: number;
  status: number;
  answerMs: number;
  worstReadMs: number;
  reads: number;
}

/** Reads back to back until `attack` is answered; a read may wait as long as the server makes it. */
async function duringReads(server: ServerProcess, cookie: string, attack: () => Promise<{ status: number; ms: number }>) {
  let done = false;
  let worst = 0;
  let reads = 0;
  const reader = (async () => {
    while (!done) {
      const start = performance.now();
      try {
        await (await fetch(`${server.url}/api/auth/me`, { headers: { cookie }, signal: AbortSignal.timeout(300_000) })).arrayBuffer();
      } catch {
        // A read the server never answered counts as waiting until now.
      }
      worst = Math.max(worst, performance.now() - start);
      reads += 1;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  })();
  const answer = await attack();
  const after = reads;
  while (reads === after) await new Promise((resolve) => setTimeout(resolve, 10));
  done = true;
  await reader;
  return { ...answer, worstReadMs: worst, reads };
}

async function measure(root: string, counts: number[], withShapes: boolean): Promise<{ normalMs: number; rows: Row[]; shapeRows: ShapeRow[] }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'treeanalyzer-hostile-'));
  const env = { DATA_DIR: dataDir, LOG_LEVEL: 'warn' };
  const server = await spawnServer({ nodeArgs: ['--import', 'tsx', 'server/main.ts'], cwd: root, port: await freePort(), env, timeoutMs: 60_000 });
  try {
    const owner = await registerAccount(server, { credits: 1000, root, env });
    const slug = `hostile-${process.pid}`;
    await postJson(server, '/api/businesses', { name: 'Hostile Bench Trees', slug, hourlyRate: '60.00', aiInstructions: null }, owner.cookie);
    const reader = await registerAccount(server);

    // A normal upload on the dashboard path (the embed path's per-address limit is kept for the attacks).
    const form = analysisForm({ image: photo('elm-beside-building.jpg'), description: 'oak, 16 inch trunk, 40 ft tall' });
    const normal = Buffer.from(await new Request('http://x/', { method: 'POST', body: form }).arrayBuffer());
    const boundary = normal.subarray(2, normal.indexOf('\r\n')).toString();
    const normals: number[] = [];
    for (let i = 0; i < 3; i += 1) {
      const answer = await send(`${server.url}/api/analyze-tree`, { cookie: owner.cookie, origin: server.url, 'sec-fetch-site': 'same-origin', 'content-type': `multipart/form-data; boundary=${boundary}` }, normal);
      if (answer.status !== 201) throw new Error(`normal upload: ${answer.status} ${answer.body}`);
      normals.push(answer.ms);
    }
    normals.sort((a, b) => a - b);

    const rows: Row[] = [];
    for (const parts of counts) {
      const body = repeatedParts({ name: 'description', content: '' }, parts);
      const result = await duringReads(server, reader.cookie, () => send(`${server.url}/api/analyze-tree?businessSlug=${slug}`, { origin: 'https://attacker.example' }, body));
      rows.push({ parts, bytes: body.length, status: result.status, answerMs: result.ms, worstReadMs: result.worstReadMs, reads: result.reads });
      console.log(`${root}: ${parts} parts -> ${result.status} in ${ms(result.ms)}, worst read ${ms(result.worstReadMs)}`);
    }
    // The test's other shapes (within the real limits: ten estimator requests an hour from one address).
    const shapeRows: ShapeRow[] = [];
    for (const { shape, body } of withShapes ? shapes() : []) {
      const result = await duringReads(server, reader.cookie, () => send(`${server.url}/api/analyze-tree?businessSlug=${slug}`, { origin: 'https://attacker.example' }, body));
      shapeRows.push({ shape, bytes: body.length, status: result.status, answerMs: result.ms, worstReadMs: result.worstReadMs, reads: result.reads });
      console.log(`${root}: ${shape} -> ${result.status} in ${ms(result.ms)}, worst read ${ms(result.worstReadMs)}`);
    }
    return { normalMs: normals[1]!, rows, shapeRows };
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const targets: { label: string; root: string; counts: number[] }[] = [];
const before = process.env.HOSTILE_BEFORE_ROOT;
if (before) {
  const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: before, encoding: 'utf8' }).trim();
  targets.push({ label: `before (${commit})`, root: before, counts: BEFORE_PARTS });
}
targets.push({ label: 'this commit', root: ROOT, counts: AFTER_PARTS });

const results = [];
for (const target of targets) results.push({ ...target, ...(await measure(target.root, target.counts, target.root === ROOT)) });

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const table = results
  .flatMap(({ label, normalMs, rows }) =>
    rows.map((r) => `| ${label} | ${r.parts.toLocaleString('en-GB')} (${mb(r.bytes)}) | ${r.status} | ${ms(r.answerMs)} | ${(r.answerMs / normalMs).toFixed(1)}x | ${ms(r.worstReadMs)} (${r.reads} read${r.reads === 1 ? '' : 's'}) |`),
  )
  .join('\n');
const normals = results.map(({ label, normalMs }) => `${label}: ${ms(normalMs)}`).join('; ');

const after = results.at(-1)!;
const shapeTable = after.shapeRows
  .map((r) => `| ${r.shape} (${mb(r.bytes)}) | ${r.status} | ${ms(r.answerMs)} | ${(r.answerMs / after.normalMs).toFixed(1)}x | ${ms(r.worstReadMs)} (${r.reads} read${r.reads === 1 ? '' : 's'}) |`)
  .join('\n');
const allAfter = [...after.rows, ...after.shapeRows];
const worstAfter = Math.max(...allAfter.map((r) => r.worstReadMs));
const slowestAfter = Math.max(...allAfter.map((r) => r.answerMs / after.normalMs));
const ok = allAfter.every((r) => r.status >= 400 && r.status < 500) && worstAfter < 1000 && slowestAfter < 5;

writeSection(
  'hostile',
  'Hostile uploads: empty parts to the public estimator',
  `
N empty \`description\` parts in one \`POST /api/analyze-tree?businessSlug=...\` (no session, an
Origin of the attacker's choosing), against the server in its own process with its real limits,
while a second client reads \`GET /api/auth/me\` signed in, back to back. "Answer" is from the
first byte sent to the status line; "x normal" divides it by a normal upload (a real
${Math.round(photo('elm-beside-building.jpg').length / 1024)} KB
photo analysed on the dashboard path) on the same server. Goal: 4xx within 5 normal uploads,
worst read under 1 s. ${before ? '' : 'Set `HOSTILE_BEFORE_ROOT` to an older checkout to add its rows.'}

| Server | Parts (body) | Status | Answer | x normal | Worst read meanwhile |
| --- | ---: | ---: | ---: | ---: | ---: |
${table}

Normal upload (median of 3): ${normals}.

The other shapes of \`server/routes/analysis.fuzz.test.ts\` on this commit, one request each, the
same way (that test bounds their CPU time against a normal upload's; these are the wall clock):

| Shape (body) | Status | Answer | x normal | Worst read meanwhile |
| --- | ---: | ---: | ---: | ---: |
${shapeTable}

${ok ? 'Within the goal' : 'MISSED the goal'}: slowest answer ${slowestAfter.toFixed(1)}x a normal upload, worst read ${ms(worstAfter)}.
`,
);
console.log(`wrote bench/results/hostile.md (${ok ? 'within' : 'missed'} the goal)`);
if (!ok) process.exitCode = 1;
