import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { startLocalS3, type LocalS3 } from '../../testing/s3-server';
import { createLocalPhotoStore } from './local-photo-store';
import { createPhotoStore } from './create-photo-store';
import { CLI_NODE_ARGS } from '../../testing/processes';

/** `npm run cli -- copy-photos-to-store`, run as an operator runs it, into a real S3 API. */
let s3: LocalS3;
const dataDir = mkdtempSync(join(tmpdir(), 'treeanalyzer-copy-'));
beforeAll(async () => {
  s3 = await startLocalS3();
});
afterAll(async () => {
  await s3.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** Run without blocking this process: the S3 server answering the CLI lives here. */
const cli = (env: Record<string, string>) =>
  new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
    execFile(
      process.execPath,
      [...CLI_NODE_ARGS, 'copy-photos-to-store'],
      { env: { ...process.env, DATA_DIR: dataDir, PHOTO_STORE_URL: '', ...env }, encoding: 'utf8', timeout: 120_000 },
      (error, stdout, stderr) => resolve({ status: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr }),
    );
  });

const PHOTOS = ['0b7f3c1e-2a4d-4c8e-9f10-123456789abc.jpg', '1c8a4d2f-3b5e-4d9f-8a21-23456789abcd.jpg'];
const LOGO = '2d9b5e3a-4c6f-4ea0-9b32-3456789abcde.png';

describe('npm run cli -- copy-photos-to-store', () => {
  it('refuses, saying what to set, when PHOTO_STORE_URL is not set', async () => {
    const run = await cli({});
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('PHOTO_STORE_URL is not set');
  });

  it("copies DATA_DIR's photos and logos into the store, and a second run copies nothing new", async () => {
    const local = createLocalPhotoStore(dataDir);
    for (const name of PHOTOS) await local.put(`uploads/${name}`, Buffer.from(`photo ${name}`));
    await local.put(`logos/${LOGO}`, Buffer.from('a logo'));
    // Not ours: left where it is.
    writeFileSync(join(dataDir, 'uploads', 'notes.txt'), 'an operator left this here');

    const first = await cli(s3.env('install-1'));
    expect(first.stderr).not.toMatch(/Error/);
    expect(first.status).toBe(0);
    expect(first.stdout).toContain(`Copying photos and logos from ${dataDir} to s3://trees/install-1/`);
    expect(first.stdout).toContain('uploads: 2 files under');
    expect(first.stdout).toContain('Copied 2 photos and 1 logo; 0 were already in the store.');

    const store = createPhotoStore(loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, ...s3.env('install-1') }));
    expect(await store.list('uploads')).toEqual(PHOTOS.map((name) => `uploads/${name}`));
    expect((await store.get(`logos/${LOGO}`))?.toString()).toBe('a logo');
    expect((await store.get(`uploads/${PHOTOS[0]}`))?.toString()).toBe(`photo ${PHOTOS[0]}`);

    const again = await cli(s3.env('install-1'));
    expect(again.status).toBe(0);
    expect(again.stdout).toContain('Copied 0 photos and 0 logos; 3 were already in the store.');

    // One more photo since: only it is copied.
    await local.put('uploads/3eac6f4b-5d7a-4fb1-8c43-456789abcdef.jpg', Buffer.from('a new one'));
    expect((await cli(s3.env('install-1'))).stdout).toContain('Copied 1 photo and 0 logos; 3 were already in the store.');
  });

  it('says the store cannot be reached, without a stack trace, and exits 1', async () => {
    await s3.stop();
    try {
      const run = await cli(s3.env('install-1'));
      expect(run.status).toBe(1);
      expect(run.stderr).toContain('Photo storage could not be reached');
      expect(run.stderr).not.toMatch(/\n\s+at /);
    } finally {
      await s3.start();
    }
  });
});
