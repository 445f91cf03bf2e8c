import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JOB_LOCKED_MESSAGE, type Job } from '../../core/jobs';
import { QUOTE_LINK_MESSAGES, publicQuoteResponseSchema, type PublicQuote } from '../../core/quote-versions';
import { contentHash } from '../jobs/quote-links';
import { sendDueReminders } from '../jobs/reminders';
import { createLogger } from '../log';
import { quoteVersions } from '../../db/schema';
import { registerClient, startTestServer, type TestClient, type TestServer } from '../../testing/harness';
import { addressedTo, mailSettled, outboxMessages } from '../../testing/mail';
import { jobOf } from '../../testing/jobs';

/*
 * A quote's way over HTTP (docs/product.md, Jobs and quotes): sent by e-mail with a link, opened
 * (the owner told once), answered with evidence, locked once accepted; a changed quote replaces
 * the link before; withdrawn, expired and guessed links each say so.
 */
let server: TestServer;
let owner: TestClient;
let ownerEmail: string;
const CUSTOMER = 'customer@example.com';

beforeAll(async () => {
  server = await startTestServer();
  const registered = await registerClient(server);
  owner = registered.client;
  ownerEmail = registered.account.email;
  await owner.request('PATCH', '/api/system-settings', {
    companyProfile: { tradingName: 'Birch Brothers', phone: '01632 960000', email: 'office@birch.example', address: '1 Yard Lane\nLeeds', vatNumber: '', quoteValidityDays: 30 },
  });
});
afterAll(() => server.close());

/** Every message in the outbox, decoded, oldest first. */
const outbox = (): string[] => outboxMessages(server.dataDir).map((mail) => mail.text);

/** A job of two lines (a tree's work and an optional hedge), sent; its link's token from the e-mail. */
async function sentJob(customer = 'Łukasz Wójcik'): Promise<{ job: Job; token: string }> {
  const job = await jobOf(await owner.post('/api/jobs', { customer: { name: customer, email: CUSTOMER, siteAddress: '12 Elm Road' } }), 201);
  await owner.post(`/api/jobs/${job.id}/lines`, { description: 'Fell the leylandii and grind the stump', price: '600' });
  await owner.post(`/api/jobs/${job.id}/lines`, { description: 'Reduce the beech hedge by 1 m', price: '175', optional: true });
  const before = outbox().length;
  const sent = await jobOf(await owner.post(`/api/jobs/${job.id}/send`, {}));
  await mailSettled(server);
  const mail = outbox().slice(before).find((m) => addressedTo(m, CUSTOMER) && m.includes(sent.reference));
  const token = mail?.match(/\/quote\/([A-Za-z0-9_-]{43})/)?.[1];
  if (!token) throw new Error('no quote link in the e-mail');
  return { job: sent, token };
}

async function open(token: string, status = 200): Promise<PublicQuote> {
  const res = await fetch(`${server.url}/api/quotes/${token}`);
  expect(res.status, await res.clone().text()).toBe(status);
  return publicQuoteResponseSchema.parse(await res.json()).quote;
}

const post = (token: string, action: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${server.url}/api/quotes/${token}/${action}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: server.origin, 'user-agent': 'QuoteTest/1.0', ...headers },
    body: JSON.stringify(body),
  });

