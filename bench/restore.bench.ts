import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { DATABASE_FILE } from '../server/ops/backup';
import { analysisForm, grantTo } from '../testing/analysis';
import { newAccount, startTestServer, TestClient } from '../testing/harness';
import { restoreReplicaInto, startReplicatedServer, type ReplicatedServer } from '../testing/replica';
import { FIXTURE_PHOTOS, fixturePhoto } from '../testing/images';
import { writeSection } from './lib';

/**
 * What replication keeps and how fast a new box is back (docs/operations.md, Replication with
 * Litestream): a database of ANALYSES analyses (real analyses made through the app, their rows
 * copied to the count, each with its ledger row) replicated by the real Litestream 0.3.13 to a
 * file replica at its default 1 s interval; then ROUNDS times: an owner analyses trees as fast as
 * the server answers for TRAFFIC_MS, the server and Litestream are killed with SIGKILL together,
 * `npm run cli -- restore-replica` restores into a fresh folder (timed), and the next round runs
 * on the restored box. Per round: the restore's time and the database's size, and the recovery
 * point: acknowledged analyses missing after the restore and the age at the kill of the oldest
 * of them. Run: npm run bench -- restore. Writes bench/results/restore.md.
 */

const ANALYSES = 10_000;
const ROUNDS = 3;
const TRAFFIC_MS = 4_000;
const SYNC_INTERVAL_MS = 1000;
const SESSION_SECRET = 'restore-bench-session-secret-0123456789abcdef';

const dirs: string[] = [];
const tempDir = (name: string) => {
  const dir = mkdtempSync(join(tmpdir(), `treeanalyzer-restore-bench-${name}-`));
  dirs.push(dir);
  return dir;
};

/** A DATA_DIR whose database holds `count` analyses for one owner, and how the owner signs in. */
async function seededDataDir(count: number): Promise<{ dataDir: string; login: { username: string; password: string } }> {
  const server = await startTestServer({ SESSION_SECRET });
  try {
    const client = new TestClient(server);
    const account = newAccount();
    const registered = await client.post('/api/auth/register', account);
    if (registered.status !== 201) throw new Error(`register: ${registered.status}`);
    grantTo(server, account.username, 1_000_000);
    // Real analyses of every fixture photo, with their photos in DATA_DIR/uploads.
    for (const name of FIXTURE_PHOTOS) {
      const res = await client.upload('/api/analyze-tree', analysisForm({ image: fixturePhoto(name), description: 'oak, 16 inch trunk, 40 ft tall' }));
      if (res.status !== 201) throw new Error(`analysis: ${res.status} ${await res.text()}`);
    }
    const sqlite = server.db.$client;
    const columns = (table: string) =>
      (sqlite.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[]).map((c) => `"${c.name}"`).filter((c) => c !== '"id"').join(', ');
    const analysisColumns = columns('tree_analyses');
    const ledgerColumns = columns('credit_ledger');
    sqlite.transaction(() => {
      const have = () => (sqlite.prepare('SELECT count(*) AS n FROM tree_analyses').get() as { n: number }).n;
      while (have() < count) {
        const n = Math.min(have(), count - have());
        sqlite.prepare(`INSERT INTO tree_analyses (${analysisColumns}) SELECT ${analysisColumns} FROM tree_analyses ORDER BY id LIMIT ?`).run(n);
        // Each copy's 10 credits spent, so balances stay the ledger's sum.
        sqlite.prepare(`INSERT INTO credit_ledger (${ledgerColumns}) SELECT ${ledgerColumns} FROM credit_ledger WHERE delta < 0 ORDER BY id LIMIT ?`).run(n);
      }
      sqlite.prepare('UPDATE user_tokens SET tokens_remaining = (SELECT sum(delta) FROM credit_ledger WHERE credit_ledger.user_id = user_tokens.user_id)').run();
    })();
    const dataDir = tempDir('seeded');
    await sqlite.backup(join(dataDir, DATABASE_FILE));
    return { dataDir, login: { username: account.username, password: account.password } };
  } finally {
    await server.close();
  }
}

interface Round {
  acked: number;
  lost: number;
  lostSeconds: number;
  restoreSeconds: number;
  sizeMiB: number;
  analyses: number;
}

