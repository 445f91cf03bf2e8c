import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { startLocalS3, type LocalS3 } from '../../testing/s3-server';
import { createPhotoStore } from './create-photo-store';
import { deleteLeftover, deleteLeftovers, PhotoStoreError, type PhotoStore } from './photo-store';

const PHOTO = 'uploads/0b7f3c1e-2a4d-4c8e-9f10-123456789abc.jpg';
const LOGO = 'logos/0b7f3c1e-2a4d-4c8e-9f10-123456789abc.png';

/** Every file s3rver holds, as paths under its folder: what is really in the bucket. */
function filesUnder(dir: string, base = dir): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(join(dir, entry.name), base) : [join(dir, entry.name).slice(base.length + 1)],
  );
}

let s3: LocalS3;
let store: PhotoStore;

beforeAll(async () => {
  s3 = await startLocalS3();
  store = createPhotoStore(loadConfig({ NODE_ENV: 'test', DATA_DIR: join(s3.directory, 'unused-data'), ...s3.env('install-1') }));
});
afterAll(() => s3.close());

describe('the S3 photo store against a real S3 API', () => {
  it('keeps photos and logos under the prefix, reads them back, lists and deletes them', async () => {
    expect(store.kind).toBe('s3');
    expect(store.location).toBe('s3://trees/install-1/');
    await store.put(PHOTO, Buffer.from('a tree'));
    await store.put(LOGO, Buffer.from('a logo'));
    expect(filesUnder(s3.directory).some((f) => f.startsWith('trees/install-1/uploads/0b7f3c1e'))).toBe(true);
    expect((await store.get(PHOTO))?.toString()).toBe('a tree');
    expect(await store.list('uploads')).toEqual([PHOTO]);
    expect(await store.list('logos')).toEqual([LOGO]);
    await store.delete(PHOTO);
    await store.delete(PHOTO); // twice: gone is gone
    expect(await store.get(PHOTO)).toBeNull();
    expect(await store.list('uploads')).toEqual([]);
  });

  it('never sends a key that is not ours: other folders, other names, paths that climb out', async () => {
    const hostile = ['uploads/../logos/x.png', '../secrets.txt', 'uploads/evil.jpg', 'other/0b7f3c1e-2a4d-4c8e-9f10-123456789abc.jpg', `${PHOTO}?x=1`, '/etc/passwd', ''];
    const before = filesUnder(s3.directory);
    for (const key of hostile) {
      await expect(store.put(key, Buffer.from('x'))).rejects.toBeInstanceOf(PhotoStoreError);
      expect(await store.get(key)).toBeNull();
      await store.delete(key);
    }
    expect(filesUnder(s3.directory)).toEqual(before);
  });

  it('fails within bounded time, with the polite message, when S3 cannot be reached', async () => {
    await s3.stop();
    try {
      const started = Date.now();
      const error = await store.put(PHOTO, Buffer.from('a tree')).catch((err: unknown) => err);
      expect(error).toBeInstanceOf(PhotoStoreError);
      expect((error as Error).message).toBe('Photo storage could not be reached just now. Please try again in a minute.');
      await expect(store.get(PHOTO)).rejects.toBeInstanceOf(PhotoStoreError);
      // A key that is not ours is refused before any request: no network error, just nothing.
      expect(await store.get('uploads/../logos/x.png')).toBeNull();
      await store.delete('../secrets.txt');
      // A removal after its row is gone does not fail the caller: it says, in the log, what is left.
      const warnings: unknown[] = [];
      expect(await deleteLeftover(store, LOGO, { warn: (fields: unknown) => void warnings.push(fields) })).toBe(false);
      expect(warnings).toEqual([expect.objectContaining({ key: LOGO, keys: [LOGO], store: 's3://trees/install-1/' })]);
      // Many: the first failure stops the rest (each would wait its own timeout), all named in one line.
      expect(await deleteLeftovers(store, [PHOTO, LOGO], { warn: (fields: unknown) => void warnings.push(fields) })).toBe(0);
      expect(warnings.at(-1)).toEqual(expect.objectContaining({ keys: [PHOTO, LOGO] }));
      expect(Date.now() - started).toBeLessThan(20_000);
    } finally {
      await s3.start();
    }
    await store.put(PHOTO, Buffer.from('back again'));
    expect((await store.get(PHOTO))?.toString()).toBe('back again');
  });
});

describe('PHOTO_STORE_URL', () => {
  const base = { NODE_ENV: 'test', DATA_DIR: join(process.env.TMPDIR ?? '/tmp', 'treeanalyzer-store-url') } as const;
  it('is the local folders when unset', () => {
    expect(loadConfig(base).photoStore).toEqual({ kind: 'local' });
  });
  it('refuses a URL that is not s3://bucket/prefix, a climbing prefix and missing keys, naming the variable', () => {
    const keys = { AWS_ACCESS_KEY_ID: 'a', AWS_SECRET_ACCESS_KEY: 'b' };
    expect(() => loadConfig({ ...base, ...keys, PHOTO_STORE_URL: 'https://bucket/photos' })).toThrow(/PHOTO_STORE_URL: must look like s3:\/\/bucket/);
    expect(() => loadConfig({ ...base, ...keys, PHOTO_STORE_URL: 's3://Bad_Bucket' })).toThrow(/PHOTO_STORE_URL/);
    expect(() => loadConfig({ ...base, ...keys, PHOTO_STORE_URL: 's3://trees/../other' })).toThrow(/no "\.\."/);
    expect(() => loadConfig({ ...base, PHOTO_STORE_URL: 's3://trees/photos', AWS_ACCESS_KEY_ID: 'a' })).toThrow(/AWS_SECRET_ACCESS_KEY: required with PHOTO_STORE_URL/);
    expect(() => loadConfig({ ...base, ...keys, PHOTO_STORE_URL: 's3://trees', S3_ENDPOINT: 'minio:9000' })).toThrow(/S3_ENDPOINT: must be a URL/);
  });
  it('reads the bucket, the prefix and the region (us-east-1 unless S3_REGION says)', () => {
    const keys = { AWS_ACCESS_KEY_ID: 'a', AWS_SECRET_ACCESS_KEY: 'b' };
    expect(loadConfig({ ...base, ...keys, PHOTO_STORE_URL: 's3://trees/a/b/' }).photoStore).toMatchObject({ kind: 's3', bucket: 'trees', prefix: 'a/b/', region: 'us-east-1' });
    expect(loadConfig({ ...base, ...keys, PHOTO_STORE_URL: 's3://trees', S3_REGION: 'eu-west-2' }).photoStore).toMatchObject({ prefix: '', region: 'eu-west-2', endpoint: undefined });
  });
});
