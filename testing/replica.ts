import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort, spawnServer, type ServerProcess } from '../build/server-process';
import { LITESTREAM_PID_FILE } from '../server/replication/replicator';
import type { ReplicaStatus } from '../server/replication/replicator';
import { CLI_NODE_ARGS, SERVER_NODE_ARGS } from './processes';

/**
 * The real server under Litestream, and the way back, for tests and the restore drill
 * (docs/operations.md, Replication with Litestream). Everything runs as an operator runs it: the
 * server in its own process with REPLICA_URL, Litestream as its child, the restore through
 * `npm run cli -- restore-replica`.
 */
const ROOT = new URL('../', import.meta.url).pathname;
/** How far a file's mtime may read behind the clock that was read before the write (a kernel tick, with room). */
const MTIME_SLACK_MS = 100;

export interface ReplicatedServer extends ServerProcess {
  dataDir: string;
  /** Litestream's process id now (from DATA_DIR/litestream.pid), to kill it. */
  litestreamPid(): number | undefined;
  /** GET /healthz: its status code and the replica part. */
  replica(): Promise<{ status: number; replica: Omit<ReplicaStatus, 'maxLagSeconds'> }>;
  /** Waits until /healthz says every write so far is on the replica: lag 0, and a write made at or after `since` (taken before the last request that wrote) is on it. */
  caughtUp(since?: Date, timeoutMs?: number): Promise<void>;
}

export interface ReplicatedServerOptions {
  dataDir: string;
  /** file:///abs/folder or s3://bucket/path (then the S3 variables in `env`). */
  replicaUrl: string;
  /** Litestream's sync interval; short in tests. */
  syncIntervalMs?: number;
  env?: Record<string, string>;
  timeoutMs?: number;
}

export function replicaEnv(options: ReplicatedServerOptions): Record<string, string> {
  return {
    DATA_DIR: options.dataDir,
    REPLICA_URL: options.replicaUrl,
    REPLICA_SYNC_INTERVAL_MS: String(options.syncIntervalMs ?? 100),
    ...options.env,
  };
}

export async function startReplicatedServer(options: ReplicatedServerOptions): Promise<ReplicatedServer> {
  const server = await spawnServer({
    nodeArgs: SERVER_NODE_ARGS,
    cwd: ROOT,
    port: await freePort(),
    env: { LOG_LEVEL: 'info', ...replicaEnv(options) },
    timeoutMs: options.timeoutMs ?? 120_000,
  });
  const replica = async () => {
    const res = await fetch(`${server.url}/healthz`, { signal: AbortSignal.timeout(5_000) });
    const body = (await res.json()) as { replica: Omit<ReplicaStatus, 'maxLagSeconds'> };
    return { status: res.status, replica: body.replica };
  };
  return {
    ...server,
    dataDir: options.dataDir,
    litestreamPid() {
      const file = join(options.dataDir, LITESTREAM_PID_FILE);
      return existsSync(file) ? Number(readFileSync(file, 'utf8').trim()) : undefined;
    },
    replica,
    async caughtUp(since = new Date(0), timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs;
      let last: unknown;
      while (Date.now() < deadline) {
        const { replica: now } = await replica();
        last = now;
        // The write's time is the WAL file's mtime, which the kernel stamps from its coarse clock (a
        // tick, up to 10 ms, behind the time a process reads): a write made after `since` may carry a
        // time a few milliseconds before it.
        if (now.lagSeconds === 0 && now.lastReplicatedAt !== null && new Date(now.lastReplicatedAt).getTime() >= since.getTime() - MTIME_SLACK_MS) return;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      throw new Error(`the replica did not catch up within ${timeoutMs} ms: ${JSON.stringify(last)}`);
    },
  };
}

/** `npm run cli -- restore-replica <dataDir>` with the same replica variables; what it printed and its exit code. */
export function restoreReplicaInto(dataDir: string, options: Omit<ReplicatedServerOptions, 'dataDir'>) {
  const run = spawnSync(process.execPath, [...CLI_NODE_ARGS, 'restore-replica', dataDir], {
    cwd: ROOT,
    // DATA_DIR the same folder, as an operator on the new box sets it.
    env: { ...process.env, ...replicaEnv({ ...options, dataDir }) },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}
