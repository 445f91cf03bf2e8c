import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { environmentWithout, freePort, spawnServer } from '../../build/server-process';
import { newAccount } from '../../testing/harness';
import { DATABASE_FILE } from './backup';
import { tightenDataDir } from './data-permissions';
import { CLI_NODE_ARGS, SERVER_NODE_ARGS } from '../../testing/processes';

/**
 * DATA_DIR is the server's user's alone (server/ops/data-permissions.ts): what an older install
 * left readable is tightened at start, and what the server, Litestream and the CLI make from now
 * on is 0600 in 0700 folders.
 */
const ROOT = new URL('../../', import.meta.url).pathname;
const made: string[] = [];
const tempDir = (name: string) => {
  const dir = mkdtempSync(join(tmpdir(), `treeanalyzer-${name}-`));
  made.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const modeOf = (path: string) => statSync(path).mode & 0o777;

/** Every folder and file under `dir` (links not followed), with its mode. */
function modesUnder(dir: string): Record<string, number> {
  const modes: Record<string, number> = {};
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isSymbolicLink()) continue;
    const path = join(entry.parentPath, entry.name);
    modes[path.slice(dir.length + 1)] = modeOf(path);
  }
  return modes;
}

/** DATA_DIR as an install from before the rule left it: 0755 folders, 0644 files, a link to another disk. */
function oldInstall(): { dataDir: string; outside: string } {
  const dataDir = tempDir('old-data');
  const outside = join(tempDir('other-disk'), 'shared.txt');
  writeFileSync(outside, 'not ours to change');
  chmodSync(outside, 0o644);
  const litestream = join(dataDir, `.${DATABASE_FILE}-litestream`, 'generations', '0123abcd', 'wal');
  mkdirSync(litestream, { recursive: true, mode: 0o755 });
  mkdirSync(join(dataDir, 'backups', 'monday'), { recursive: true, mode: 0o755 });
  for (const file of [join(litestream, '00000000.wal'), join(dataDir, 'backups', 'monday', DATABASE_FILE), join(dataDir, 'notes.txt')]) {
    writeFileSync(file, 'x', { mode: 0o644 });
    chmodSync(file, 0o644);
  }
  // Photos' folder as an older install made it (0755), its photos 0600 as they were always written.
  mkdirSync(join(dataDir, 'uploads'), { mode: 0o755 });
  chmodSync(join(dataDir, 'uploads'), 0o755);
  writeFileSync(join(dataDir, 'uploads', 'photo.jpg'), 'x', { mode: 0o600 });
  writeFileSync(join(dataDir, 'helper.sh'), '#!/bin/sh\n');
  chmodSync(join(dataDir, 'helper.sh'), 0o755);
  symlinkSync(outside, join(dataDir, 'shared.txt'));
  for (const dir of [dataDir, join(dataDir, 'backups'), join(dataDir, `.${DATABASE_FILE}-litestream`)]) chmodSync(dir, 0o755);
  return { dataDir, outside };
}

describe('tightenDataDir', () => {
  it('takes group and other bits off DATA_DIR and everything under it, owner bits kept, links not followed', () => {
    const { dataDir, outside } = oldInstall();
    const changed = tightenDataDir(dataDir);
    expect(modeOf(dataDir)).toBe(0o700);
    const modes = modesUnder(dataDir);
    expect(modes[`.${DATABASE_FILE}-litestream/generations/0123abcd/wal/00000000.wal`]).toBe(0o600);
    expect(modes[`.${DATABASE_FILE}-litestream/generations/0123abcd`]).toBe(0o700);
    expect(modes[`backups/monday/${DATABASE_FILE}`]).toBe(0o600);
    expect(modes['notes.txt']).toBe(0o600);
    expect(modes['helper.sh']).toBe(0o700);
    expect(modes.uploads).toBe(0o700);
    expect(modes['uploads/photo.jpg']).toBe(0o600);
    for (const [path, mode] of Object.entries(modes)) expect(mode & 0o077, path).toBe(0);
    expect(modeOf(outside)).toBe(0o644);
    // DATA_DIR and every entry under it, but the photo that was already 0600.
    expect(changed).toBe(1 + Object.keys(modes).length - 1);
    // Nothing left to do on the next start.
    expect(tightenDataDir(dataDir)).toBe(0);
  });
});

describe('the server and the CLI keep DATA_DIR private', () => {
  it("tightens an old install at start; the database, its WAL and SHM, the secret and a backup are 0600 in 0700 folders", async () => {
    const { dataDir, outside } = oldInstall();
    const port = await freePort();
    const server = await spawnServer({
      nodeArgs: SERVER_NODE_ARGS,
      cwd: ROOT,
      port,
      env: { PUBLIC_URL: `http://127.0.0.1:${port}`, DATA_DIR: dataDir },
      timeoutMs: 120_000,
    });
    const backup = join(tempDir('backup-parent'), 'backup');
    try {
      // A write, so the WAL and shared-memory files are in use.
      const registered = await fetch(`${server.url}/api/auth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: server.url },
        body: JSON.stringify(newAccount()),
      });
      expect(registered.status).toBe(201);
      for (const file of [DATABASE_FILE, `${DATABASE_FILE}-wal`, `${DATABASE_FILE}-shm`, 'session-secret']) expect(modeOf(join(dataDir, file)), file).toBe(0o600);
      const cli = spawnSync(process.execPath, [...CLI_NODE_ARGS, 'backup', backup], {
        cwd: ROOT,
        env: { ...environmentWithout(), DATA_DIR: dataDir },
        encoding: 'utf8',
        timeout: 30_000,
      });
      expect(cli.status, cli.stderr).toBe(0);
    } finally {
      await server.stop();
    }
    expect(modeOf(dataDir)).toBe(0o700);
    for (const [path, mode] of Object.entries(modesUnder(dataDir))) expect(mode & 0o077, path).toBe(0);
    expect(modeOf(outside)).toBe(0o644);
    expect(modeOf(backup)).toBe(0o700);
    const backedUp = modesUnder(backup);
    expect(backedUp[DATABASE_FILE]).toBe(0o600);
    for (const [path, mode] of Object.entries(backedUp)) expect(mode & 0o077, path).toBe(0);
  });
});
