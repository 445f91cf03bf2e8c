import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EARLY_START_MESSAGES, EARLY_START_REQUEST_WORDS } from '../../core/cancellation-period';
import { addDays, ukToday } from '../../core/job-booking';
import { errorBodySchema } from '../../core/errors';
import type { Job } from '../../core/jobs';
import { publicQuoteResponseSchema } from '../../core/quote-versions';
import { RateLimits } from '../http/rate-limit';
import { registerClient, startTestServer, type TestClient, type TestServer } from '../../testing/harness';
import { jobOf } from '../../testing/jobs';
import { addressedTo, mailSettled, outboxMessages } from '../../testing/mail';
import { ownerWithProfile, sentLinesJob } from '../../testing/quote-links';

/*
 * The cancellation period is kept (docs/product.md, Jobs and quotes: the cancellation period and
 * early starts). A consumer who accepted on Monday 1 June 2026 (the test clock's day) may cancel
 * until Monday 15 June; work is booked from Tuesday 16 June unless they ask to start early: by
 * the tick when accepting, or on their quote page once the surgeon asks them by e-mail.
 */
let server: TestServer;
let owner: TestClient;
let ownerEmail: string;

const LAST_DAY = '2026-06-15';
const FIRST_DAY = '2026-06-16';
const PERIOD_SENTENCE =
  "The customer's 14-day cancellation period ends on Monday 15 June 2026; book from Tuesday 16 June 2026, or ask the customer whether they want the work to start sooner.";

beforeAll(async () => {
  server = await startTestServer({}, { rateLimits: new RateLimits({ quoteLinksPerAddress: { points: 10_000, windowSeconds: 600 } }) });
  const registered = await ownerWithProfile(server);
  owner = registered.client;
  ownerEmail = registered.account.email;
});
afterAll(() => server.close());

let customers = 0;

/** A consumer's one-line job, sent and accepted by its link (with the early-start tick or not); its id, token and customer address. */
async function acceptedJob(startEarly = false): Promise<{ job: Job; token: string; email: string }> {
  customers += 1;
  const email = `customer${customers}@example.com`;
  const { job, token } = await sentLinesJob(server, owner, { name: 'Jo Rowan', email, siteAddress: '12 Elm Road, Leeds LS6 2AB' }, [{ description: 'Fell the leylandii', price: '600' }]);
  const res = await fetch(`${server.url}/api/quotes/${token}/accept`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: server.origin },
    body: JSON.stringify({ name: 'Jo Rowan', acceptTerms: true, startWithinCancellationPeriod: startEarly }),
  });
  expect(res.status, await res.clone().text()).toBe(200);
  await mailSettled(server);
  return { job, token, email };
}

async function book(jobId: number, date: string, client = owner): Promise<Response> {
  const res = await client.post(`/api/jobs/${jobId}/book`, { date });
  await mailSettled(server);
  return res;
}

async function askEarlyStart(jobId: number, client = owner): Promise<Response> {
  const res = await client.post(`/api/jobs/${jobId}/ask-early-start`);
  await mailSettled(server);
  return res;
}

/** The test clock's UK day (tests below move the clock; each reads its own dates from it). */
const today = () => ukToday(server.clock.now());

const getJob = async (id: number) => jobOf(await owner.get(`/api/jobs/${id}`));

/** The newest e-mail to `to` whose subject matches. */
function mailTo(to: string, subject: RegExp): string {
  const found = outboxMessages(server.dataDir)
    .reverse()
    .find((m) => addressedTo(m.text, to) && subject.test(/^Subject: (.*)$/m.exec(m.text)?.[1] ?? ''));
  if (!found) throw new Error(`no e-mail to ${to} matching ${subject}`);
  // Headers fold long lines; the body's soft breaks are undone by the outbox's decoding.
  return found.text.replace(/\r?\n[ \t]/g, ' ');
}

