import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Logger } from '../log';
import { litestreamBinary } from './litestream-binary';
import { writeLitestreamConfig } from './litestream-config';
import { freeLoopbackPort, litestreamLogForwarder, stopLeftoverLitestream, writePidFile } from './litestream-process';
import { parseLitestreamMetrics, ReplicaLag, type WalState } from './replica-lag';
import { shadowPosition } from './litestream-shadow';
import type { ReplicaSettings } from './replica-settings';

/**
 * Continuous replication while the server runs (docs/operations.md, Replication with Litestream):
 * the server starts `litestream replicate` as its child and supervises it, rather than running
 * under `litestream replicate -exec`. So `npm start` stays the one entry point and refuses a bad
 * configuration or an empty start over a live replica before anything replicates; the server
 * knows Litestream's metrics port to measure the lag; a Litestream that dies is logged and
 * started again; and on shutdown the database is closed first and Litestream stopped after,
 * which makes its final sync ship the last writes.
 */
export interface ReplicaStatus {
  /**
   * Where the replica is, by kind only: /healthz is public (load balancers read it), so the
   * bucket, path and endpoint stay out of it. The start's log line names the whole replica.
   */
  target: 'file' | 's3';
  /** Seconds since the oldest write not yet on the replica; 0 when caught up. */
  lagSeconds: number;
  /** When the newest write known to be on the replica was made (ISO), null until one is. */
  lastReplicatedAt: string | null;
  litestream: 'running' | 'restarting';
  maxLagSeconds: number;
}

export interface Replication {
  status(): ReplicaStatus;
  /** Litestream's process id while it runs (the restore drill kills it). */
  pid(): number | undefined;
  stop(): Promise<void>;
}

export interface ReplicationOptions {
  databaseFile: string;
  dataDir: string;
  settings: ReplicaSettings;
  logger: Logger;
  /** Waits before starting a Litestream that died, growing with each death in a row. */
  restartDelaysMs?: number[];
}

/** 5 s, then longer: enough to see a crash loop in the log, short enough to lose little. */
const RESTART_DELAYS_MS = [5_000, 10_000, 20_000, 30_000];
/** A Litestream that ran this long before dying starts again after the first delay. */
const STEADY_MS = 60_000;
/** How long Litestream gets for its final sync on shutdown before it is killed. */
const STOP_GRACE_MS = 5_000;
/** Litestream's pid and configuration files in DATA_DIR. */
export const LITESTREAM_PID_FILE = 'litestream.pid';
export const LITESTREAM_CONFIG_FILE = 'litestream.yml';

async function walState(databaseFile: string): Promise<WalState | null> {
  try {
    const s = await stat(`${databaseFile}-wal`);
    return { size: s.size, mtimeMs: s.mtimeMs };
  } catch {
    return null;
  }
}

