import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JOB_CANCELLED_MESSAGE, type Job } from '../../core/jobs';
import { QUOTE_CANCEL_MESSAGES, publicQuoteResponseSchema, type PublicQuote } from '../../core/quote-versions';
import { expireQuotes } from '../jobs/quote-links';
import { advanceKeepingSession, registerClient, startTestServer, type TestClient, type TestServer } from '../../testing/harness';
import { jobOf } from '../../testing/jobs';
import { ownerWithProfile, sentLinesJob } from '../../testing/quote-links';
import { addressedTo, mailSettled, outboxMessages } from '../../testing/mail';

/*
 * Every quote ends in a state the surgeon sees (docs/product.md, Jobs and quotes): a consumer
 * cancels an accepted agreement online within 14 days, or the surgeon records one told another
 * way, with evidence kept and both sides e-mailed; after the 14 days the online way is closed and
 * says why; a quote past its validity reads expired and can be sent again. Replies reach a
 * person: mail to the customer is from the business with Reply-To its e-mail, mail to the owner
 * about a customer has Reply-To the customer.
 */
let server: TestServer;
let owner: TestClient;
let ownerEmail: string;
const CUSTOMER = 'jo.rowan@example.com';
const DAY = 24 * 3600_000;

beforeAll(async () => {
  server = await startTestServer();
  const registered = await ownerWithProfile(server);
  owner = registered.client;
  ownerEmail = registered.account.email;
});
afterAll(() => server.close());

const outbox = () => outboxMessages(server.dataDir).map((mail) => mail.text);

/** The one new message to `to` whose subject matches, after `before` messages. */
function mailTo(before: number, to: string, subject: RegExp): string {
  const found = outbox()
    .slice(before)
    .filter((m) => addressedTo(m, to) && subject.test(/^Subject: (.*)$/m.exec(m)?.[1] ?? ''));
  expect(found, `one e-mail to ${to} with subject ${subject}`).toHaveLength(1);
  return found[0]!;
}
const header = (mail: string, name: string) => new RegExp(`^${name}: (.*)$`, 'm').exec(mail)?.[1];

const sentJob = (name = 'Jo Rowan') => sentLinesJob(server, owner, { name, email: CUSTOMER, siteAddress: '12 Elm Road, Leeds LS6 2AB' }, [{ description: 'Fell the leylandii', price: '600' }]);

