import { spawnSync } from 'node:child_process';
import type { Page } from '@playwright/test';
import { expect, newAccount, type TestAccount } from './fixtures';
import { e2eEnv } from './rig/env';

/**
 * What an operator does from the shell (`npm run cli -- ...`), against the test server's
 * DATA_DIR. Accounts for tests about something other than sign-up are made here, so the
 * per-address registration limit is left to the tests that register through the page.
 */
function cli(args: string[], input = ''): string {
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'server/cli.ts', ...args], {
    env: { ...process.env, DATA_DIR: e2eEnv('dataDir') },
    encoding: 'utf8',
    input,
    timeout: 20_000,
  });
  if (run.status !== 0) throw new Error(`cli ${args.join(' ')} failed: ${run.stderr}`);
  return run.stdout;
}

export function grantCredits(username: string, credits: number): void {
  cli(['grant-credits', username, String(credits)]);
}

/** A new account, signed in on this page's browser context (the cookie is shared with the page). */
export async function signedInAccount(page: Page): Promise<TestAccount> {
  const account = newAccount();
  cli(['create-user', account.username, account.email], `${account.password}\n`);
  const res = await page.request.post('/api/auth/login', {
    data: { usernameOrEmail: account.username, password: account.password },
    headers: { Origin: e2eEnv('baseURL') },
  });
  expect(res.status(), await res.text()).toBe(200);
  return account;
}
