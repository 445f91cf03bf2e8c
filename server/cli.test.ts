import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { migrateDatabase, openDatabase } from '../db/client';
import { createUser, findUserByUsername } from './accounts/users';
import { systemClock } from './clock';

const dataDir = mkdtempSync(join(tmpdir(), 'treeanalyzer-cli-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const cli = (...args: string[]) =>
  spawnSync(process.execPath, ['--import', 'tsx', 'server/cli.ts', ...args], {
    env: { ...process.env, DATA_DIR: dataDir },
    encoding: 'utf8',
    timeout: 15_000,
  });

describe('npm run cli -- make-admin', () => {
  it('promotes an existing user and says so', () => {
    const db = openDatabase(join(dataDir, 'treeanalyzer.sqlite'));
    migrateDatabase(db);
    const base = { passwordHash: 'x', firstName: '', lastName: '' };
    createUser(db, systemClock, { ...base, username: 'first', email: 'first@example.com' });
    createUser(db, systemClock, { ...base, username: 'Second', email: 'second@example.com' });
    expect(findUserByUsername(db, 'second')?.role).toBe('user');

    const run = cli('make-admin', 'second');
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('Second is now an admin.');
    expect(findUserByUsername(db, 'second')?.role).toBe('admin');
    db.$client.close();
  });

  it('explains an unknown user and a missing argument', () => {
    const unknown = cli('make-admin', 'ghost');
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toContain('No user named "ghost"');
    const usage = cli('make-admin');
    expect(usage.status).toBe(2);
    expect(usage.stderr).toContain('Usage: npm run cli -- make-admin <username>');
  });
});
