import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { migrateDatabase, openDatabase } from '../db/client';
import { verifyPassword } from './accounts/passwords';
import { createUser, findUserByUsername } from './accounts/users';
import { balanceOf, ledgerSum } from './credits/ledger';
import { systemClock } from './clock';
import { loadConfig } from './config';
import { CLI_NODE_ARGS } from '../testing/processes';
import { grantCreditsCommand } from '../core/credits';

const dataDir = mkdtempSync(join(tmpdir(), 'treeanalyzer-cli-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const cliWithInput = (input: string, ...args: string[]) =>
  spawnSync(process.execPath, [...CLI_NODE_ARGS, ...args], {
    env: { ...process.env, DATA_DIR: dataDir },
    encoding: 'utf8',
    input,
    timeout: 120_000,
  });
const cli = (...args: string[]) => cliWithInput('', ...args);

describe('npm run cli -- make-admin', () => {
  it('promotes an existing user and says so', () => {
    const db = openDatabase(join(dataDir, 'treeanalyzer.sqlite'));
    migrateDatabase(db, loadConfig({ DATA_DIR: dataDir }).migrationsDir);
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

describe('npm run cli -- grant-credits', () => {
  it('runs as the dashboard shows it where credits cannot be bought (core/credits.ts grantCreditsCommand)', () => {
    const shown = grantCreditsCommand('Second', 20);
    expect(shown).toBe('npm run cli -- grant-credits Second 20');
    const run = cli(...shown.split(' -- ')[1]!.split(' '));
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain('Granted 20 credits to Second; balance is now 20.');
  });

  it('adds credits through the ledger and reports the balance', () => {
    const first = cli('grant-credits', 'first', '30');
    expect(first.status).toBe(0);
    expect(first.stdout).toContain('Granted 30 credits to first; balance is now 30.');
    expect(cli('grant-credits', 'FIRST', '5').stdout).toContain('balance is now 35.');

    const db = openDatabase(join(dataDir, 'treeanalyzer.sqlite'));
    const id = findUserByUsername(db, 'first')!.id;
    expect(balanceOf(db, id)).toBe(35);
    expect(ledgerSum(db, id)).toBe(35);
    db.$client.close();
  });

  it('refuses a bad amount and an unknown user without changing anything', () => {
    for (const amount of ['0', '-5', '2.5', 'lots']) expect(cli('grant-credits', 'first', amount).status).toBe(2);
    expect(cli('grant-credits', 'ghost', '10').status).toBe(1);
    const db = openDatabase(join(dataDir, 'treeanalyzer.sqlite'));
    expect(balanceOf(db, findUserByUsername(db, 'first')!.id)).toBe(35);
    db.$client.close();
    // Five CLI processes, each starting TypeScript: room for a busy machine.
  });
});

describe('npm run cli -- create-user', () => {
  it('creates an account with the password from standard input, under the registration rules', async () => {
    const made = cliWithInput('a good password\n', 'create-user', 'cli_made', 'CLI@Example.com');
    expect(made.status, made.stderr).toBe(0);
    expect(made.stdout).toContain('Created cli_made (user).');
    const db = openDatabase(join(dataDir, 'treeanalyzer.sqlite'));
    const user = findUserByUsername(db, 'cli_made')!;
    expect(user.email).toBe('cli@example.com');
    expect(user.password).toMatch(/^\$argon2id\$/);
    expect(await verifyPassword(user.password, 'a good password')).toBe(true);
    db.$client.close();

    expect(cliWithInput('short\n', 'create-user', 'cli_two', 'two@example.com').stderr).toContain('Password must be at least 6 characters');
    expect(cliWithInput('another pass\n', 'create-user', 'CLI_MADE', 'other@example.com').stderr).toContain('Username is already taken');
  });
});

describe('npm run cli -- backup / restore', () => {
  it('copies DATA_DIR to a folder and restores it into an empty DATA_DIR, refusing to overwrite without --force', () => {
    const db = openDatabase(join(dataDir, 'treeanalyzer.sqlite'));
    migrateDatabase(db, loadConfig({ DATA_DIR: dataDir }).migrationsDir);
    createUser(db, systemClock, { passwordHash: 'x', firstName: '', lastName: '', username: 'kept', email: 'kept@example.com' });
    db.$client.close();
    const dest = join(dataDir, '..', `${dataDir.split('/').pop()}-backup`);
    const target = mkdtempSync(join(tmpdir(), 'treeanalyzer-restore-'));
    try {
      const backup = cli('backup', dest);
      expect(backup.stderr).toBe('');
      expect(backup.status).toBe(0);
      expect(backup.stdout).toMatch(/^Backed up \d+ accounts and 0 analyses/);
      expect(cli('backup', dest).stderr).toContain('is not empty');

      const restore = (...args: string[]) =>
        spawnSync(process.execPath, [...CLI_NODE_ARGS, 'restore', ...args], { env: { ...process.env, DATA_DIR: target }, encoding: 'utf8', timeout: 120_000 });
      expect(restore(dest).status).toBe(0);
      const restored = openDatabase(join(target, 'treeanalyzer.sqlite'));
      expect(findUserByUsername(restored, 'kept')?.email).toBe('kept@example.com');
      restored.$client.close();
      const again = restore(dest);
      expect(again.status).toBe(1);
      expect(again.stderr).toContain('--force');
      expect(restore(dest, '--force').status).toBe(0);
    } finally {
      rmSync(dest, { recursive: true, force: true });
      rmSync(target, { recursive: true, force: true });
    }
  });
});
