import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobResponseSchema } from '../../core/jobs';
import { outboxListSchema } from '../../core/mail-outbox';
import { openDatabase, type Db } from '../../db/client';
import { freePort, spawnServer, type ServerProcess } from '../../build/server-process';
import { newAccount, TestClient } from '../../testing/harness';
import { SERVER_NODE_ARGS } from '../../testing/processes';
import { BIRCH_PROFILE } from '../../testing/quote-links';
import { startTestSmtpServer, type TestSmtpServer } from '../../testing/smtp-server';

/*
 * No e-mail is lost (docs/product.md, E-mail that cannot be lost): the built server in its own
 * process, as an operator runs it, sending quotes through a real SMTP server on loopback that
 * first refuses (451) for a while, then takes two messages and hangs on the third, when the
 * process is killed (SIGKILL: nothing of it runs). The next start sends what was waiting, and the
 * message cut off mid-conversation once its claim has run out: every message arrives once.
 * The outbox's waits are configured short (MAIL_RETRY_FIRST_MS, MAIL_SEND_TIMEOUT_MS); the test
 * waits for states, never for a time.
 */
const ROOT = new URL('../../', import.meta.url).pathname;
const QUOTES = 6;
let smtp: TestSmtpServer;
let dataDir: string;
let db: Db;
let running: ServerProcess | undefined;

beforeAll(async () => {
  smtp = await startTestSmtpServer();
  dataDir = mkdtempSync(join(tmpdir(), 'treeanalyzer-outbox-'));
});
afterAll(async () => {
  await running?.stop();
  db?.$client.close();
  await smtp.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function start(): Promise<ServerProcess> {
  return spawnServer({
    nodeArgs: SERVER_NODE_ARGS,
    cwd: ROOT,
    port: await freePort(),
    env: { DATA_DIR: dataDir, SMTP_URL: smtp.url, MAIL_FROM: 'Trees <no-reply@trees.test>', MAIL_RETRY_FIRST_MS: '200', MAIL_SEND_TIMEOUT_MS: '400', LOG_LEVEL: 'warn' },
    timeoutMs: 120_000,
  });
}

/** Waits for `state`, up to a bound only a broken server reaches (a box under a CPU hog is slow, not stuck). */
async function until(what: string, state: () => boolean): Promise<void> {
  for (let i = 0; i < 1200 && !state(); i += 1) await new Promise((resolve) => setTimeout(resolve, 100));
  expect(state(), what).toBe(true);
}

const rows = () => db.$client.prepare('select message_id as messageId, status, tries from mail_outbox order by id').all() as { messageId: string; status: string; tries: number }[];

describe('the outbox across a kill -9', () => {
  it('delivers every message once: refused for a while, the process killed mid-conversation, then started again', async () => {
    smtp.setMode('refuse');
    running = await start();
    db = openDatabase(join(dataDir, 'treeanalyzer.sqlite'));
    const owner = new TestClient({ url: running.url, origin: running.url });
    expect((await owner.post('/api/auth/register', newAccount())).status).toBe(201);
    expect((await owner.request('PATCH', '/api/system-settings', { companyProfile: BIRCH_PROFILE })).status).toBe(200);
    for (let n = 1; n <= QUOTES; n += 1) {
      const made = await owner.post('/api/jobs', { customer: { name: `Customer ${n}`, email: `customer${n}@example.com`, siteAddress: '1 Elm Road\nLeeds' } });
      const { id } = jobResponseSchema.parse(await made.json()).job;
      expect((await owner.post(`/api/jobs/${id}/lines`, { description: 'Fell the ash', price: '500' })).status).toBe(201);
      expect((await owner.post(`/api/jobs/${id}/send`, {})).status).toBe(200);
    }
    // Refused for a while: every message tried and refused at least twice, none taken.
    await until('every message refused twice', () => rows().length === QUOTES && rows().every((row) => row.status === 'queued' && row.tries >= 2));
    expect(smtp.received).toHaveLength(0);

    // The server takes two, hangs on the third; the process is killed while it waits for the answer.
    smtp.acceptThen(2, 'hold');
    await until('two taken and one held', () => smtp.received.length === 2 && smtp.held() === 1);
    running.child.kill('SIGKILL');
    await new Promise((resolve) => running!.child.once('exit', resolve));
    running = undefined;
    const left = rows();
    expect(left.filter((row) => row.status === 'sent')).toHaveLength(2);
    expect(left.filter((row) => row.status === 'sending')).toHaveLength(1);

    // Started again: what was waiting goes, and the one cut off once its claim runs out.
    smtp.setMode('accept');
    running = await start();
    await until('every message sent', () => rows().every((row) => row.status === 'sent'));

    const sentIds = rows().map((row) => row.messageId);
    expect(new Set(sentIds).size).toBe(QUOTES);
    expect(smtp.received.map((mail) => mail.messageId).sort()).toEqual([...sentIds].sort());
    for (let n = 1; n <= QUOTES; n += 1) expect(smtp.received.filter((mail) => mail.to.includes(`customer${n}@example.com`))).toHaveLength(1);
    // The owner's Settings, on the new process with the same session, has nothing left to show.
    const again = new TestClient({ url: running.url, origin: running.url });
    again.cookies = owner.cookies;
    const listed = await again.get('/api/mail-outbox');
    expect(listed.status).toBe(200);
    expect(outboxListSchema.parse(await listed.json()).mails).toEqual([]);
  });
});