async function round(dataDir: string, replicaUrl: string, login: { username: string; password: string }): Promise<{ round: Round; next: string }> {
  const server: ReplicatedServer = await startReplicatedServer({ dataDir, replicaUrl, syncIntervalMs: SYNC_INTERVAL_MS, env: { SESSION_SECRET }, timeoutMs: 120_000 });
  await server.caughtUp(new Date(), 120_000);
  const client = new TestClient({ url: server.url, origin: server.url });
  const signedIn = await client.post('/api/auth/login', { usernameOrEmail: login.username, password: login.password });
  if (signedIn.status !== 200) throw new Error(`login: ${signedIn.status} ${await signedIn.text()}`);
  const acked: { id: number; at: number }[] = [];
  let killedAt = 0;
  const worker = async () => {
    while (killedAt === 0) {
      try {
        const res = await client.upload('/api/analyze-tree', analysisForm({ description: 'oak, 16 inch trunk, 40 ft tall' }));
        if (res.status !== 201) throw new Error(`analysis: ${res.status} ${await res.text()}`);
        acked.push({ id: ((await res.json()) as { analysis: { id: number } }).analysis.id, at: Date.now() });
      } catch (error) {
        if (killedAt === 0) throw error;
        return;
      }
    }
  };
  const workers = Promise.all([worker(), worker()]);
  await new Promise((resolve) => setTimeout(resolve, TRAFFIC_MS));
  killedAt = Date.now();
  const litestream = server.litestreamPid();
  if (litestream) process.kill(litestream, 'SIGKILL');
  server.child.kill('SIGKILL');
  await workers;

  const next = join(tempDir('restored'), 'data');
  const started = performance.now();
  const restored = restoreReplicaInto(next, { replicaUrl, syncIntervalMs: SYNC_INTERVAL_MS, env: { SESSION_SECRET } });
  const restoreSeconds = (performance.now() - started) / 1000;
  if (restored.status !== 0) throw new Error(`restore-replica failed:\n${restored.stdout}\n${restored.stderr}`);
  const file = join(next, DATABASE_FILE);
  const db = new Database(file, { readonly: true });
  const present = new Set((db.prepare('SELECT id FROM tree_analyses').all() as { id: number }[]).map((r) => r.id));
  const analyses = present.size;
  db.close();
  const lost = acked.filter((a) => !present.has(a.id));
  return {
    round: {
      acked: acked.length,
      lost: lost.length,
      lostSeconds: lost.length === 0 ? 0 : Math.max(0, killedAt - Math.min(...lost.map((a) => a.at))) / 1000,
      restoreSeconds,
      sizeMiB: statSync(file).size / 1024 / 1024,
      analyses,
    },
    next,
  };
}

async function main(): Promise<void> {
  const seededAt = performance.now();
  const { dataDir, login } = await seededDataDir(ANALYSES);
  const seedSeconds = (performance.now() - seededAt) / 1000;
  const replicaUrl = `file://${tempDir('replica')}`;
  const rounds: Round[] = [];
  let current = dataDir;
  try {
    for (let i = 0; i < ROUNDS; i += 1) {
      const { round: r, next } = await round(current, replicaUrl, login);
      console.log(`round ${i + 1}: ${r.analyses} analyses, ${r.sizeMiB.toFixed(1)} MiB restored in ${r.restoreSeconds.toFixed(2)} s; ${r.acked} analyses acknowledged, ${r.lost} lost (the last ${r.lostSeconds.toFixed(2)} s)`);
      rounds.push(r);
      current = next;
    }
  } finally {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)]!;
  const rows = rounds
    .map((r, i) => `| ${i + 1} | ${r.analyses.toLocaleString('en-GB')} | ${r.sizeMiB.toFixed(1)} MiB | ${r.restoreSeconds.toFixed(2)} s | ${r.acked} | ${r.lost} | ${r.lostSeconds.toFixed(2)} s |`)
    .join('\n');
  const body = `\`bench/restore.bench.ts\`: a database of ${ANALYSES.toLocaleString('en-GB')} analyses (made in ${seedSeconds.toFixed(0)} s: real analyses of the five fixture photos, their rows copied to the count with their ledger rows), replicated by the real Litestream 0.3.13 to a file replica at the ${SYNC_INTERVAL_MS / 1000} s sync interval. Each round: the server (under Litestream) is started on the folder and caught up, one owner analyses trees from two clients for ${TRAFFIC_MS / 1000} s, the server and Litestream are killed with SIGKILL together, and \`npm run cli -- restore-replica\` restores into a fresh folder, which the next round starts on. "Lost" counts acknowledged analyses missing from the restored database; "recovery point" is how long before the kill the oldest of them was acknowledged.

| Round | Analyses restored | Database | Restore (wall clock, including the CLI's start) | Acknowledged in the round | Lost | Recovery point |
| ---: | ---: | ---: | ---: | ---: | ---: | ---: |
${rows}

**Median: restored in ${median(rounds.map((r) => r.restoreSeconds)).toFixed(2)} s; recovery point ${median(rounds.map((r) => r.lostSeconds)).toFixed(2)} s** (at most ${Math.max(...rounds.map((r) => r.lostSeconds)).toFixed(2)} s; the sync interval is ${SYNC_INTERVAL_MS / 1000} s).
`;
  writeSection('restore', 'Restore from the replica: time and recovery point', body);
  console.log(body);
}

await main();
