import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';
import { ROOT, writeSection } from './lib';

/**
 * Signed-in JSON reads against a bare Hono hello route, measured in the same run (issue 10,
 * Benchmarks 1). The servers run in a child process (this file with --serve) so the load
 * generator does not share their event loop; autocannon loads each route in turn at 10
 * connections, then again after the user's data grows to 50,000 ledger rows and 5,000
 * analyses. Goal: every signed-in read at 0.4x of bare or better, p99 under 25 ms.
 *
 * Run: npm run bench -- api (part of npm run bench). Writes bench/results/api.md.
 */

/** Load levels: one client, the goal's 10, and a crowd of 100 (the goal applies at 10). */
const LEVELS = [1, 10, 100] as const;
const GOAL_CONNECTIONS = 10;
const SECONDS = Number(process.env.BENCH_API_SECONDS ?? 5);
const GOAL_RATIO = 0.4;
/** Long enough that V8 has optimised the request path (1 s left the first signed-in read 30 % low). */
const WARM_UP_SECONDS = 3;
const GOAL_P99_MS = 25;
const LEDGER_ROWS = 50_000;
const ANALYSES = 5_000;

interface Ready {
  bare: string;
  app: string;
  cookie: string;
}

/** The child: a bare Hono route and the real app, both on loopback; "grow" on stdin adds the data. */
async function serve(): Promise<void> {
  const { Hono } = await import('hono');
  const { serve: listen } = await import('@hono/node-server');
  const { startTestServer, registerClient } = await import('../server/testing/harness');
  const { analyze, grantTo } = await import('../server/testing/analysis');
  const bareApp = new Hono().get('/', (c) => c.text('Hello Hono!'));
  const bare = await new Promise<string>((resolve) => {
    const s = listen({ fetch: bareApp.fetch, port: 0, hostname: '127.0.0.1' }, (info) => resolve(`http://127.0.0.1:${info.port}`));
    void s;
  });
  const { batchedDestination } = await import('../server/log');
  // Log lines are batched to a file as production batches them to standard output (the test
  // harness would parse and keep every one, a cost production does not pay).
  const server = await startTestServer({}, {}, batchedDestination('/dev/null'));
  const { client, account } = await registerClient(server);
  grantTo(server, account.username, 100);
  const first = await analyze(client, { description: 'oak, 12 inch trunk, 30 ft' });
  if (first.status !== 201) throw new Error(`seed analysis failed: ${first.status} ${await first.text()}`);
  const sqlite = server.db.$client;
  const userId = (sqlite.prepare('select id from users where username = ?').get(account.username) as { id: number }).id;
  const ready: Ready = { bare, app: server.url, cookie: client.cookieHeader() };
  console.log(JSON.stringify(ready));
  for await (const line of createInterface({ input: process.stdin })) {
    if (line !== 'grow') continue;
    const columns = (sqlite.prepare('pragma table_info(tree_analyses)').all() as { name: string }[])
      .map((c) => c.name)
      .filter((n) => n !== 'id')
      .join(', ');
    const now = server.clock.now().getTime();
    sqlite.transaction(() => {
      const copy = sqlite.prepare(`insert into tree_analyses (${columns}) select ${columns} from tree_analyses where user_id = ? limit 1`);
      for (let i = 1; i < ANALYSES; i += 1) copy.run(userId);
      // Zero rows keep the ledger summing to the balance; spread over the past 500 days.
      const ledger = sqlite.prepare('insert into credit_ledger (user_id, delta, reason, reference, created_at) values (?, 0, ?, ?, ?)');
      for (let i = 0; i < LEDGER_ROWS; i += 1) {
        ledger.run(userId, i % 2 ? 'analysis_pass' : 'analysis_pass_refund', `bench-${i}`, now - (i % 500) * 86_400_000);
      }
    })();
    sqlite.exec('analyze');
    console.log(JSON.stringify({ grown: true }));
  }
}

