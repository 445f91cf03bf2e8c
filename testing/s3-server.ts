import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A local S3 server for tests (s3rver 3.7.1, a devDependency): a real S3 HTTP API on a free
 * loopback port, its objects in a temp folder, with one bucket made before it answers. The real
 * @aws-sdk/client-s3 talks to it as it would to a provider (path-style, through S3_ENDPOINT).
 * s3rver signs with its fixed key pair; `env` carries it with PHOTO_STORE_URL for startTestServer.
 */
interface S3rverInstance {
  run(): Promise<AddressInfo>;
  httpServer?: Server;
}
type S3rverClass = new (options: Record<string, unknown>) => S3rverInstance;

const S3rver = createRequire(import.meta.url)('s3rver') as S3rverClass;

export const S3RVER_CREDENTIALS = { AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER' } as const;

export interface LocalS3 {
  endpoint: string;
  bucket: string;
  /** The folder s3rver keeps its objects in. */
  directory: string;
  /** PHOTO_STORE_URL and the S3 variables for this server, under `prefix` in the bucket. */
  env(prefix?: string): Record<string, string>;
  /** Stops answering (connections refused) but keeps the objects; `start` answers again on the same port. */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops and removes the objects. */
  close(): Promise<void>;
}

/** Bounds on start and stop, so a stuck server fails the test instead of hanging the run. */
const START_TIMEOUT_MS = 10_000;
const STOP_TIMEOUT_MS = 5_000;

function within<T>(ms: number, what: string, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`s3rver did not ${what} within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

export async function startLocalS3(bucket = 'trees'): Promise<LocalS3> {
  const directory = mkdtempSync(join(tmpdir(), 'treeanalyzer-s3-'));
  let port = 0;
  let instance: S3rverInstance | undefined;

  const start = async () => {
    // A fresh instance each time: s3rver's logger is closed with its HTTP server.
    instance = new S3rver({ address: '127.0.0.1', port, directory, silent: true, configureBuckets: [{ name: bucket }] });
    const address = await within(START_TIMEOUT_MS, 'start', instance.run());
    port = address.port;
  };
  const stop = async () => {
    const server = instance?.httpServer;
    instance = undefined;
    if (!server?.listening) return;
    // The SDK keeps connections alive; close them, or close() waits for them.
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeAllConnections();
    await within(STOP_TIMEOUT_MS, 'stop', closed);
  };

  await start();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    bucket,
    directory,
    env: (prefix = '') => ({
      PHOTO_STORE_URL: `s3://${bucket}/${prefix}`,
      S3_ENDPOINT: endpoint,
      S3_REGION: 'us-east-1',
      ...S3RVER_CREDENTIALS,
    }),
    stop,
    start,
    async close() {
      await stop();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
