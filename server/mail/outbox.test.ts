import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAIL_GIVE_UP_AFTER_MS, outboxListSchema, outboxMailSchema, type OutboxMail } from '../../core/mail-outbox';
import { jobResponseSchema } from '../../core/jobs';
import { immediate } from '../../db/client';
import { mailOutbox } from '../../db/schema';
import { setRole } from '../accounts/users';
import { createLogger } from '../log';
import { queueMail } from './outbox';
import { startMailWorker } from './outbox-worker';
import { createSmtpMailer } from './smtp-mailer';
import { registerClient, startTestServer, TestClient, type TestServer } from '../../testing/harness';
import { mailSettled } from '../../testing/mail';
import { ownerWithProfile } from '../../testing/quote-links';
import { startTestSmtpServer, type TestSmtpServer } from '../../testing/smtp-server';

/*
 * The outbox (docs/product.md, E-mail that cannot be lost) over a real SMTP conversation: the app
 * sends through nodemailer to a mail server on loopback that the test makes refuse (451), take,
 * or hang. Time is the test's clock: each try falls due as the clock reaches it.
 */
const MAIL_FROM = 'Trees <no-reply@trees.test>';
let smtp: TestSmtpServer;
let server: TestServer;
let owner: TestClient;

beforeAll(async () => {
  smtp = await startTestSmtpServer();
  server = await startTestServer({ SMTP_URL: smtp.url, MAIL_FROM });
  owner = (await ownerWithProfile(server)).client;
});
afterAll(async () => {
  await server.close();
  await smtp.close();
});

let customers = 0;
/** A job of one line sent to a new customer: its quote e-mail is written to the outbox. */
async function sendQuote(client = owner): Promise<{ reference: string; to: string }> {
  customers += 1;
  const to = `customer${customers}@example.com`;
  const made = await client.post('/api/jobs', { customer: { name: `Customer ${customers}`, email: to, siteAddress: '1 Elm Road\nLeeds' } });
  expect(made.status).toBe(201);
  const { id } = jobResponseSchema.parse(await made.json()).job;
  expect((await client.post(`/api/jobs/${id}/lines`, { description: 'Fell the ash', price: '500' })).status).toBe(201);
  const sent = await client.post(`/api/jobs/${id}/send`, {});
  // The answer does not wait for the mail server, refusing or not.
  expect(sent.status).toBe(200);
  return { reference: jobResponseSchema.parse(await sent.json()).job.reference, to };
}

async function undelivered(client: TestClient): Promise<OutboxMail[]> {
  const res = await client.get('/api/mail-outbox');
  expect(res.status).toBe(200);
  return outboxListSchema.parse(await res.json()).mails;
}

const rowFor = (to: string) => server.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, to)).get()!;
const arrivedTo = (to: string) => smtp.received.filter((mail) => mail.to.includes(to));