const postForm = (path: string, fields: [string, string][] | string, headers: Record<string, string> = {}) =>
  fetch(`${server.url}${path}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.origin, 'sec-fetch-site': 'same-origin', 'user-agent': 'EarlyStartTest/1.0 (Phone)', ...headers },
    body: typeof fields === 'string' ? fields : new URLSearchParams(fields).toString(),
  });

const pageText = async (token: string) =>
  (await (await fetch(`${server.url}/quote/${token}`)).text())
    .replace(/<style[\s\S]*?<\/style>|<script[\s\S]*?<\/script>/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&#39;|&apos;/g, "'")
    .replace(/\s+/g, ' ');

const publicQuote = async (token: string) => publicQuoteResponseSchema.parse(await (await fetch(`${server.url}/api/quotes/${token}`)).json()).quote;

/** The link in the ask's e-mail: the customer's quote page, by a token of its own. */
function askLink(email: string): string {
  const mail = mailTo(email, /^Start your tree work sooner\?/);
  const token = /\/quote\/([A-Za-z0-9_-]{43})#early-start/.exec(mail)?.[1];
  if (!token) throw new Error('no link in the ask');
  return token;
}

describe('booking inside the cancellation period', () => {
  it('is refused (409 CANCELLATION_PERIOD) with the first day after the period and the sentence; from that day it books', async () => {
    const { job } = await acceptedJob();
    expect((await getJob(job.id)).cancellationPeriod).toEqual({ lastDay: LAST_DAY, firstDay: FIRST_DAY, earlyStartRequestedAt: null, earlyStartAskedAt: null });

    for (const date of ['2026-06-01', '2026-06-08', LAST_DAY]) {
      const refused = await book(job.id, date);
      expect(refused.status).toBe(409);
      expect(errorBodySchema.parse(await refused.json())).toEqual({ code: 'CANCELLATION_PERIOD', message: PERIOD_SENTENCE, details: { firstDay: [FIRST_DAY] } });
    }
    expect((await getJob(job.id)).booking).toBeNull();

    const booked = await book(job.id, FIRST_DAY);
    expect(booked.status, await booked.clone().text()).toBe(200);
    expect((await getJob(job.id)).booking?.date).toBe(FIRST_DAY);
  });

  it('refuses moving a booking into the period, and keeps the date it had', async () => {
    const { job } = await acceptedJob();
    expect((await book(job.id, '2026-06-20')).status).toBe(200);
    const moved = await book(job.id, '2026-06-12');
    expect(moved.status).toBe(409);
    expect(errorBodySchema.parse(await moved.json()).details).toEqual({ firstDay: [FIRST_DAY] });
    expect((await getJob(job.id)).booking?.date).toBe('2026-06-20');
    expect((await book(job.id, FIRST_DAY)).status).toBe(200);
  });

  it('books inside it when the customer ticked the early start on accepting; asking them then is a 409', async () => {
    const { job } = await acceptedJob(true);
    const period = (await getJob(job.id)).cancellationPeriod;
    expect(period?.earlyStartRequestedAt).toBe(server.clock.now().toISOString());
    expect((await book(job.id, '2026-06-03')).status).toBe(200);
    const asked = await askEarlyStart(job.id);
    expect(asked.status).toBe(409);
    expect(errorBodySchema.parse(await asked.json()).message).toBe(EARLY_START_MESSAGES.alreadyRequested('2026-06-01'));
  });
});

describe('asking the customer to start early', () => {
  it('e-mails them a link; their page offers the request; it is kept and e-mailed to both; then the work books inside the period', async () => {
    const { job, token, email } = await acceptedJob();
    server.clock.advance(2 * 24 * 3600_000);

    const asked = await askEarlyStart(job.id);
    expect(asked.status, await asked.clone().text()).toBe(200);
    expect((await jobOf(asked)).cancellationPeriod).toMatchObject({ earlyStartAskedAt: server.clock.now().toISOString(), earlyStartRequestedAt: null });
    const ask = mailTo(email, /^Start your tree work sooner\?/);
    expect(ask).toMatch(/^From: "?Birch Brothers"? </m);
    expect(ask).toContain('sooner than Tuesday 16 June 2026');
    const linkToken = askLink(email);
    expect(linkToken).not.toBe(token);

    // The page by the ask's link (and by the quote's own) offers the request in the Regulations' words.
    for (const opened of [linkToken, token]) {
      const text = await pageText(opened);
      expect(text).toContain('Start before the 14 days are over');
      for (const line of EARLY_START_REQUEST_WORDS) expect(text).toContain(line);
    }
    // Still refused until the customer asks.
    expect((await book(job.id, '2026-06-05')).status).toBe(409);

    const requested = await postForm(`/quote/${linkToken}/start-early`, [
      ['name', 'Jo Rowan'],
      ['confirm', 'yes'],
    ]);
    expect(requested.status, await requested.clone().text()).toBe(303);
    expect(requested.headers.get('location')).toBe(`/quote/${linkToken}`);
    await mailSettled(server);

    const at = server.clock.now().toISOString();
    const text = await pageText(linkToken);
    expect(text).toContain('You asked for the work to start within your 14-day cancellation period on Wednesday 3 June 2026.');
    expect(text).not.toContain('Start before the 14 days are over');
    expect((await publicQuote(token)).answer?.earlyStart).toEqual({ askedAt: at, requestedAt: at, name: 'Jo Rowan' });
    expect((await getJob(job.id)).cancellationPeriod).toMatchObject({ earlyStartRequestedAt: at });

    // The evidence, on a durable medium to both sides: the words, the name, the time, the address, the browser.
    const customerCopy = mailTo(email, /^Your request to start early/);
    expect(customerCopy).toContain('as "Jo Rowan"');
    expect(customerCopy).toContain('Wednesday 3 June 2026 at 10:00 (UK time)');
    for (const line of EARLY_START_REQUEST_WORDS) expect(customerCopy).toContain(line);
    const ownerCopy = mailTo(ownerEmail, /asked to start early/);
    expect(ownerCopy).toContain('Name typed: Jo Rowan');
    expect(ownerCopy).toContain('When: Wednesday 3 June 2026 at 10:00 (UK time)');
    expect(ownerCopy).toMatch(/From the address: (127\.0\.0\.1|::1|::ffff:127\.0\.0\.1)/);
    expect(ownerCopy).toContain('Browser: EarlyStartTest/1.0 (Phone)');
    expect(ownerCopy).toMatch(/^Reply-To: .*customer\d+@example\.com/m);

    const booked = await book(job.id, '2026-06-05');
    expect(booked.status, await booked.clone().text()).toBe(200);
    // A second request is refused, and so is asking again.
    const again = await postForm(`/quote/${token}/start-early`, [
      ['name', 'Jo Rowan'],
      ['confirm', 'yes'],
    ]);
    expect(again.status).toBe(409);
    expect(await again.text()).toContain('You asked for the work to start within your 14-day cancellation period on Wednesday 3 June 2026.');
    expect((await askEarlyStart(job.id)).status).toBe(409);
  });

  it('a newer ask replaces the older link; the page offers nothing before the business asks', async () => {
    const { job, token, email } = await acceptedJob();
    expect(await pageText(token)).not.toContain('Start before the 14 days are over');
    const notAsked = await postForm(`/quote/${token}/start-early`, [
      ['name', 'Jo Rowan'],
      ['confirm', 'yes'],
    ]);
    expect(notAsked.status).toBe(409);
    expect(await notAsked.text()).toContain(EARLY_START_MESSAGES.notAsked);

    expect((await askEarlyStart(job.id)).status).toBe(200);
    const first = askLink(email);
    expect((await askEarlyStart(job.id)).status).toBe(200);
    const second = askLink(email);
    expect(second).not.toBe(first);
    expect((await fetch(`${server.url}/quote/${first}`)).status).toBe(404);
    expect((await fetch(`${server.url}/quote/${second}`)).status).toBe(200);
  });

  it('is refused before acceptance, once cancelled, and after the period (nothing to ask)', async () => {
    const { job: sent } = await sentLinesJob(server, owner, { name: 'Sam Draft', email: 'draft@example.com' }, [{ description: 'Crown lift', price: '100' }]);
    const notAccepted = await askEarlyStart(sent.id);
    expect(notAccepted.status).toBe(409);
    expect(errorBodySchema.parse(await notAccepted.json()).message).toBe(EARLY_START_MESSAGES.notAccepted);

    const { job: cancelled } = await acceptedJob();
    expect((await owner.post(`/api/jobs/${cancelled.id}/cancel`, { receivedOn: today(), via: 'phone' })).status).toBe(200);
    expect((await askEarlyStart(cancelled.id)).status).toBe(409);
    expect((await getJob(cancelled.id)).cancellationPeriod).toBeNull();

    const { job: late, token } = await acceptedJob();
    server.clock.advance(15 * 24 * 3600_000);
    const over = await askEarlyStart(late.id);
    expect(over.status).toBe(409);
    expect(errorBodySchema.parse(await over.json()).message).toMatch(/^The cancellation period ended on /);
    expect(await pageText(token)).not.toContain('Start before the 14 days are over');
    // The period is over: today books.
    expect((await book(late.id, today())).status).toBe(200);
  });
});

describe('security', () => {
  it("another account's job is a 404 for asking and for booking; a cross-site ask is refused", async () => {
    const { job } = await acceptedJob();
    const stranger = (await registerClient(server)).client;
    const res = await askEarlyStart(job.id, stranger);
    expect(res.status).toBe(404);
    expect(errorBodySchema.parse(await res.json()).code).toBe('NOT_FOUND');
    expect((await book(job.id, FIRST_DAY, stranger)).status).toBe(404);
    const crossSite = await owner.post(`/api/jobs/${job.id}/ask-early-start`, undefined, { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' });
    expect(crossSite.status).toBe(403);
    expect((await getJob(job.id)).cancellationPeriod?.earlyStartAskedAt).toBeNull();
  });

  it("the request form takes an attacker's input bounded: refused fields come back, nothing is kept, and the request stays possible", async () => {
    const { job, email } = await acceptedJob();
    expect((await askEarlyStart(job.id)).status).toBe(200);
    const token = askLink(email);

    const long = await postForm(`/quote/${token}/start-early`, [
      ['name', 'J'.repeat(5000)],
      ['confirm', 'yes'],
    ]);
    expect(long.status).toBe(400);
    expect(await long.text()).toContain('Your name must be at most 100 characters');

    const unticked = await postForm(`/quote/${token}/start-early`, [['name', '<script>alert(1)</script>']]);
    expect(unticked.status).toBe(400);
    const html = await unticked.text();
    expect(html).toContain('Please tick to confirm you want the work to start early');
    expect(html).toContain('value="&lt;script&gt;alert(1)&lt;/script&gt;"');
    expect(html).not.toContain('<script>alert(1)</script>');

    expect((await postForm(`/quote/${token}/start-early`, `name=${'x'.repeat(20_000)}&confirm=yes`)).status).toBe(413);
    expect((await postForm(`/quote/${token}/start-early`, [['name', 'Jo'], ['confirm', 'yes']], { 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' })).status).toBe(403);
    expect((await postForm(`/quote/${token}/start-early`, '{"name":"Jo","confirm":true}', { 'content-type': 'application/json' })).status).toBe(415);
    expect((await postForm(`/quote/${'A'.repeat(43)}/start-early`, [['name', 'Jo Rowan'], ['confirm', 'yes']])).status).toBe(404);
    expect((await getJob(job.id)).cancellationPeriod?.earlyStartRequestedAt).toBeNull();
    expect((await book(job.id, addDays(today(), 2))).status).toBe(409);

    // Hidden characters and line breaks are not kept in the name; a 500-character browser name is cut.
    const ok = await postForm(`/quote/${token}/start-early`, [['name', 'Jo\u202e Rowan\r\nBcc: x@evil.example'], ['confirm', 'yes']], { 'user-agent': `UA${'x'.repeat(2000)}` });
    expect(ok.status).toBe(303);
    await mailSettled(server);
    expect((await publicQuote(token)).answer?.earlyStart?.name).toBe('Jo Rowan Bcc: x@evil.example');
    const ownerCopy = mailTo(ownerEmail, /asked to start early/);
    expect(ownerCopy).toContain('Name typed: Jo Rowan Bcc: x@evil.example');
    expect(/Browser: (UAx+)/.exec(ownerCopy)?.[1]).toHaveLength(500);
  });
});
