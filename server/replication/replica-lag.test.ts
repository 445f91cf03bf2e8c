import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { newAccount, TestClient } from '../../testing/harness';
import { startReplicatedServer, type ReplicatedServer } from '../../testing/replica';

/**
 * /healthz's replica lag is honest (docs/operations.md, Replication with Litestream): with the real
 * server and the real Litestream, killing Litestream while an owner keeps saving a setting makes
 * the lag rise and says Litestream is down, with a warning line in the log; the server starts
 * Litestream again and the lag goes back to 0 with the last write on the replica.
 */
const dirs: string[] = [];
const tempDir = (name: string) => {
  const dir = mkdtempSync(join(tmpdir(), `treeanalyzer-${name}-`));
  dirs.push(dir);
  return dir;
};
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** An owner who keeps saving a setting: one write to the database each time. */
async function signedInOwner(server: ReplicatedServer) {
  const client = new TestClient({ url: server.url, origin: server.url });
  expect((await client.post('/api/auth/register', newAccount())).status).toBe(201);
  let shared = false;
  return async () => {
    shared = !shared;
    expect((await client.request('PATCH', '/api/system-settings', { shareJobTimes: shared })).status).toBe(200);
  };
}

describe('GET /healthz with a replica', () => {
  it('reports the lag rising while Litestream is dead and the app writes, and back to 0 once it runs again', async () => {
    const server = await startReplicatedServer({ dataDir: tempDir('lag'), replicaUrl: `file://${tempDir('lag-replica')}` });
    try {
      const save = await signedInOwner(server);
      await server.caughtUp();
      const healthy = await server.replica();
      expect(healthy.status).toBe(200);
      expect(healthy.replica).toMatchObject({ target: 'file', lagSeconds: 0, litestream: 'running' });

      process.kill(server.litestreamPid()!, 'SIGKILL');
      const lags: number[] = [];
      const deadline = Date.now() + 15_000;
      let down = healthy;
      while (Date.now() < deadline && (lags.at(-1) ?? 0) < 2) {
        await save();
        down = await server.replica();
        lags.push(down.replica.lagSeconds);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      expect(lags.at(-1)).toBeGreaterThanOrEqual(2);
      // Rising, never falling, while nothing replicates.
      expect(lags).toEqual([...lags].sort((a, b) => a - b));
      expect(down.replica.litestream).toBe('restarting');
      expect(down.replica.lastReplicatedAt).toBe(healthy.replica.lastReplicatedAt);

      const lastWrite = new Date();
      await save();
      await server.caughtUp(lastWrite, 20_000);
      expect((await server.replica()).replica.litestream).toBe('running');
    } finally {
      await server.stop();
    }
    expect(server.output()).toMatch(/"level":"warn".*"signal":"SIGKILL".*replication failing: Litestream stopped; starting it again/);
  });
});
