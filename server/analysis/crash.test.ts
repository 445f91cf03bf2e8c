import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openDatabase, type Db } from '../../db/client';
import { freePort, spawnServer, type ServerProcess } from '../../build/server-process';
import { findUserByUsername } from '../accounts/users';
import { systemClock } from '../clock';
import { balanceOf, grantCredits, ledgerSum } from '../credits/ledger';
import { analysisForm } from '../../testing/analysis';
import { startFakeOpenAI, type FakeOpenAI } from '../../testing/fake-openai';
import { newAccount } from '../../testing/harness';
import { uploadsDir } from './store';
import { SERVER_NODE_ARGS } from '../../testing/processes';

/**
 * Crash-safe credits: the real server in its own process (as `npm run dev` runs it),
 * a model that takes far longer than the test, and an analysis paid for and waiting on it when
 * the process is killed. With SIGKILL nothing can run at the time, so the next start refunds it;
 * with SIGTERM the server aborts the model call and refunds it before it exits.
 */
const ROOT = new URL('../../', import.meta.url).pathname;
let fake: FakeOpenAI;
let dataDir: string;
beforeAll(async () => {
  fake = await startFakeOpenAI();
  fake.setMode('slow', { delayMs: 120_000 });
  dataDir = mkdtempSync(join(tmpdir(), 'treeanalyzer-crash-'));
});
afterAll(async () => {
  await fake.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function start(): Promise<ServerProcess> {
  return spawnServer({
    nodeArgs: SERVER_NODE_ARGS,
    cwd: ROOT,
    port: await freePort(),
    env: { DATA_DIR: dataDir, OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'sk-crash-test', OPENAI_MODEL: 'slow-model', OPENAI_TIMEOUT_MS: '300000', LOG_LEVEL: 'warn' },
    timeoutMs: 120_000,
  });
}

/** Registers over HTTP and returns the session cookie and the user's id. */
async function signedIn(server: ServerProcess, db: Db): Promise<{ cookie: string; userId: number }> {
  const account = newAccount();
  const res = await fetch(`${server.url}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: server.url },
    body: JSON.stringify(account),
  });
  expect(res.status).toBe(201);
  const cookie = res.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
  return { cookie, userId: findUserByUsername(db, account.username)!.id };
}

const pending = (db: Db) => (db.$client.prepare('select count(*) from analysis_reservations').pluck().get() as number);

/**
 * Starts an analysis and resolves once it is paid for and waiting on the model. The answer's
 * promise comes back inside an object: an async function returning a promise would wait for it.
 */
async function analysisWaitingOnModel(server: ServerProcess, db: Db, cookie: string): Promise<{ answered: Promise<Response | Error> }> {
  const answered = fetch(`${server.url}/api/analyze-tree`, {
    method: 'POST',
    headers: { cookie, origin: server.url },
    body: analysisForm({ description: 'oak, 14 inch trunk, 35 ft' }),
  }).catch((err: Error) => err);
  // Waits for the state, up to a bound only a broken server reaches (a box under a CPU hog is slow, not stuck).
  for (let i = 0; i < 1200 && pending(db) === 0; i += 1) await new Promise((r) => setTimeout(r, 100));
  expect(pending(db)).toBe(1);
  return { answered };
}

describe('credits survive the server stopping mid-analysis', () => {
  it('kill -9 while the model is thinking: the next start refunds it, the ledger equals the balance, no photo is left', async () => {
    let server = await start(); 
    const db = openDatabase(join(dataDir, 'treeanalyzer.sqlite'));
    try {
      const { cookie, userId } = await signedIn(server, db);
      grantCredits(db, systemClock, userId, 30, 'grant', 'crash-test');
      const { answered } = await analysisWaitingOnModel(server, db, cookie);
      expect(balanceOf(db, userId)).toBe(20);

      server.child.kill('SIGKILL');
      expect(await answered).toBeInstanceOf(Error); // the connection died with the process
      expect(balanceOf(db, userId)).toBe(20); // nothing ran to give it back
      // A process killed between writing the photo and storing the analysis leaves the photo:
      // put it where that would be, so the restart has to remove it.
      const imageName = db.$client.prepare('select image_name from analysis_reservations').pluck().get() as string;
      mkdirSync(uploadsDir(dataDir), { recursive: true });
      writeFileSync(join(uploadsDir(dataDir), imageName), 'a photo written just before the crash');

      server = await start();
      expect(pending(db)).toBe(0);
      expect(balanceOf(db, userId)).toBe(30);
      expect(ledgerSum(db, userId)).toBe(30);
      expect(readdirSafe(uploadsDir(dataDir))).toEqual([]);
      // The log reaches this process through a pipe, in batches: wait for the line, not the moment /healthz answers.
      await vi.waitFor(() => expect(server.output()).toContain('refunded analyses left unfinished by the previous process'), { timeout: 60_000, interval: 100 });
    } finally {
      await server.stop();
      db.$client.close();
    }
  });

  it('SIGTERM while the model is thinking: the call is aborted and refunded before the server exits', async () => {
    const server = await start();
    const db = openDatabase(join(dataDir, 'treeanalyzer.sqlite'));
    try {
      const { cookie, userId } = await signedIn(server, db);
      grantCredits(db, systemClock, userId, 10, 'grant', 'crash-test');
      const { answered } = await analysisWaitingOnModel(server, db, cookie);
      expect(balanceOf(db, userId)).toBe(0);

      const exited = new Promise((resolve) => server.child.once('exit', resolve));
      server.child.kill('SIGTERM');
      const res = await answered;
      // An answer, not a dropped connection. (Not instanceof Response: files share a worker's
      // modules, and the fetch that made it may carry another copy of the class.)
      expect(res).not.toBeInstanceOf(Error);
      expect((res as Response).status).toBe(502);
      expect(((await (res as Response).json()) as { message: string }).message).toMatch(/refunded/i);
      await exited;
      expect(pending(db)).toBe(0);
      expect(balanceOf(db, userId)).toBe(10);
      expect(ledgerSum(db, userId)).toBe(10);
    } finally {
      await server.stop();
      db.$client.close();
    }
  });
});

function readdirSafe(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
