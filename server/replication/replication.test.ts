import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, spawnServer } from '../../build/server-process';
import { newAccount } from '../../testing/harness';
import { restoreReplicaInto, startReplicatedServer } from '../../testing/replica';
import { litestreamBinary } from './litestream-binary';
import { CLI_NODE_ARGS, SERVER_NODE_ARGS } from '../../testing/processes';

/**
 * The real server under the real Litestream (0.3.13, from npm) with a file replica in a temp
 * folder: what it writes can be restored elsewhere, the restore never overwrites a database, an
 * empty DATA_DIR over that replica refuses to start unless told, and without REPLICA_URL the
 * server is the one process it always was.
 */
const ROOT = new URL('../../', import.meta.url).pathname;
const dirs: string[] = [];
const tempDir = (name: string) => {
  const dir = mkdtempSync(join(tmpdir(), `treeanalyzer-${name}-`));
  dirs.push(dir);
  return dir;
};
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/**
 * The process ids a process started (every thread's children, from /proc). A thread that ends
 * between the listing and the read (libvips and libuv start and end worker threads as they
 * please) has no children left to report.
 */
function childrenOf(pid: number): number[] {
  return readdirSync(`/proc/${pid}/task`).flatMap((task) => {
    let children: string;
    try {
      children = readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'ESRCH') return [];
      throw err;
    }
    return children.trim().split(/\s+/).filter(Boolean).map(Number);
  });
}

/** A process's command line, or '' once it is gone. */
function commandOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
  } catch {
    return '';
  }
}

const usernames = (file: string) => {
  const db = new Database(file, { readonly: true });
  try {
    return (db.prepare('select username from users order by username').all() as { username: string }[]).map((u) => u.username);
  } finally {
    db.close();
  }
};

async function register(url: string) {
  const account = newAccount();
  const send = () =>
    fetch(`${url}/api/auth/register`, { method: 'POST', headers: { 'content-type': 'application/json', origin: url }, body: JSON.stringify(account) });
  // A kept-alive connection the server closed after 5 idle seconds (a slow step in between) is sent again once.
  const res = await send().catch(send);
  expect(res.status).toBe(201);
  return account.username;
}

describe('without REPLICA_URL', () => {
  it('starts one process with no Litestream, no replica files and /healthz as before', async () => {
    const dataDir = tempDir('no-replica');
    const port = await freePort();
    const server = await spawnServer({ nodeArgs: SERVER_NODE_ARGS, cwd: ROOT, port, env: { DATA_DIR: dataDir }, timeoutMs: 120_000 });
    try {
      const health = (await (await fetch(`${server.url}/healthz`)).json()) as Record<string, unknown>;
      expect(Object.keys(health).sort()).toEqual(['eventLoop', 'status']);
      // tsx may keep its compiler (an esbuild service process) beside the server for a while:
      // the claim is that nothing else, Litestream above all, was started.
      const others = childrenOf(server.child.pid!).map(commandOf).filter((command) => !/\besbuild\b/.test(command));
      expect(others).toEqual([]);
      expect(readdirSync(dataDir).filter((name) => name.includes('litestream'))).toEqual([]);
    } finally {
      await server.stop();
    }
    expect(server.output()).not.toContain('itestream');
  });
});