describe('sending a quote', () => {
  it('e-mails the customer a link; the job reads sent, with the version and its hash', async () => {
    const { job, token } = await sentJob();
    expect(job.status).toBe('sent');
    expect(job.versions).toHaveLength(1);
    expect(job.versions[0]).toMatchObject({ version: 1, sentTo: CUSTOMER, viewedAt: null, replacedAt: null, revokedAt: null });
    const stored = server.db.select().from(quoteVersions).all().find((v) => v.jobId === job.id)!;
    expect(stored.contentHash).toBe(contentHash(stored.content));
    expect(stored.tokenHash).not.toBe(token);
    expect(JSON.stringify(stored)).not.toContain(token);
  });

  it('needs an e-mail address and something to quote', async () => {
    const empty = await jobOf(await owner.post('/api/jobs', { customer: { name: 'No Items', email: CUSTOMER } }), 201);
    expect((await owner.post(`/api/jobs/${empty.id}/send`, {})).status).toBe(400);
    const noEmail = await jobOf(await owner.post('/api/jobs', { customer: { name: 'No Mail' } }), 201);
    await owner.post(`/api/jobs/${noEmail.id}/lines`, { description: 'Work', price: '10' });
    const res = await owner.post(`/api/jobs/${noEmail.id}/send`, {});
    expect(res.status).toBe(400);
    expect((await res.json()).message).toBe("Add the customer's e-mail address to send the quote.");
    expect((await jobOf(await owner.post(`/api/jobs/${noEmail.id}/send`, { email: 'typed@example.com' }))).versions[0]!.sentTo).toBe('typed@example.com');
  });

  it("another account cannot send, withdraw or read someone else's job", async () => {
    const { job } = await sentJob();
    const { client: other } = await registerClient(server);
    expect((await other.post(`/api/jobs/${job.id}/send`, {})).status).toBe(404);
    expect((await other.post(`/api/jobs/${job.id}/revoke`, {})).status).toBe(404);
  });
});

describe("the customer's link", () => {
  it("shows the customer's copy and tells the owner of the first view only", async () => {
    const { job, token } = await sentJob('Москва Customer');
    const before = outbox().length;
    const quote = await open(token);
    expect(quote).toMatchObject({ reference: job.reference, version: 1, vatMode: 'none', consumer: true, answer: null });
    expect(quote.customer).toEqual({ name: 'Москва Customer', siteAddress: '12 Elm Road' });
    expect(quote.business).toMatchObject({ name: 'Birch Brothers', email: 'office@birch.example' });
    expect(quote.totals.gross).toBe('600.00');
    expect(quote.totalsWithOptional.gross).toBe('775.00');
    expect(quote.terms).toMatch(/^1\. /);
    await open(token);
    await mailSettled(server);
    const news = outbox().slice(before);
    expect(news.filter((m) => addressedTo(m, ownerEmail) && m.includes('opened quote'))).toHaveLength(1);
    expect((await jobOf(await owner.get(`/api/jobs/${job.id}`))).status).toBe('viewed');
  });

  it('accepts with the optional hedge and an early start: evidence kept, both sides e-mailed, the job locked', async () => {
    const { job, token } = await sentJob();
    const hedge = job.items.find((i) => i.optional)!;
    const before = outbox().length;
    const res = await post(token, 'accept', { name: 'Łukasz Wójcik', acceptTerms: true, optionalItemIds: [hedge.id], startWithinCancellationPeriod: true });
    expect(res.status, await res.clone().text()).toBe(200);
    const quote = publicQuoteResponseSchema.parse(await res.json()).quote;
    expect(quote.answer).toMatchObject({ kind: 'accepted', name: 'Łukasz Wójcik', optionalItemIds: [hedge.id], startEarly: true });
    expect(quote.answer!.totals!.gross).toBe('775.00');

    const accepted = await jobOf(await owner.get(`/api/jobs/${job.id}`));
    expect(accepted.status).toBe('accepted');
    expect(accepted.totals.gross).toBe('775.00');
    expect(accepted.acceptance).toMatchObject({ version: 1, name: 'Łukasz Wójcik', optionalItemIds: [hedge.id], startEarly: true, address: '127.0.0.1', userAgent: 'QuoteTest/1.0' });
    expect(accepted.acceptance!.contentHash).toBe(accepted.versions[0]!.contentHash);

    await mailSettled(server);
    const mails = outbox().slice(before);
    const toOwner = mails.find((m) => addressedTo(m, ownerEmail) && m.includes('accepted'));
    expect(toOwner).toContain('£775.00');
    expect(toOwner).toContain('asked for the work to start within their 14-day cancellation period');
    const toCustomer = mails.find((m) => addressedTo(m, CUSTOMER) && m.includes('You accepted quote'));
    expect(toCustomer).toContain('Your right to cancel');
    expect(toCustomer).toContain('Model cancellation form');
    expect(toCustomer).toContain('Reduce the beech hedge by 1 m');

    // Locked: no change, no new version, no second answer.
    const patch = await owner.request('PATCH', `/api/jobs/${job.id}`, { items: [{ id: hedge.id, price: '1' }] });
    expect(patch.status).toBe(409);
    expect((await patch.json()).message).toBe(JOB_LOCKED_MESSAGE);
    expect((await owner.post(`/api/jobs/${job.id}/send`, {})).status).toBe(409);
    expect((await post(token, 'decline', {})).status).toBe(409);
  });

  it('refuses an acceptance without the terms ticked, a name, or with an item that is not optional', async () => {
    const { job, token } = await sentJob();
    const included = job.items.find((i) => !i.optional)!;
    expect((await post(token, 'accept', { name: 'Jo Birch', acceptTerms: false })).status).toBe(400);
    expect((await post(token, 'accept', { name: '', acceptTerms: true })).status).toBe(400);
    expect((await post(token, 'accept', { name: 'Jo Birch', acceptTerms: true, optionalItemIds: [included.id] })).status).toBe(400);
    expect((await open(token)).answer).toBeNull();
  });

  it('declines with a reason, or asks for a change, and the owner hears of it', async () => {
    const declined = await sentJob();
    const before = outbox().length;
    expect((await post(declined.token, 'decline', { reason: 'Too dear' })).status).toBe(200);
    expect((await jobOf(await owner.get(`/api/jobs/${declined.job.id}`))).status).toBe('declined');

    const changed = await sentJob();
    expect((await post(changed.token, 'changes', { message: 'Can you leave the logs?' })).status).toBe(200);
    const job = await jobOf(await owner.get(`/api/jobs/${changed.job.id}`));
    expect(job.status).toBe('changes_requested');
    expect(job.versions[0]!.answers[0]).toMatchObject({ kind: 'changes_requested', message: 'Can you leave the logs?' });
    // A change asked for leaves the quote open: the customer may still accept it.
    expect((await open(changed.token)).answer).toBeNull();
    await mailSettled(server);
    const mails = outbox().slice(before);
    expect(mails.some((m) => m.includes('has declined quote') && m.includes('Too dear'))).toBe(true);
    expect(mails.some((m) => m.includes('asks for a change') && m.includes('Can you leave the logs?'))).toBe(true);
  });
});

