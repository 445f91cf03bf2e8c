import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeResponseSchema } from '../../core/analysis';
import { analyze, grantTo } from '../../testing/analysis';
import { registerClient, startTestServer, TestClient, type TestServer } from '../../testing/harness';
import { startLocalS3, type LocalS3 } from '../../testing/s3-server';
import type { BackupManifest } from './backup';
import { CLI_NODE_ARGS } from '../../testing/processes';

/**
 * `npm run cli -- backup` with photos in object storage: the database and secret are backed up,
 * the photos are not in DATA_DIR and the backup says so; restored next to the same bucket, every
 * analysis finds its photo again.
 */
let s3: LocalS3;
const servers: TestServer[] = [];
const folders: string[] = [];
const tempDir = (prefix: string) => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  folders.push(dir);
  return dir;
};
beforeAll(async () => {
  s3 = await startLocalS3();
});
afterAll(async () => {
  for (const server of servers) await server.close();
  await s3.close();
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

/** The CLI run without blocking this process (the S3 server it may reach lives here). */
const cli = (env: Record<string, string>, ...args: string[]) =>
  new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
    execFile(process.execPath, [...CLI_NODE_ARGS, ...args], { env: { ...process.env, ...env }, encoding: 'utf8', timeout: 30_000 }, (error, stdout, stderr) =>
      resolve({ status: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr }),
    );
  });

describe('backup with PHOTO_STORE_URL', () => {
  it('says the photos are in the bucket, not in the backup, and a restore next to the bucket finds them', async () => {
    const source = await startTestServer(s3.env('install-1'));
    servers.push(source);
    const { client, account } = await registerClient(source);
    grantTo(source, account.username, 20);
    const { analysis } = analyzeResponseSchema.parse(await (await analyze(client, { description: 'oak, 14 inch trunk, 35 ft' })).json());

    const dest = join(tempDir('ta-backup-s3-'), 'copy');
    const run = await cli({ DATA_DIR: source.dataDir, ...s3.env('install-1') }, 'backup', dest);
    expect(run.stderr).not.toMatch(/Error/);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('Photos and logos are not in this backup: they live in s3://trees/install-1/ (PHOTO_STORE_URL).');
    const manifest = JSON.parse(readFileSync(join(dest, 'backup.json'), 'utf8')) as BackupManifest;
    expect(manifest.photoStore).toEqual({ location: 's3://trees/install-1/', included: false });
    expect(manifest.files).not.toContain('uploads');
    expect(existsSync(join(dest, 'uploads'))).toBe(false);

    const dataDir = tempDir('ta-restored-s3-');
    const restore = await cli({ DATA_DIR: dataDir, ...s3.env('install-1') }, 'restore', dest);
    expect(restore.status).toBe(0);
    expect(restore.stdout).toContain('Photos and logos are not in this backup: they live in s3://trees/install-1/');
    const restored = await startTestServer({ DATA_DIR: dataDir, ...s3.env('install-1') });
    servers.push(restored);
    const again = new TestClient(restored);
    again.cookies = new Map(client.cookies);
    expect((await again.get(`/api/analysis/${analysis.id}/image`)).status).toBe(200);
  });

  it('without it, the manifest says nothing of a store and the photos are in the backup, as before', async () => {
    const source = await startTestServer();
    servers.push(source);
    const { client, account } = await registerClient(source);
    grantTo(source, account.username, 10);
    expect((await analyze(client, { description: 'birch, 8 inch trunk, 20 ft' })).status).toBe(201);
    const dest = join(tempDir('ta-backup-local-'), 'copy');
    const run = await cli({ DATA_DIR: source.dataDir, PHOTO_STORE_URL: '' }, 'backup', dest);
    expect(run.status).toBe(0);
    expect(run.stdout).not.toContain('not in this backup');
    const manifest = JSON.parse(readFileSync(join(dest, 'backup.json'), 'utf8')) as BackupManifest;
    expect(manifest.photoStore).toBeUndefined();
    expect(manifest.files).toContain('uploads');
  });
});