describe('with a file replica', () => {
  const replicaDir = tempDir('replica');
  const replicaUrl = `file://${replicaDir}`;

  it('streams every write to the replica, and restore-replica brings them back into a new folder but never over a database', async () => {
    const server = await startReplicatedServer({ dataDir: tempDir('live'), replicaUrl });
    const restored = join(tempDir('new-box'), 'data');
    try {
      expect(server.litestreamPid()).toBeGreaterThan(0);
      expect(childrenOf(server.child.pid!)).toContain(server.litestreamPid());
      await register(server.url);
      await register(server.url);
      const lastWrite = new Date();
      await register(server.url);
      await server.caughtUp(lastWrite);
      const live = usernames(join(server.dataDir, 'treeanalyzer.sqlite'));
      expect(live).toHaveLength(3);

      const restore = restoreReplicaInto(restored, { replicaUrl });
      expect(restore.stderr).toBe('');
      expect(restore.status).toBe(0);
      expect(restore.stdout).toMatch(/^Restored generation [0-9a-f]{16} \(WAL index \d+, replicated up to \S+\) from file:\/\/.* 3 accounts and 0 analyses, in [\d.]+ s\./);
      expect(usernames(join(restored, 'treeanalyzer.sqlite'))).toEqual(live);

      const again = restoreReplicaInto(restored, { replicaUrl });
      expect(again.status).toBe(1);
      expect(again.stderr).toContain('already holds a database');
      expect(usernames(join(restored, 'treeanalyzer.sqlite'))).toEqual(live);

      // The nightly backup command beside Litestream: its snapshot does not disturb the WAL Litestream follows.
      const backup = spawnSync(process.execPath, [...CLI_NODE_ARGS, 'backup', join(tempDir('backup'), 'b')], {
        cwd: ROOT,
        env: { ...process.env, DATA_DIR: server.dataDir },
        encoding: 'utf8',
        timeout: 30_000,
      });
      expect(backup.status, backup.stderr).toBe(0);
      const afterBackup = new Date();
      await register(server.url);
      await server.caughtUp(afterBackup);
    } finally {
      await server.stop();
    }
    // One history from the first write to the last: no new generation (a full snapshot) after the backup.
    expect(server.output().match(/litestream: sync: new generation/g)).toHaveLength(1);
    // Stopped with the server, its pid file gone.
    expect(existsSync(join(server.dataDir, 'litestream.pid'))).toBe(false);
  });

  it('stops a Litestream left running on its DATA_DIR before starting its own: never two on one database', async () => {
    // A server killed outright leaves its Litestream running until it next writes to the closed
    // pipe; here one that never will (its output goes nowhere), named in the pid file as the server leaves it.
    const dataDir = tempDir('orphan');
    const replicaUrl = `file://${tempDir('orphan-replica')}`;
    const first = await startReplicatedServer({ dataDir, replicaUrl });
    await first.stop();
    const orphan = spawn(litestreamBinary(), ['replicate', '-config', join(dataDir, 'litestream.yml'), '-no-expand-env'], { stdio: 'ignore' });
    const orphanExit = new Promise((resolve) => orphan.once('exit', resolve));
    writeFileSync(join(dataDir, 'litestream.pid'), `${orphan.pid}\n`);
    const second = await startReplicatedServer({ dataDir, replicaUrl });
    try {
      await orphanExit;
      expect(second.litestreamPid()).not.toBe(orphan.pid);
      expect((await second.replica()).replica.litestream).toBe('running');
    } finally {
      orphan.kill('SIGKILL');
      await second.stop();
    }
    expect(second.output()).toContain('stopping a Litestream left running by the previous server process');
  });

  it('refuses to start an empty DATA_DIR over it, naming the two ways on; REPLICA_START_EMPTY=1 starts anyway', async () => {
    const empty = tempDir('empty');
    const refused = startReplicatedServer({ dataDir: empty, replicaUrl });
    await expect(refused).rejects.toThrow(/exited before it was healthy[\s\S]*holds a database \(generation [0-9a-f]{16}[\s\S]*npm run cli -- restore-replica [\s\S]*REPLICA_START_EMPTY=1/);
    expect(existsSync(join(empty, 'treeanalyzer.sqlite'))).toBe(false);

    const anyway = await startReplicatedServer({ dataDir: empty, replicaUrl, env: { REPLICA_START_EMPTY: '1' } });
    await anyway.stop();
    expect(anyway.output()).toContain('REPLICA_START_EMPTY=1: starting a new empty database');
  });
});