describe('links that no longer open the quote', () => {
  it('a changed quote sent again replaces the link before, which says so and shows nothing', async () => {
    const { job, token } = await sentJob();
    await owner.request('PATCH', `/api/jobs/${job.id}`, { items: [{ id: job.items[0]!.id, price: '650' }] });
    const before = outbox().length;
    const resent = await jobOf(await owner.post(`/api/jobs/${job.id}/send`, {}));
    expect(resent.versions.map((v) => v.version)).toEqual([2, 1]);
    expect(resent.versions[1]!.replacedAt).not.toBeNull();
    const old = await fetch(`${server.url}/api/quotes/${token}`);
    expect(old.status).toBe(410);
    expect(await old.json()).toEqual({ message: QUOTE_LINK_MESSAGES.replaced, code: 'QUOTE_GONE' });
    await mailSettled(server);
    const newToken = outbox().slice(before).join('\n').match(/\/quote\/([A-Za-z0-9_-]{43})/)![1]!;
    expect((await open(newToken)).items[0]!.price).toBe('650.00');
    expect((await post(token, 'accept', { name: 'Too Late', acceptTerms: true })).status).toBe(410);
  });

  it('a withdrawn link, an expired one and a guessed one each say so', async () => {
    const withdrawn = await sentJob();
    expect((await jobOf(await owner.post(`/api/jobs/${withdrawn.job.id}/revoke`, {}))).status).toBe('draft');
    const res = await fetch(`${server.url}/api/quotes/${withdrawn.token}`);
    expect(res.status).toBe(410);
    expect((await res.json()).message).toBe(QUOTE_LINK_MESSAGES.revoked);

    const expiring = await sentJob();
    server.clock.advance(32 * 24 * 60 * 60 * 1000);
    try {
      const late = await fetch(`${server.url}/api/quotes/${expiring.token}`);
      expect(late.status).toBe(410);
      expect((await late.json()).message).toBe(QUOTE_LINK_MESSAGES.expired);
    } finally {
      server.clock.advance(-32 * 24 * 60 * 60 * 1000);
    }

    for (const guess of ['A'.repeat(43), expiring.token.slice(0, -1) + (expiring.token.endsWith('A') ? 'B' : 'A'), 'x'.repeat(500)]) {
      const wrong = await fetch(`${server.url}/api/quotes/${guess}`);
      expect(wrong.status).toBe(404);
      expect(await wrong.json()).toEqual({ message: QUOTE_LINK_MESSAGES.unknown, code: 'NOT_FOUND' });
    }
  });
});