const post = (token: string, action: string, body: unknown) =>
  fetch(`${server.url}/api/quotes/${token}/${action}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: server.origin, 'user-agent': 'CancelTest/1.0' },
    body: JSON.stringify(body),
  });
const accept = (token: string) => post(token, 'accept', { name: 'Jo Rowan', acceptTerms: true });
const cancel = (token: string, name = 'Jo Rowan') => post(token, 'cancel', { name, confirm: true });
const getJob = async (id: number) => jobOf(await owner.get(`/api/jobs/${id}`));

async function copyOf(res: Response, status = 200): Promise<PublicQuote> {
  expect(res.status, await res.clone().text()).toBe(status);
  return publicQuoteResponseSchema.parse(await res.json()).quote;
}

describe('replies reach a person', () => {
  it("the quote e-mail is from the business with Reply-To its e-mail; the owner's news has Reply-To the customer", async () => {
    const before = outbox().length;
    const { token } = await sentJob();
    const link = mailTo(before, CUSTOMER, /^Your quote from Birch Brothers/);
    expect(header(link, 'From')).toMatch(/^"?Birch Brothers"? <no-reply@treeanalyzer\.local>$/);
    expect(header(link, 'Reply-To')).toBe('office@birch.example');

    const accepted = outbox().length;
    await copyOf(await accept(token));
    await mailSettled(server);
    const news = mailTo(accepted, ownerEmail, /accepted by Jo Rowan/);
    expect(header(news, 'Reply-To')).toBe(CUSTOMER);
    const confirmation = mailTo(accepted, CUSTOMER, /^You accepted quote/);
    expect(header(confirmation, 'Reply-To')).toBe('office@birch.example');
    // The model form is filled in with the service, the day, the name and the address.
    expect(confirmation).toMatch(/following service: tree work, quote Q-\d{6} \(Fell the leylandii\)/);
    expect(confirmation).toMatch(/Accepted on: \d{1,2} \w+ 2026/);
    expect(confirmation).toContain('Name of consumer(s): Jo Rowan');
    expect(confirmation).toContain('Address of consumer(s): 12 Elm Road, Leeds LS6 2AB');
  });

  it("without a profile e-mail, replies go to the account's own e-mail", async () => {
    const { client, account } = await registerClient(server);
    await client.request('PATCH', '/api/system-settings', { companyProfile: { tradingName: 'Solo Trees', phone: '', email: '', address: '', vatNumber: '', quoteValidityDays: 30 } });
    const job = await jobOf(await client.post('/api/jobs', { customer: { name: 'Pat Yew', email: 'pat@example.com' } }), 201);
    await client.post(`/api/jobs/${job.id}/lines`, { description: 'Hedge', price: '90' });
    const before = outbox().length;
    expect((await client.post(`/api/jobs/${job.id}/send`, {})).status).toBe(200);
    await mailSettled(server);
    expect(header(mailTo(before, 'pat@example.com', /^Your quote from Solo Trees/), 'Reply-To')).toBe(account.email);
  });
});

describe('cancelling online', () => {
  it('within 14 days: cancelled with its evidence, both sides e-mailed, the job locked and showing it', async () => {
    const { job, token } = await sentJob();
    await copyOf(await accept(token));
    const before = outbox().length;
    server.clock.advance(10 * DAY);
    const copy = await copyOf(await cancel(token));
    expect(copy.answer?.cancellation).toMatchObject({ via: 'online', name: 'Jo Rowan' });
    expect(copy.answer?.canCancel).toBe(false);

    const after = await getJob(job.id);
    expect(after.status).toBe('cancelled');
    expect(after.cancellation).toMatchObject({ via: 'online', name: 'Jo Rowan', withinPeriod: true, address: '127.0.0.1', userAgent: 'CancelTest/1.0', contentHash: after.acceptance!.contentHash });

    await mailSettled(server);
    const customer = mailTo(before, CUSTOMER, /^Cancelled: quote/);
    expect(header(customer, 'From')).toMatch(/Birch Brothers/);
    expect(header(customer, 'Reply-To')).toBe('office@birch.example');
    const toOwner = mailTo(before, ownerEmail, /cancelled by Jo Rowan/);
    expect(header(toOwner, 'Reply-To')).toBe(CUSTOMER);
    expect(toOwner).toContain('you must refund any payment you have received for this job within 14 days');

    // A second cancel, and any change, are refused with a sentence.
    const again = await cancel(token);
    expect(again.status).toBe(409);
    expect(((await again.json()) as { message: string }).message).toBe(QUOTE_CANCEL_MESSAGES.alreadyCancelled);
    const patch = await owner.request('PATCH', `/api/jobs/${job.id}`, { customer: { name: 'Someone Else' } });
    expect(patch.status).toBe(409);
    expect(((await patch.json()) as { message: string }).message).toBe(JOB_CANCELLED_MESSAGE);
    expect((await owner.post(`/api/jobs/${job.id}/book`, { date: '2026-07-01' })).status).toBe(409);
  });

  it('is refused with a sentence for a quote not accepted (409), and after the 14 days (410) says until when it was open', async () => {
    const open = await sentJob();
    const refused = await cancel(open.token);
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { message: string }).message).toBe(QUOTE_CANCEL_MESSAGES.notAccepted);

    const { job, token } = await sentJob();
    const accepted = await copyOf(await accept(token));
    expect(accepted.answer?.canCancel).toBe(true);
    const lastDay = accepted.answer!.cancellableUntil!;
    server.clock.advance(15 * DAY);
    const late = await cancel(token);
    expect(late.status).toBe(410);
    const body = (await late.json()) as { message: string; code: string };
    expect(body.code).toBe('QUOTE_GONE');
    expect(body.message).toMatch(/^The 14-day cancellation period ended on \w+day \d{1,2} \w+ 2026/);
    expect(lastDay).toMatch(/^2026-\d{2}-\d{2}$/);
    expect((await copyOf(await fetch(`${server.url}/api/quotes/${token}`))).answer?.canCancel).toBe(false);
    expect((await getJob(job.id)).status).toBe('accepted');
  });

  it('is refused once the work is done (409)', async () => {
    const { job, token } = await sentJob();
    await copyOf(await accept(token));
    expect((await owner.post(`/api/jobs/${job.id}/done`, { actuals: [] })).status).toBe(200);
    const res = await cancel(token);
    expect(res.status).toBe(409);
    expect(((await res.json()) as { message: string }).message).toBe(QUOTE_CANCEL_MESSAGES.done);
  });
});

describe('a cancellation the surgeon records', () => {
  it('takes the day they were told and how, keeps it, and e-mails both sides', async () => {
    const { job, token } = await sentJob();
    await copyOf(await accept(token));
    server.clock.advance(3 * DAY);
    const today = new Date(server.clock.now()).toISOString().slice(0, 10);
    const before = outbox().length;
    const cancelled = await jobOf(await owner.post(`/api/jobs/${job.id}/cancel`, { receivedOn: today, via: 'phone', note: 'Rang the office at 9' }));
    expect(cancelled.status).toBe('cancelled');
    expect(cancelled.cancellation).toMatchObject({ via: 'phone', receivedOn: today, note: 'Rang the office at 9', withinPeriod: true, name: null });
    await mailSettled(server);
    expect(mailTo(before, CUSTOMER, /^Cancelled: quote/)).toContain('by phone');
    expect(mailTo(before, ownerEmail, /cancelled by Jo Rowan/)).toContain('recorded by you');
    // The customer's link shows it too.
    expect((await copyOf(await fetch(`${server.url}/api/quotes/${token}`))).answer?.cancellation?.via).toBe('phone');
  });

  it('refuses a day before the acceptance or in the future (400), a job not accepted (409), and another account\'s job (404)', async () => {
    const { job, token } = await sentJob();
    expect((await owner.post(`/api/jobs/${job.id}/cancel`, { receivedOn: '2026-01-01', via: 'email' })).status).toBe(409);
    await copyOf(await accept(token));
    expect((await owner.post(`/api/jobs/${job.id}/cancel`, { receivedOn: '2020-01-01', via: 'email' })).status).toBe(400);
    expect((await owner.post(`/api/jobs/${job.id}/cancel`, { receivedOn: '2099-01-01', via: 'email' })).status).toBe(400);
    expect((await owner.post(`/api/jobs/${job.id}/cancel`, { receivedOn: 'soon', via: 'email' })).status).toBe(400);
    expect((await owner.post(`/api/jobs/${job.id}/cancel`, { receivedOn: '2026-06-01', via: 'online' })).status).toBe(400);
    const { client: stranger } = await registerClient(server);
    expect((await stranger.post(`/api/jobs/${job.id}/cancel`, { receivedOn: '2026-06-01', via: 'email' })).status).toBe(404);
    expect((await getJob(job.id)).status).toBe('accepted');
  });

  it('after the 14 days is kept as one the surgeon agreed to, without the refund duty', async () => {
    const { job, token } = await sentJob();
    await copyOf(await accept(token));
    server.clock.advance(20 * DAY);
    const today = new Date(server.clock.now()).toISOString().slice(0, 10);
    const before = outbox().length;
    const cancelled = await jobOf(await owner.post(`/api/jobs/${job.id}/cancel`, { receivedOn: today, via: 'letter' }));
    expect(cancelled.cancellation?.withinPeriod).toBe(false);
    await mailSettled(server);
    expect(mailTo(before, ownerEmail, /cancelled by/)).toContain('after their 14-day cancellation period');
  });
});

describe('expired quotes', () => {
  it('read expired once past their validity, are counted, and can be sent again as a new version', async () => {
    // Quotes of the tests before, whose validity the clock has already passed.
    expireQuotes(server.db, server.clock.now());
    const { job } = await sentJob();
    const answered = await sentJob();
    await copyOf(await accept(answered.token));
    expect(expireQuotes(server.db, server.clock.now())).toBe(0);
    await advanceKeepingSession(server, owner, 31);
    expect(expireQuotes(server.db, server.clock.now())).toBeGreaterThanOrEqual(1);
    expect((await getJob(job.id)).status).toBe('expired');
    expect((await getJob(answered.job.id)).status).toBe('accepted');
    const summary = (await (await owner.get('/api/jobs/summary')).json()) as { summary: { counts: Record<string, number> } };
    expect(summary.summary.counts.expired).toBeGreaterThanOrEqual(1);
    const listed = (await (await owner.get('/api/jobs?status=expired')).json()) as { jobs: Job[] };
    expect(listed.jobs.map((j) => j.id)).toContain(job.id);

    const resent = await jobOf(await owner.post(`/api/jobs/${job.id}/send`, {}));
    expect(resent.status).toBe('sent');
    expect(resent.versions.map((v) => v.version)).toEqual([2, 1]);
  });
});
