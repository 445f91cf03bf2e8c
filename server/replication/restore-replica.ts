import { existsSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { DATABASE_FILE } from '../ops/backup';
import { litestreamBinary } from './litestream-binary';
import { LitestreamCommandFailed, runLitestreamCommand } from './litestream-command';
import { replicaGenerations } from './replica-generations';
import type { ReplicaSettings } from './replica-settings';

export class ReplicaRestoreError extends Error {}

export interface ReplicaRestoreReport {
  file: string;
  generation: string;
  /** The last WAL index replayed, and when the replica last received a write of that generation. */
  walIndex: number | null;
  replicatedUpTo: string;
  bytes: number;
  durationMs: number;
  accounts: number;
  analyses: number;
}

/** The figure from each `key=value` or JSON log line of `litestream restore`, last one wins. */
function lastField(log: string, key: string): string | undefined {
  let found: string | undefined;
  for (const line of log.split('\n')) {
    try {
      const value = (JSON.parse(line) as Record<string, unknown>)[key];
      if (value !== undefined) found = String(value);
    } catch {
      const match = new RegExp(`\\b${key}=(\\S+)`).exec(line);
      if (match) found = match[1];
    }
  }
  return found;
}

function countRows(file: string): { accounts: number; analyses: number } {
  const db = new Database(file, { readonly: true });
  try {
    if (db.pragma('quick_check', { simple: true }) !== 'ok') throw new ReplicaRestoreError(`The restored database ${file} failed SQLite's quick check.`);
    const count = (table: string) => {
      const exists = db.prepare("select 1 from sqlite_master where type = 'table' and name = ?").get(table);
      return exists ? (db.prepare(`select count(*) as n from "${table}"`).get() as { n: number }).n : 0;
    };
    return { accounts: count('users'), analyses: count('tree_analyses') };
  } finally {
    db.close();
  }
}

/**
 * `npm run cli -- restore-replica <dataDir>` (docs/operations.md, Replication with Litestream):
 * Litestream's restore of the replica REPLICA_URL names, to its last replicated position, into
 * `<dataDir>/treeanalyzer.sqlite`. A folder that already holds a database is refused, whatever
 * it holds: the restore is for a new box, and the old file might be the only copy of something.
 */
export async function restoreReplica(dataDir: string, settings: ReplicaSettings): Promise<ReplicaRestoreReport> {
  const file = join(dataDir, DATABASE_FILE);
  for (const existing of [file, `${file}-wal`]) {
    if (existsSync(existing)) {
      throw new ReplicaRestoreError(`${dataDir} already holds a database (${existing}). Restore into an empty folder, or move that file away first: restore-replica never overwrites one.`);
    }
  }
  const binary = litestreamBinary();
  const started = performance.now();
  const generations = await replicaGenerations(binary, settings.target, settings.syncIntervalMs);
  if (generations.length === 0) throw new ReplicaRestoreError(`The replica ${settings.displayUrl} holds no database yet: nothing to restore.`);
  mkdirSync(dataDir, { recursive: true });
  let log: string;
  try {
    const out = await runLitestreamCommand(
      binary,
      'restore',
      { databaseFile: file, target: settings.target, syncIntervalMs: settings.syncIntervalMs },
      { timeoutMs: 30 * 60_000, maxBuffer: 64 * 1024 * 1024 },
    );
    log = `${out.stdout}\n${out.stderr}`;
  } catch (err) {
    if (!(err instanceof LitestreamCommandFailed)) throw err;
    throw new ReplicaRestoreError(`Litestream could not restore the replica ${settings.displayUrl}:\n${err.lastLines(3)}`);
  } finally {
    // Litestream 0.3.13 leaves the -wal and -shm of its temporary file behind.
    for (const leftover of ['.tmp-wal', '.tmp-shm']) rmSync(`${file}${leftover}`, { force: true });
  }
  const durationMs = performance.now() - started;
  const generation = lastField(log, 'generation') ?? generations.at(-1)!.id;
  const walIndex = lastField(log, 'index_max') ?? lastField(log, 'index');
  return {
    file,
    generation,
    walIndex: walIndex === undefined ? null : Number.parseInt(walIndex, 10),
    replicatedUpTo: generations.find((g) => g.id === generation)?.end ?? generations.at(-1)!.end,
    bytes: statSync(file).size,
    durationMs,
    ...countRows(file),
  };
}