describe('what the customer never sees', () => {
  it("has no estimator's working in the customer's copy", async () => {
    const { token } = await sentJob();
    const text = JSON.stringify(await open(token));
    for (const word of ['confidence', 'Unknown', 'density', 'LOLER', 'certified arborist', 'userId', 'imagePath']) {
      expect(text).not.toContain(word);
    }
  });
});

describe('the one reminder', () => {
  const DAY = 24 * 60 * 60 * 1000;
  const remind = () => sendDueReminders({ db: server.db, clock: server.clock, mailer: server.mailer, config: server.config, photos: server.photos, logger: createLogger({ destination: { write: () => undefined } }) });
  const reminders = (reference: string) => outbox().filter((m) => addressedTo(m, CUSTOMER) && m.includes('Reminder: your quote') && m.includes(reference));

  it('goes once, after the days set, with a link of its own to the same quote', async () => {
    const { job, token } = await sentJob();
    remind();
    server.clock.advance(4 * DAY);
    try {
      remind();
      await mailSettled(server);
      expect(reminders(job.reference)).toHaveLength(0);
      server.clock.advance(1 * DAY + 60_000);
      remind();
      remind();
      await mailSettled(server);
      const sent = reminders(job.reference);
      expect(sent).toHaveLength(1);
      const reminderToken = sent[0]!.match(/\/quote\/([A-Za-z0-9_-]{43})/)![1]!;
      expect(reminderToken).not.toBe(token);
      expect((await open(reminderToken)).reference).toBe(job.reference);
      expect((await open(token)).reference).toBe(job.reference);
      server.clock.advance(10 * DAY);
      remind();
      await mailSettled(server);
      expect(reminders(job.reference)).toHaveLength(1);
    } finally {
      server.clock.advance(-(16 * DAY + 60_000));
    }
  });

  it('never after an answer, and never when the surgeon turned reminders off', async () => {
    const SIX_DAYS = 6 * 24 * 60 * 60 * 1000;
    const answered = await sentJob();
    expect((await post(answered.token, 'changes', { message: 'Later please' })).status).toBe(200);
    server.clock.advance(SIX_DAYS);
    try {
      remind();
      await mailSettled(server);
      expect(reminders(answered.job.reference)).toHaveLength(0);
    } finally {
      server.clock.advance(-SIX_DAYS);
    }

    expect((await owner.request('PATCH', '/api/system-settings', { quoteReminderDays: 0 })).status).toBe(200);
    const off = await sentJob();
    server.clock.advance(SIX_DAYS);
    try {
      remind();
      await mailSettled(server);
      expect(reminders(off.job.reference)).toHaveLength(0);
    } finally {
      server.clock.advance(-SIX_DAYS);
      await owner.request('PATCH', '/api/system-settings', { quoteReminderDays: 5 });
    }
    expect((await owner.request('PATCH', '/api/system-settings', { quoteReminderDays: 61 })).status).toBe(400);
  });
});
