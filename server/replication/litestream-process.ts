import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { Logger } from '../log';

/**
 * The Litestream process's edges: its pid file, a loopback port for its metrics, and its log
 * lines turned into ours.
 */

/** A port free on 127.0.0.1 just now, for Litestream's metrics. */
export function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no free port'))));
    });
  });
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/**
 * A Litestream left running by a server that was killed outright (SIGKILL, OOM) is stopped
 * before a new one starts: Litestream's guidance is never two replicators on one database.
 * Only a process whose command line is Litestream's with our config file is touched.
 */
export async function stopLeftoverLitestream(pidFile: string, configFile: string, logger: Logger): Promise<void> {
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, 'utf8').trim());
  rmSync(pidFile, { force: true });
  if (!Number.isInteger(pid) || pid <= 1 || !alive(pid)) return;
  let commandLine = '';
  try {
    commandLine = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
  } catch {
    return;
  }
  if (!commandLine.includes('litestream') || !commandLine.includes(configFile)) return;
  logger.warn({ pid }, 'stopping a Litestream left running by the previous server process');
  process.kill(pid, 'SIGTERM');
  for (let waited = 0; waited < 5_000 && alive(pid); waited += 100) await new Promise((r) => setTimeout(r, 100));
  if (alive(pid)) process.kill(pid, 'SIGKILL');
}

export function writePidFile(pidFile: string, pid: number): void {
  writeFileSync(pidFile, `${pid}\n`, { mode: 0o600 });
}

/** The same message is logged at most once in this many ms: a replica that is down fails every second. */
const REPEAT_MS = 30_000;

/**
 * Litestream's JSON log lines (`logging: type: json`) as ours: its errors and warnings become
 * warning lines ("replication failing"), new generations and snapshots info lines, and its
 * per-segment chatter debug lines.
 */
export function litestreamLogForwarder(logger: Logger) {
  const lastSaid = new Map<string, { at: number; repeated: number }>();
  return (line: string) => {
    if (!line.trim()) return;
    let entry: Record<string, unknown>;
    try {
      entry = JSON.parse(line) as Record<string, unknown>;
    } catch {
      logger.warn({ litestream: line.slice(0, 500) }, 'litestream said');
      return;
    }
    const { level, msg, time: _time, ...fields } = entry;
    const message = `litestream: ${String(msg ?? '')}`;
    if (level === 'ERROR' || level === 'WARN') {
      const key = `${message} ${String(fields.error ?? '')}`;
      const now = Date.now();
      const seen = lastSaid.get(key);
      if (seen && now - seen.at < REPEAT_MS) {
        seen.repeated += 1;
        return;
      }
      lastSaid.set(key, { at: now, repeated: 0 });
      logger.warn({ ...fields, repeatedSinceLast: seen?.repeated ?? 0 }, `replication failing: ${message}`);
    } else if (/generation|snapshot written|initialized db|replicating to/.test(String(msg))) {
      logger.info(fields, message);
    } else {
      logger.debug(fields, message);
    }
  };
}
