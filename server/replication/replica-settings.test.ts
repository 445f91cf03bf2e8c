import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config';
import { litestreamConfigText } from './litestream-config';

/** REPLICA_URL and its companions as config reads them, and the Litestream file written from them. */
const dataDir = mkdtempSync(join(tmpdir(), 'treeanalyzer-replica-config-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
const load = (env: Record<string, string>) => loadConfig({ DATA_DIR: dataDir, ...env });
const keys = { AWS_ACCESS_KEY_ID: 'AKIAEXAMPLE', AWS_SECRET_ACCESS_KEY: 'secret-example-key' };

describe('REPLICA_URL', () => {
  it('is off unless set: no replica, nothing else changes', () => {
    expect(load({}).replica).toBeUndefined();
    expect(load({ REPLICA_URL: '  ' }).replica).toBeUndefined();
  });

  it('takes a folder or a bucket path with the S3 variables, and shows it without a key', () => {
    expect(load({ REPLICA_URL: 'file:///mnt/second-disk/trees' }).replica).toMatchObject({
      target: { kind: 'file', path: '/mnt/second-disk/trees' },
      displayUrl: 'file:///mnt/second-disk/trees',
      maxLagSeconds: 60,
      syncIntervalMs: 1000,
      startEmpty: false,
    });
    const s3 = load({ REPLICA_URL: 's3://my-backups/trees/db', S3_ENDPOINT: 'https://acc.r2.cloudflarestorage.com', REPLICA_MAX_LAG_SECONDS: '120', ...keys }).replica!;
    expect(s3.target).toEqual({ kind: 's3', bucket: 'my-backups', path: 'trees/db', endpoint: 'https://acc.r2.cloudflarestorage.com', region: 'us-east-1' });
    expect(s3.displayUrl).toBe('s3://my-backups/trees/db at https://acc.r2.cloudflarestorage.com');
    expect(s3.maxLagSeconds).toBe(120);
    expect(JSON.stringify(s3)).not.toContain('secret-example-key');
  });

  it('names what is wrong: the shape, missing keys, bad numbers', () => {
    const problem = (env: Record<string, string>) => {
      try {
        load(env);
      } catch (err) {
        expect(err).toBeInstanceOf(ConfigError);
        return (err as Error).message;
      }
      throw new Error('accepted');
    };
    expect(problem({ REPLICA_URL: 'https://bucket.example.com/db' })).toMatch(/REPLICA_URL: must look like s3:\/\/bucket\/path/);
    expect(problem({ REPLICA_URL: 'file://relative/path' })).toMatch(/REPLICA_URL/);
    expect(problem({ REPLICA_URL: 's3://my-backups/db' })).toMatch(/AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY: required with an s3:\/\/ REPLICA_URL/);
    expect(problem({ REPLICA_URL: 's3://my-backups', ...keys })).toMatch(/REPLICA_URL/);
    expect(problem({ REPLICA_URL: 'file:///backups', REPLICA_MAX_LAG_SECONDS: '0' })).toMatch(/REPLICA_MAX_LAG_SECONDS: must be a whole number from 5/);
    expect(problem({ REPLICA_URL: 'file:///backups', REPLICA_SYNC_INTERVAL_MS: '10' })).toMatch(/REPLICA_SYNC_INTERVAL_MS/);
    expect(problem({ REPLICA_URL: 'file:///backups', REPLICA_START_EMPTY: 'yes' })).toMatch(/REPLICA_START_EMPTY: must be 1/);
  });

  it("refuses an attacker's shapes: a path that climbs out, lines smuggled into Litestream's file, a huge value", () => {
    const refused = (url: string, env: Record<string, string> = {}) => expect(() => load({ REPLICA_URL: url, ...env })).toThrow(ConfigError);
    refused('file:///backups/../etc');
    refused('file:///backups%0A%20%20-%20type:%20s3');
    refused('s3://my-backups/db%0Aaddr:%20":9090"', keys);
    refused('s3://my-backups/../other', keys);
    refused('s3://my-backups/db?endpoint=http://evil.example', keys);
    refused(`file:///${'a/'.repeat(600)}`);
  });
});

describe("Litestream's file", () => {
  it('quotes every path and holds no key', () => {
    const text = litestreamConfigText({
      databaseFile: '/data/it\'s "here"/treeanalyzer.sqlite',
      target: { kind: 's3', bucket: 'b-1', path: 'p', endpoint: 'http://127.0.0.1:9000', region: 'us-east-1' },
      syncIntervalMs: 1000,
      metricsAddr: '127.0.0.1:4000',
    });
    expect(text).toContain('  - path: "/data/it\'s \\"here\\"/treeanalyzer.sqlite"');
    expect(text).toContain('addr: "127.0.0.1:4000"');
    expect(text).toContain('sync-interval: 1000ms');
    expect(text).not.toMatch(/access-key|secret/);
  });
});