describe('a mail server refusing', () => {
  it('keeps the message, tries again after growing waits, and delivers it once when the server takes it', async () => {
    smtp.setMode('refuse');
    const refusedBefore = smtp.refusals();
    const { reference, to } = await sendQuote();
    await mailSettled(server);
    expect(smtp.refusals() - refusedBefore).toBe(1);

    const [waiting] = await undelivered(owner);
    expect(waiting).toMatchObject({ to, state: 'waiting', tries: 1, lastError: 'The mail server asked to try later: 451 Mailbox busy, try again later' });
    expect(waiting!.subject).toContain(reference);
    expect(new Date(waiting!.nextTryAt!).getTime() - server.clock.now().getTime()).toBe(60_000);

    // Not before its time.
    server.clock.advance(30_000);
    await mailSettled(server);
    expect(smtp.refusals() - refusedBefore).toBe(1);
    server.clock.advance(30_000);
    await mailSettled(server);
    expect(smtp.refusals() - refusedBefore).toBe(2);
    // The wait doubles.
    expect(new Date((await undelivered(owner))[0]!.nextTryAt!).getTime() - server.clock.now().getTime()).toBe(120_000);

    smtp.setMode('accept');
    server.clock.advance(120_000);
    await mailSettled(server);
    const arrived = arrivedTo(to);
    expect(arrived).toHaveLength(1);
    expect(arrived[0]!.subject).toContain(reference);
    expect(arrived[0]!.text).toContain('application/pdf');
    // The Message-ID written with the row is the one that went.
    const row = rowFor(to);
    expect(arrived[0]!.messageId).toBe(row.messageId);
    expect(row.messageId).toMatch(/^<[0-9a-f-]{36}@trees\.test>$/);
    expect(row).toMatchObject({ status: 'sent', tries: 3, message: null });
    expect(await undelivered(owner)).toEqual([]);
  });

  it('gives a message up after 48 hours; Settings says why, and "Send again" delivers it once, to its own account only', async () => {
    smtp.setMode('refuse');
    const { to } = await sendQuote();
    const written = server.clock.now().getTime();
    await mailSettled(server);
    // Each try as the clock reaches it, until the row is given up.
    for (let i = 0; i < 100 && rowFor(to).status === 'queued'; i += 1) {
      server.clock.advance(rowFor(to).nextTryAt.getTime() - server.clock.now().getTime());
      await mailSettled(server);
    }
    const given = rowFor(to);
    expect(given.status).toBe('failed');
    expect(server.clock.now().getTime() - written).toBeGreaterThanOrEqual(MAIL_GIVE_UP_AFTER_MS);
    expect(given.tries).toBeGreaterThan(10);
    const [shown] = await undelivered(owner);
    expect(shown).toMatchObject({ id: given.id, to, state: 'failed', tries: given.tries, nextTryAt: null });
    expect(shown!.lastError).toContain('451');
    expect(arrivedTo(to)).toHaveLength(0);

    // Another account neither sees it nor sends it.
    const { client: stranger } = await registerClient(server);
    expect(await undelivered(stranger)).toEqual([]);
    expect((await stranger.post(`/api/mail-outbox/${given.id}/retry`)).status).toBe(404);
    // Ids only as the route takes them; a number past any row is not found.
    expect((await owner.post('/api/mail-outbox/99999999999999999999/retry')).status).toBe(404);
    expect((await owner.post(`/api/mail-outbox/${given.id}x/retry`)).status).toBe(404);

    smtp.setMode('accept');
    const again = await owner.post(`/api/mail-outbox/${given.id}/retry`);
    expect(again.status).toBe(200);
    expect(outboxMailSchema.parse(((await again.json()) as { mail: unknown }).mail)).toMatchObject({ state: 'waiting', tries: 0 });
    await mailSettled(server);
    expect(arrivedTo(to)).toHaveLength(1);
    expect(await undelivered(owner)).toEqual([]);
    // Sent: nothing left to send again.
    expect((await owner.post(`/api/mail-outbox/${given.id}/retry`)).status).toBe(404);
  });

  it("shows an admin the install's own mail, and a user only theirs", async () => {
    smtp.setMode('refuse');
    const admin = await registerClient(server);
    setRole(server.db, server.clock, admin.account.username, 'admin');
    queueMail(server, { to: 'operator@trees.test', subject: 'Install notice', text: 'Hello' }, { label: 'install notice', userId: null });
    await mailSettled(server);
    expect((await undelivered(admin.client)).map((mail) => mail.subject)).toEqual(['Install notice']);
    const { client: user } = await registerClient(server);
    expect(await undelivered(user)).toEqual([]);
    smtp.setMode('accept');
    server.clock.advance(60_000);
    await mailSettled(server);
    expect(arrivedTo('operator@trees.test')).toHaveLength(1);
  });
});

describe('written with the change', () => {
  it('a message written in a transaction that rolls back is never made or sent', async () => {
    smtp.setMode('accept');
    let made = false;
    expect(() =>
      immediate(server.db, () => {
        queueMail(server, { to: 'rolled@example.com', subject: 'Never', text: 'Never' }, { label: 'rolled back', userId: null, attach: () => ((made = true), Promise.resolve([])) });
        throw new Error('the change failed');
      }),
    ).toThrow('the change failed');
    await mailSettled(server);
    expect(made).toBe(false);
    expect(arrivedTo('rolled@example.com')).toHaveLength(0);
    expect(server.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, 'rolled@example.com')).all()).toEqual([]);
  });
});

describe('exactly once', () => {
  it('two workers on one database send each message once', async () => {
    smtp.setMode('refuse');
    const sent = [await sendQuote(), await sendQuote(), await sendQuote(), await sendQuote()];
    await mailSettled(server);
    const logger = createLogger({ destination: { write: () => undefined } });
    const second = startMailWorker({ db: server.db, clock: server.clock, mailer: createSmtpMailer(smtp.url, MAIL_FROM), logger, config: server.config });
    try {
      smtp.setMode('accept');
      server.clock.advance(60_000);
      await Promise.all([mailSettled(server), second.settled(), mailSettled(server), second.settled()]);
    } finally {
      await second.stop();
    }
    for (const { to } of sent) expect(arrivedTo(to)).toHaveLength(1);
  });

  it('a message claimed by a process that stopped mid-send is sent once its claim runs out, not before', async () => {
    smtp.setMode('refuse');
    const { to } = await sendQuote();
    await mailSettled(server);
    // As a process killed in the middle of the SMTP conversation leaves it (outbox.process.test.ts does it for real).
    const leaseMs = 5 * server.config.mail.sendTimeoutMs;
    server.db
      .update(mailOutbox)
      .set({ status: 'sending', claim: 'a-stopped-process', claimedUntil: new Date(server.clock.now().getTime() + leaseMs) })
      .where(eq(mailOutbox.id, rowFor(to).id))
      .run();
    smtp.setMode('accept');
    server.clock.advance(leaseMs - 1);
    await mailSettled(server);
    expect(arrivedTo(to)).toHaveLength(0);
    server.clock.advance(1);
    await mailSettled(server);
    expect(arrivedTo(to)).toHaveLength(1);
    expect(rowFor(to).status).toBe('sent');
  });
});