interface Row {
  data: string;
  connections: number;
  route: string;
  reqPerSec: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

async function load(url: string, connections: number, cookie?: string): Promise<Omit<Row, 'data' | 'route' | 'connections'>> {
  const result = await autocannon({ url, connections, duration: SECONDS, headers: cookie ? { cookie } : {} });
  return {
    reqPerSec: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}

async function measureAll(ready: Ready, data: string): Promise<Row[]> {
  const targets: [string, string, boolean][] = [
    ['bare Hono hello', ready.bare + '/', false],
    ['GET /healthz', ready.app + '/healthz', false],
    ['GET /api/auth/me', ready.app + '/api/auth/me', true],
    ['GET /api/user-tokens', ready.app + '/api/user-tokens', true],
    ['GET /api/analyses', ready.app + '/api/analyses', true],
  ];
  // A short warm-up of each, unmeasured, so JIT and caches are alike for all.
  for (const [, url, signed] of targets) {
    await autocannon({ url, connections: GOAL_CONNECTIONS, duration: WARM_UP_SECONDS, headers: signed ? { cookie: ready.cookie } : {} });
  }
  const rows: Row[] = [];
  // Level by level, each route in turn within a level, so drift on the box falls on the
  // bare route and the app's routes alike and the ratio at each level holds.
  for (const connections of LEVELS) {
    for (const [route, url, signed] of targets) {
      const r = await load(url, connections, signed ? ready.cookie : undefined);
      rows.push({ data, connections, route, ...r });
      console.log(
        `${data.padEnd(7)} c=${String(connections).padEnd(4)} ${route.padEnd(22)} ${r.reqPerSec.toFixed(0).padStart(7)} req/s  p50 ${r.p50} ms  p99 ${r.p99} ms  errors ${r.errors} non-2xx ${r.non2xx}`,
      );
    }
  }
  return rows;
}

async function main(): Promise<void> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'bench/api.bench.ts'), '--serve'], {
    cwd: ROOT,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  const next = async <T>(): Promise<T> => {
    for (;;) {
      const { value, done } = await lines.next();
      if (done) throw new Error('bench server exited');
      if (value.startsWith('{')) return JSON.parse(value) as T;
    }
  };
  try {
    const ready = await next<Ready>();
    const rows = await measureAll(ready, 'seeded');
    child.stdin!.write('grow\n');
    await next<{ grown: boolean }>();
    rows.push(...(await measureAll(ready, 'grown')));
    report(rows);
    const failed = rows.filter(
      (r) =>
        r.errors > 0 ||
        r.non2xx > 0 ||
        (r.connections === GOAL_CONNECTIONS && r.route.includes('/api/') && (ratioOf(rows, r) < GOAL_RATIO || r.p99 >= GOAL_P99_MS)),
    );
    if (failed.length > 0) {
      console.error(`\n${failed.length} read(s) outside the goal (${GOAL_RATIO}x of bare, p99 < ${GOAL_P99_MS} ms at ${GOAL_CONNECTIONS} connections, no errors)`);
      process.exitCode = 1;
    }
  } finally {
    child.kill();
  }
}

const ratioOf = (rows: Row[], row: Row) =>
  row.reqPerSec / rows.find((r) => r.data === row.data && r.connections === row.connections && r.route === 'bare Hono hello')!.reqPerSec;

function report(rows: Row[]): void {
  const body = [
    `Written by \`bench/api.bench.ts\` (\`npm run bench -- api\`). autocannon at ${LEVELS.join(', ')} connections, ${SECONDS} s each after a ${WARM_UP_SECONDS} s warm-up of each route; the ratio is to the bare route at the same level in the same run.`,
    '',
    `- Servers in one child process on 127.0.0.1 (the real app: startTestServer, real SQLite in a temp dir); load from this process.`,
    `- "grown": the user then has ${LEDGER_ROWS.toLocaleString('en-GB')} ledger rows and ${ANALYSES.toLocaleString('en-GB')} analyses. Goal at ${GOAL_CONNECTIONS} connections: ${GOAL_RATIO}x of bare or better, p99 under ${GOAL_P99_MS} ms; no errors at any level.`,
    '',
    '| Data | Connections | Route | req/s | p50 ms | p99 ms | Ratio to bare | Errors / non-2xx |',
    '| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: |',
    ...rows.map(
      (r) =>
        `| ${r.data} | ${r.connections} | ${r.route} | ${r.reqPerSec.toFixed(0)} | ${r.p50} | ${r.p99} | ${ratioOf(rows, r).toFixed(2)}x | ${r.errors} / ${r.non2xx} |`,
    ),
  ].join('\n');
  writeSection('api', 'API: signed-in reads against a bare Hono route', body);
  console.log(body);
}

if (process.argv.includes('--serve')) await serve();
else await main();
