import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { analyze, grantTo } from '../../testing/analysis';
import { registerClient, startTestServer, TestClient, type TestServer } from '../../testing/harness';
import { backupTo, BackupError, DATABASE_FILE, readManifest, restoreFrom } from './backup';

const cleanup: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const fn of cleanup.reverse()) await fn();
});

function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function started(env: Record<string, string> = {}): Promise<TestServer> {
  const server = await startTestServer(env);
  cleanup.push(() => server.close());
  return server;
}

type Balance = { balance: number; ledger: number };
function balances(server: TestServer): Balance[] {
  return server.db.$client
    .prepare('select t.tokens_remaining as balance, (select coalesce(sum(delta), 0) from credit_ledger l where l.user_id = t.user_id) as ledger from user_tokens t')
    .all() as Balance[];
}

describe('backup and restore (npm run cli -- backup / restore)', () => {
  it('a backup taken while analyses are being written restores to a working server, sessions included', async () => {
    const source = await started();
    const { client, account } = await registerClient(source);
    grantTo(source, account.username, 200);
    expect((await analyze(client, { description: 'oak, 14 inch trunk, 35 ft' })).status).toBe(201);

    // Writes in flight during the backup: analyses (rows, ledger entries, photos) and new accounts.
    const writes = Promise.all([
      ...Array.from({ length: 6 }, () => analyze(client, { description: 'birch, 8 inch trunk, 20 ft' }).then((r) => r.status)),
      ...Array.from({ length: 3 }, () => registerClient(source).then(() => 201)),
    ]);
    const dest = join(tempDir('ta-backup-'), 'copy');
    const manifest = await backupTo(source.db, source.dataDir, dest, source.clock.now());
    expect(await writes).toEqual(expect.arrayContaining([201]));
    expect(manifest.files).toEqual(expect.arrayContaining(['uploads', 'session-secret']));
    expect(manifest.rows.users).toBeGreaterThanOrEqual(1);

    const dataDir = tempDir('ta-restored-');
    restoreFrom(dest, dataDir);
    const restored = await started({ DATA_DIR: dataDir });

    // The same rows as the snapshot, a ledger that sums to every balance, a photo for every analysis.
    const count = (table: string) => (restored.db.$client.prepare(`select count(*) as n from ${table}`).get() as { n: number }).n;
    for (const table of ['users', 'tree_analyses', 'credit_ledger', 'sessions']) expect(count(table)).toBe(manifest.rows[table]);
    for (const b of balances(restored)) expect(b.balance).toBe(b.ledger);

    // The restored session secret keeps the user signed in: the same cookie works on the new server.
    const again = new TestClient(restored);
    again.cookies = new Map(client.cookies);
    expect((await again.get('/api/auth/me')).status).toBe(200);
    const ids = restored.db.$client.prepare('select id from tree_analyses').all() as { id: number }[];
    expect(ids.length).toBeGreaterThanOrEqual(1);
    for (const { id } of ids) expect((await again.get(`/api/analysis/${id}/image`)).status).toBe(200);
    // And it takes new work.
    expect((await analyze(again, { description: 'ash, 10 inch trunk, 25 ft' })).status).toBe(201);
  });

  it('refuses to back up into a folder that holds files, and to restore over a database without --force', async () => {
    const source = await started();
    await registerClient(source);
    const busy = tempDir('ta-busy-');
    writeFileSync(join(busy, 'something'), 'x');
    await expect(backupTo(source.db, source.dataDir, busy, source.clock.now())).rejects.toThrow(BackupError);

    const dest = join(tempDir('ta-backup-'), 'copy');
    await backupTo(source.db, source.dataDir, dest, source.clock.now());
    const live = tempDir('ta-live-');
    writeFileSync(join(live, DATABASE_FILE), 'live data');
    expect(() => restoreFrom(dest, live)).toThrow(/--force/);
    expect(existsSync(join(live, DATABASE_FILE))).toBe(true);
    // A stale WAL beside the old database must not be replayed into the restored one.
    writeFileSync(join(live, `${DATABASE_FILE}-wal`), 'stale');
    restoreFrom(dest, live, { force: true });
    expect(existsSync(join(live, `${DATABASE_FILE}-wal`))).toBe(false);
    const restored = await started({ DATA_DIR: live });
    // It serves from the restored database: the backup's account is there, and a new one can join.
    // (Not /healthz: it answers 503 for a second this test process stalled on a loaded box.)
    expect(restored.db.$client.prepare('select count(*) as n from users').get()).toEqual({ n: 1 });
    const { client } = await registerClient(restored);
    expect((await client.get('/api/auth/me')).status).toBe(200);
  });

  it('says a folder is not a backup', () => {
    const empty = tempDir('ta-empty-');
    mkdirSync(join(empty, 'uploads'));
    expect(() => readManifest(empty)).toThrow(/not a backup/);
  });
});
