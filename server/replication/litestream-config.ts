import { chmodSync, writeFileSync } from 'node:fs';
import type { ReplicaTarget } from './replica-settings';

/**
 * Litestream's configuration file for our one database (litestream.io/reference/config), written
 * fresh at each start from REPLICA_URL. No secret goes in it: Litestream's S3 client takes the key
 * pair from AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY in its environment. Every value is a
 * JSON string, which is also a YAML double-quoted string, so no path can break the file; Litestream
 * is started with -no-expand-env so a `$` in a path stays a `$`.
 *
 * Settings, and why (docs/operations.md, Replication with Litestream):
 * - sync-interval: REPLICA_SYNC_INTERVAL_MS (1 s, Litestream's default): the replica is sent
 *   what is new once a second. monitor-interval: 200 ms (at most the sync interval), where
 *   Litestream's default is 1 s: a commit is copied to the shadow WAL within 200 ms, then waits
 *   for the next send, so at most about 1.2 s of writes is at risk instead of 2 s (a write just
 *   after a send waited a whole monitor tick and then a whole sync tick). Each tick only reads
 *   the WAL's header and new frames.
 * - snapshot-interval 6h: a restore downloads the latest snapshot and replays the WAL after it;
 *   a fresh snapshot every six hours bounds that replay.
 * - retention 72h: snapshots and WAL older than three days are removed; a weekend to notice a
 *   mistake and restore to a point before it.
 * - checkpoints are left to Litestream's defaults (PASSIVE at 1000 pages, RESTART at 10000): the
 *   app issues no checkpoint of its own beyond SQLite's PASSIVE autocheckpoint.
 */
export interface LitestreamFileOptions {
  databaseFile: string;
  target: ReplicaTarget;
  syncIntervalMs: number;
  /** 127.0.0.1:port for Litestream's Prometheus metrics, which the lag monitor reads; none for one-off commands. */
  metricsAddr?: string;
}

const q = (value: string) => JSON.stringify(value);
const MONITOR_INTERVAL_MS = 200;

export function litestreamConfigText(options: LitestreamFileOptions): string {
  const interval = `${options.syncIntervalMs}ms`;
  const monitor = `${Math.min(MONITOR_INTERVAL_MS, options.syncIntervalMs)}ms`;
  const { target } = options;
  const replica =
    target.kind === 'file'
      ? ['      - type: file', `        path: ${q(target.path)}`]
      : [
          '      - type: s3',
          `        bucket: ${q(target.bucket)}`,
          `        path: ${q(target.path)}`,
          `        region: ${q(target.region)}`,
          ...(target.endpoint ? [`        endpoint: ${q(target.endpoint)}`, '        force-path-style: true'] : []),
        ];
  return [
    ...(options.metricsAddr ? [`addr: ${q(options.metricsAddr)}`] : []),
    'logging:',
    '  type: json',
    'dbs:',
    `  - path: ${q(options.databaseFile)}`,
    `    monitor-interval: ${monitor}`,
    '    replicas:',
    ...replica,
    `        sync-interval: ${interval}`,
    '        snapshot-interval: 6h',
    '        retention: 72h',
    '',
  ].join('\n');
}

/** Writes the file readable by the server's user only (it names the bucket and the folders). */
export function writeLitestreamConfig(file: string, options: LitestreamFileOptions): string {
  writeFileSync(file, litestreamConfigText(options), { mode: 0o600 });
  chmodSync(file, 0o600);
  return file;
}
