import { isAbsolute } from 'node:path';
import { fileURLToPath } from 'node:url';
import { arePlainSegments, isBucketName, readS3Access, type S3Env } from '../storage/s3-access';

/**
 * REPLICA_URL read with the S3 variables (docs/operations.md, Replication with Litestream).
 * Unset: no replication, and the server starts as one process exactly as before.
 * `s3://bucket/path`: Litestream streams the database there, with S3_ENDPOINT and S3_REGION;
 * the key pair stays in the environment, where Litestream reads it (AWS's own variables), and
 * never reaches a file. `file:///abs/path`: a folder, e.g. a second disk. Pure: config.ts turns
 * the problems into its ConfigError.
 */
export type ReplicaTarget =
  | { kind: 'file'; path: string }
  | { kind: 's3'; bucket: string; path: string; endpoint?: string; region: string };

export interface ReplicaSettings {
  target: ReplicaTarget;
  /** The replica's address as logs and /healthz show it: no key, no query, no user. */
  displayUrl: string;
  /** /healthz answers 503 past this many seconds of writes not yet on the replica. */
  maxLagSeconds: number;
  /** Litestream's monitor and sync interval: how often the WAL is copied and shipped. */
  syncIntervalMs: number;
  /** REPLICA_START_EMPTY=1: start a new empty database even though the replica holds data. */
  startEmpty: boolean;
}

export interface ReplicaEnv extends S3Env {
  REPLICA_URL?: string;
  REPLICA_MAX_LAG_SECONDS?: string;
  REPLICA_SYNC_INTERVAL_MS?: string;
  REPLICA_START_EMPTY?: string;
}

/** Past this much unreplicated time /healthz says 503: 60 s is 60 of Litestream's 1 s syncs missed in a row. */
export const DEFAULT_MAX_LAG_SECONDS = 60;
/** Litestream's own default for both intervals (litestream.io/reference/config): about 1 s of writes at risk. */
export const DEFAULT_SYNC_INTERVAL_MS = 1000;
const URL_SHAPE = 'REPLICA_URL: must look like s3://bucket/path (an S3 bucket name and a path) or file:///absolute/folder';

function wholeNumber(name: string, raw: string | undefined, fallback: number, min: number, max: number, problems: string[]): number {
  const text = raw?.trim();
  if (!text) return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < min || value > max) {
    problems.push(`${name}: must be a whole number from ${min} to ${max}`);
    return fallback;
  }
  return value;
}

function parseTarget(raw: string, env: ReplicaEnv, problems: string[]): ReplicaTarget | undefined {
  if (raw.length > 1000) {
    problems.push('REPLICA_URL: longer than 1000 characters');
    return undefined;
  }
  if (raw.startsWith('file:')) {
    // The URL parser would fold `a/../b` into `b`: a path spelled with `..` is refused, not guessed at.
    if (raw.split('/').includes('..')) {
      problems.push(URL_SHAPE);
      return undefined;
    }
    let path: string;
    try {
      path = fileURLToPath(raw);
    } catch {
      problems.push(URL_SHAPE);
      return undefined;
    }
    if (!isAbsolute(path) || path.split('/').includes('..') || /[\n\r\0]/.test(path)) {
      problems.push(URL_SHAPE);
      return undefined;
    }
    return { kind: 'file', path: path.replace(/\/+$/, '') || '/' };
  }
  const match = /^s3:\/\/([^/?#]+)\/([^?#]*)$/.exec(raw);
  const segments = (match?.[2] ?? '').split('/').filter((s) => s !== '');
  if (!match || !isBucketName(match[1]!) || segments.length === 0 || !arePlainSegments(segments)) {
    problems.push(`${URL_SHAPE}; the path is letters, digits, dots, hyphens and underscores between slashes`);
    return undefined;
  }
  // The key pair is only checked here: Litestream reads it from the environment itself.
  const { endpoint, region } = readS3Access(env, 'an s3:// REPLICA_URL', 'under the path', /^https?:\/\/[^\s/]+\/?$/, problems);
  return { kind: 's3', bucket: match[1]!, path: segments.join('/'), endpoint, region };
}

export function readReplicaSettings(env: ReplicaEnv): { settings?: ReplicaSettings; problems: string[] } {
  const raw = env.REPLICA_URL?.trim();
  if (!raw) return { problems: [] };
  const problems: string[] = [];
  const target = parseTarget(raw, env, problems);
  const maxLagSeconds = wholeNumber('REPLICA_MAX_LAG_SECONDS', env.REPLICA_MAX_LAG_SECONDS, DEFAULT_MAX_LAG_SECONDS, 5, 86_400, problems);
  const syncIntervalMs = wholeNumber('REPLICA_SYNC_INTERVAL_MS', env.REPLICA_SYNC_INTERVAL_MS, DEFAULT_SYNC_INTERVAL_MS, 100, 60_000, problems);
  const startEmpty = env.REPLICA_START_EMPTY?.trim();
  if (startEmpty && !['0', '1'].includes(startEmpty)) problems.push('REPLICA_START_EMPTY: must be 1 (start a new empty database over a replica that holds data) or 0');
  if (!target || problems.length > 0) return { problems };
  return { settings: { target, displayUrl: displayUrl(target), maxLagSeconds, syncIntervalMs, startEmpty: startEmpty === '1' }, problems };
}

/** The replica as an operator reads it; nothing here is secret (keys live only in the environment). */
export function displayUrl(target: ReplicaTarget): string {
  if (target.kind === 'file') return `file://${target.path}`;
  return `s3://${target.bucket}/${target.path}${target.endpoint ? ` at ${new URL(target.endpoint).origin}` : ''}`;
}