export async function startReplication(options: ReplicationOptions): Promise<Replication> {
  const { databaseFile, dataDir, settings, logger } = options;
  const binary = litestreamBinary();
  const configFile = join(dataDir, LITESTREAM_CONFIG_FILE);
  const pidFile = join(dataDir, LITESTREAM_PID_FILE);
  await stopLeftoverLitestream(pidFile, configFile, logger);
  const metricsAddr = `127.0.0.1:${await freeLoopbackPort()}`;
  writeLitestreamConfig(configFile, { databaseFile, target: settings.target, syncIntervalMs: settings.syncIntervalMs, metricsAddr });

  const delays = options.restartDelaysMs ?? RESTART_DELAYS_MS;
  const forward = litestreamLogForwarder(logger);
  const lag = new ReplicaLag();
  let child: ChildProcess | undefined;
  let exited: Promise<void> = Promise.resolve();
  let deathsInARow = 0;
  let restartTimer: NodeJS.Timeout | undefined;
  let stopping = false;

  const launch = () => {
    const startedAt = Date.now();
    const proc = spawn(binary, ['replicate', '-config', configFile, '-no-expand-env'], { stdio: ['ignore', 'pipe', 'pipe'], env: process.env });
    child = proc;
    exited = new Promise((resolve) => proc.once('exit', () => resolve()));
    for (const stream of [proc.stdout!, proc.stderr!]) createInterface({ input: stream }).on('line', forward);
    proc.once('spawn', () => writePidFile(pidFile, proc.pid!));
    proc.once('error', (err) => logger.warn({ err: err.message }, 'replication failing: Litestream could not be started'));
    proc.once('exit', (code, signal) => {
      if (child === proc) child = undefined;
      if (stopping) return;
      if (Date.now() - startedAt > STEADY_MS) deathsInARow = 0;
      const restartInMs = delays[Math.min(deathsInARow, delays.length - 1)]!;
      deathsInARow += 1;
      logger.warn({ code, signal, restartInMs }, 'replication failing: Litestream stopped; starting it again');
      restartTimer = setTimeout(launch, restartInMs);
    });
  };
  launch();

  // Both ends looked at about once a second (replica-lag.ts says how the lag is read).
  const pollMs = Math.min(1_000, Math.max(200, settings.syncIntervalMs));
  let lagging = false;
  let lastLagWarning = 0;
  let lastSyncErrors: number | null = null;
  let pollTimer: NodeJS.Timeout | undefined;
  const poll = async () => {
    let text: string | null = null;
    if (child) {
      try {
        const res = await fetch(`http://${metricsAddr}/metrics`, { signal: AbortSignal.timeout(pollMs) });
        text = res.ok ? await res.text() : null;
      } catch {
        text = null;
      }
    }
    const metrics = text === null ? null : parseLitestreamMetrics(text, databaseFile);
    const shadow = metrics && (await shadowPosition(databaseFile));
    const now = Date.now();
    lag.observe(now, await walState(databaseFile), metrics && shadow ? { ...metrics, shadow } : null);
    if (metrics && lastSyncErrors !== null && metrics.syncErrorCount > lastSyncErrors) {
      logger.warn({ syncErrors: metrics.syncErrorCount - lastSyncErrors }, 'replication failing: Litestream could not copy the WAL');
    }
    if (metrics) lastSyncErrors = metrics.syncErrorCount;
    const lagSeconds = lag.lagSeconds(now);
    if (lagSeconds > settings.maxLagSeconds && (!lagging || now - lastLagWarning >= 60_000)) {
      logger.warn({ lagSeconds, maxLagSeconds: settings.maxLagSeconds, replica: settings.displayUrl }, 'replica lagging: writes not yet on the replica');
      lastLagWarning = now;
      lagging = true;
    } else if (lagging && lagSeconds <= settings.maxLagSeconds) {
      logger.info({ lagSeconds }, 'replica caught up');
      lagging = false;
    }
  };
  const schedule = () => {
    pollTimer = setTimeout(() => void poll().finally(() => !stopping && schedule()), pollMs);
    pollTimer.unref();
  };
  schedule();
  logger.info({ replica: settings.displayUrl, syncIntervalMs: settings.syncIntervalMs, config: configFile }, 'replicating the database with Litestream');

  return {
    status() {
      const now = Date.now();
      const at = lag.lastReplicatedAt();
      return {
        target: settings.target.kind,
        lagSeconds: lag.lagSeconds(now),
        lastReplicatedAt: at === null ? null : new Date(at).toISOString(),
        litestream: child ? 'running' : 'restarting',
        maxLagSeconds: settings.maxLagSeconds,
      };
    },
    pid: () => child?.pid,
    async stop() {
      stopping = true;
      clearTimeout(restartTimer);
      clearTimeout(pollTimer);
      const running = child;
      if (running) {
        running.kill('SIGTERM');
        const kill = setTimeout(() => running.kill('SIGKILL'), STOP_GRACE_MS);
        await exited;
        clearTimeout(kill);
      }
      rmSync(pidFile, { force: true });
    },
  };
}
