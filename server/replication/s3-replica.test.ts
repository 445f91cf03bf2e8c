import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newAccount } from '../../testing/harness';
import { startReplicatedServer } from '../../testing/replica';
import { S3RVER_CREDENTIALS, startLocalS3, type LocalS3 } from '../../testing/s3-server';

/**
 * An s3:// replica against a local S3 server (s3rver on 127.0.0.1): the database's snapshot and WAL
 * land under the path as objects, the key pair is read from the environment and never written to
 * Litestream's file, and when the S3 server stops answering /healthz goes 503 past
 * REPLICA_MAX_LAG_SECONDS with a warning line, and back to 200 once it answers again. (Restore is
 * proven on the file replica: s3rver does not list common prefixes under a nested prefix, so
 * Litestream cannot restore from it.)
 */
let s3: LocalS3;
const dataDir = mkdtempSync(join(tmpdir(), 'treeanalyzer-s3-replica-'));
beforeAll(async () => {
  s3 = await startLocalS3('replicas');
});
afterAll(async () => {
  await s3.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('REPLICA_URL=s3://', () => {
  it('puts the snapshot and WAL in the bucket, keeps the keys out of files, and goes 503 while S3 is down', async () => {
    const server = await startReplicatedServer({
      dataDir,
      replicaUrl: `s3://${s3.bucket}/installs/one`,
      env: { S3_ENDPOINT: s3.endpoint, S3_REGION: 'us-east-1', REPLICA_MAX_LAG_SECONDS: '5', ...S3RVER_CREDENTIALS },
    });
    const client = new S3Client({ endpoint: s3.endpoint, region: 'us-east-1', forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
    try {
      const register = async () => {
        const res = await fetch(`${server.url}/api/auth/register`, { method: 'POST', headers: { 'content-type': 'application/json', origin: server.url }, body: JSON.stringify(newAccount()) });
        expect(res.status).toBe(201);
      };
      const before = new Date();
      await register();
      await server.caughtUp(before);
      const listed = await client.send(new ListObjectsV2Command({ Bucket: s3.bucket, Prefix: 'installs/one/' }));
      const keys = (listed.Contents ?? []).map((o) => o.Key!);
      expect(keys.some((k) => /^installs\/one\/generations\/[0-9a-f]{16}\/snapshots\/\d{8}\.snapshot\.lz4$/.test(k))).toBe(true);
      expect(keys.some((k) => /^installs\/one\/generations\/[0-9a-f]{16}\/wal\/\d{8}_\d{8}\.wal\.lz4$/.test(k))).toBe(true);
      const config = readFileSync(join(dataDir, 'litestream.yml'), 'utf8');
      expect(config).toContain('type: s3');
      expect(config).not.toContain('S3RVER');
      expect((await server.replica()).replica.target).toBe('s3');

      await s3.stop();
      await register();
      const deadline = Date.now() + 20_000;
      let health = await server.replica();
      while (Date.now() < deadline && health.status === 200) {
        await new Promise((resolve) => setTimeout(resolve, 250));
        health = await server.replica();
      }
      expect(health.status).toBe(503);
      expect(health.replica.lagSeconds).toBeGreaterThan(5);
      // /healthz reads the lag as it asks; the warning comes from the replicator's own poll (up to a
      // second later, and the log is written in batches): wait for it while S3 is still down, or
      // S3 back in between leaves the lag it would have warned of already gone.
      while (Date.now() < deadline + 20_000 && !/replica lagging: writes not yet on the replica/.test(server.output())) {
        await new Promise((resolve) => setTimeout(resolve, 250));
      }

      // Litestream 0.3.13 retries a failed upload at the next change to the database, so one more write.
      await s3.start();
      const back = new Date();
      await register();
      await server.caughtUp(back, 20_000);
      expect((await server.replica()).status).toBe(200);
    } finally {
      client.destroy();
      await server.stop();
    }
    const log = server.output();
    expect(log).toMatch(/"level":"warn".*replica lagging: writes not yet on the replica/);
    expect(log).toMatch(/"level":"warn".*replication failing: litestream: /);
    expect(log).toContain('"msg":"replica caught up"');
    expect(log).not.toContain('S3RVER');
  });
});
