import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { openDatabase, type Db } from '../db/client';
import { registerSchema } from '../core/accounts';
import { hashPassword } from '../server/accounts/passwords';
import { createUser, findUserByUsername, setRole } from '../server/accounts/users';
import { systemClock } from '../server/clock';
import { DATABASE_FILE } from '../server/ops/backup';
import { grantCredits as grant } from '../server/credits/ledger';
import { loadConfig } from '../server/config';
import { sendDueInvoiceReminders } from '../server/invoices/reminders';
import { createLogger } from '../server/log';
import { pendingOutboxWork } from '../server/mail/outbox';
import { startMailWorker } from '../server/mail/outbox-worker';
import { createMailer } from '../server/mail/create-mailer';
import { createPhotoStore } from '../server/storage/create-photo-store';
import { expect, newAccount, type TestAccount } from './fixtures';
import { e2eEnv } from './rig/env';

/*
 * What an operator does from the shell (`npm run cli -- grant-credits | create-user |
 * make-admin`), done with the same domain functions the CLI calls, in this worker's own
 * process, on the test server's SQLite file (WAL: the server and this connection share it as
 * the CLI and the server do). A CLI process under tsx cost about a second of CPU per call.
 * server/cli.test.ts runs the CLI itself. Accounts for tests about something other than
 * sign-up are made here, so the per-address registration limit is left to the tests that
 * register through the page.
 */
let db: Db | undefined;
function database(): Db {
  db ??= openDatabase(join(e2eEnv('dataDir'), DATABASE_FILE));
  return db;
}

function userId(username: string): number {
  const user = findUserByUsername(database(), username);
  if (!user) throw new Error(`no account named ${username}`);
  return user.id;
}

/** `npm run cli -- grant-credits <username> <n>`. */
export function grantCredits(username: string, credits: number): void {
  grant(database(), systemClock, userId(username), credits, 'grant', 'cli');
}

/** `npm run cli -- make-admin <username>`. */
export function makeAdmin(username: string): void {
  if (!setRole(database(), systemClock, username, 'admin')) throw new Error(`no account named ${username}`);
}

/** `npm run cli -- create-user <username> <email>`, the password as typed on standard input. */
export async function createAccount(account: TestAccount): Promise<void> {
  const { username, email, password } = account;
  const parsed = registerSchema.parse({ username, email, password, confirmPassword: password });
  createUser(database(), systemClock, { ...parsed, passwordHash: await hashPassword(password) });
}

/** A new account, signed in on this page's browser context (the cookie is shared with the page). */
export async function signedInAccount(page: Page): Promise<TestAccount> {
  const account = newAccount();
  await createAccount(account);
  const res = await page.request.post('/api/auth/login', {
    data: { usernameOrEmail: account.username, password: account.password },
    headers: { Origin: e2eEnv('baseURL') },
  });
  expect(res.status(), await res.text()).toBe(200);
  return account;
}

/**
 * `count` accounts no one can sign in as, named `${prefix}NN` (e-mail `${prefix}NN@example.test`),
 * made by createUser like any other (with their credit and settings rows), for tests that need
 * more accounts than one address may register in an hour. Their password hash is not one any
 * password matches.
 */
export function bulkAccounts(prefix: string, count: number): void {
  for (let n = 0; n < count; n += 1) {
    const username = prefix + String(n).padStart(2, '0');
    createUser(database(), systemClock, { username, email: `${username}@example.test`, passwordHash: 'not-a-hash', firstName: '', lastName: '' });
  }
}

/** Straight to the server's SQLite file, as a DBA would: no CLI command demotes an admin. */
export function demote(username: string): void {
  const changed = database().$client.prepare("update users set role = 'user' where username = ?").run(username).changes;
  if (changed !== 1) throw new Error(`no account named ${username}`);
}

/**
 * The hourly run of overdue invoice reminders (server/main.ts), run once here as if the clock read
 * `at`: the same domain function on the server's database, its mail sent through the same catcher
 * with the server's settings. An injected clock: the server's own stays the real one. Resolves
 * once the reminders' e-mails (each with its PDF) are handed to the catcher; answers how many.
 */
export async function runInvoiceRemindersAt(at: Date): Promise<number> {
  const config = loadConfig({
    DATA_DIR: e2eEnv('dataDir'),
    SMTP_URL: `smtp://127.0.0.1:${e2eEnv('smtpPort')}`,
    MAIL_FROM: 'no-reply@treeanalyzer.test',
    PUBLIC_URL: e2eEnv('baseURL'),
    NODE_ENV: 'test',
  });
  const logger = createLogger({ destination: { write: () => undefined } });
  const mailer = createMailer(config, logger);
  const db = database();
  const before = Number(db.$client.prepare('select coalesce(max(id), 0) from mail_outbox').pluck().get());
  const sent = sendDueInvoiceReminders({ db, clock: { now: () => new Date(at) }, mailer, config, logger, photos: createPhotoStore(config) });
  // The reminders are rows of the server's outbox, written as if at `at`, their PDFs made here.
  // They are made due now on the real clock, and a worker here sends them at once, beside the
  // server's own (which looks each minute; the claim keeps the two from both sending one).
  await Promise.allSettled(pendingOutboxWork(db));
  db.$client.prepare("update mail_outbox set next_try_at = ? where id > ? and status = 'queued'").run(Date.now(), before);
  const worker = startMailWorker({ db, clock: systemClock, mailer, logger, config });
  await worker.settled();
  await worker.stop();
  mailer.close?.();
  return sent;
}
