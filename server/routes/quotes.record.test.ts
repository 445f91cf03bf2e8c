import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JOB_LOCKED_MESSAGE, type Job } from '../../core/jobs';
import { customerCopyText } from '../../core/quote-copy';
import { publicQuoteResponseSchema, type PublicQuote } from '../../core/quote-versions';
import { grantTo } from '../../testing/analysis';
import { startTestServer, type TestClient, type TestServer } from '../../testing/harness';
import { ownerWithProfile, sentLinesJob } from '../../testing/quote-links';
import { analysisIdOf, jobOf } from '../../testing/jobs';
import { addressedTo, mailSettled, outboxMessages } from '../../testing/mail';
import { pausedJsonRequest } from '../../testing/paused-request';
import { pdfText } from '../../testing/quote';

/*
 * The accepted quote is the job's record (docs/product.md, Jobs and quotes): once the customer
 * accepts, no change lands, whatever the order its request and the acceptance arrive in; what
 * the job, its PDF, the month's summary and the booking show is the version accepted, never a
 * draft edited after sending; the acceptance's fingerprint is one the customer can recompute.
 */
let server: TestServer;
let owner: TestClient;
const CUSTOMER = 'customer@example.com';

beforeAll(async () => {
  server = await startTestServer();
  const registered = await ownerWithProfile(server);
  owner = registered.client;
  grantTo(server, registered.account.username, 100);
});
afterAll(() => server.close());

const outbox = (): string[] => outboxMessages(server.dataDir).map((mail) => mail.text);

/** A job of one line, "Crown lift" at £100, sent; its link's token from the e-mail. */
const sentJob = (name = 'Jo Rowan') => sentLinesJob(server, owner, { name, email: CUSTOMER, siteAddress: '12 Elm Road, Leeds LS6 2AB' }, [{ description: 'Crown lift', price: '100' }]);

const accept = (token: string) =>
  fetch(`${server.url}/api/quotes/${token}/accept`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: server.origin, 'user-agent': 'RecordTest/1.0' },
    body: JSON.stringify({ name: 'Jo Rowan', acceptTerms: true }),
  });

async function open(token: string): Promise<PublicQuote> {
  const res = await fetch(`${server.url}/api/quotes/${token}`);
  expect(res.status, await res.clone().text()).toBe(200);
  return publicQuoteResponseSchema.parse(await res.json()).quote;
}

const getJob = async (id: number) => jobOf(await owner.get(`/api/jobs/${id}`));

describe('a change whose body arrives after the acceptance', () => {
  const cases: { route: string; method: string; path: (job: Job) => string; body: (job: Job) => Promise<unknown> }[] = [
    { route: 'PATCH', method: 'PATCH', path: (j) => `/api/jobs/${j.id}`, body: async (j) => ({ items: [{ id: j.items[0]!.id, price: '9999', description: 'Crown lift and full fell' }] }) },
    { route: 'lines', method: 'POST', path: (j) => `/api/jobs/${j.id}/lines`, body: async () => ({ description: 'Remove the oak', price: '5000' }) },
    { route: 'trees', method: 'POST', path: (j) => `/api/jobs/${j.id}/trees`, body: async () => ({ analysisIds: [await analysisIdOf(owner)] }) },
    { route: 'send', method: 'POST', path: (j) => `/api/jobs/${j.id}/send`, body: async () => ({ email: 'someone-else@example.com' }) },
  ];

  for (const { route, method, path, body } of cases) {
    it(`${route}: 409, and the accepted version stands everywhere`, async () => {
      const { job, token } = await sentJob();
      const payload = await body(job);
      const change = pausedJsonRequest(server, method, path(job), payload, owner.cookieHeader());
      await change.arrived;
      expect((await accept(token)).status).toBe(200);
      const answer = await change.finish();
      expect(answer.status, answer.body).toBe(409);
      expect(JSON.parse(answer.body)).toEqual({ message: JOB_LOCKED_MESSAGE, code: 'CONFLICT' });

      const after = await getJob(job.id);
      expect(after.status).toBe('accepted');
      expect(after.items.map((item) => [item.description, item.price])).toEqual([['Crown lift', '100.00']]);
      expect(after.totals.gross).toBe('100.00');
      expect(after.versions).toHaveLength(1);
      expect(after.versions[0]!.replacedAt).toBeNull();
      // The customer's confirmed link still opens their accepted copy.
      const copy = await open(token);
      expect(copy.answer?.kind).toBe('accepted');
    });
  }

  it('revoke (which has no body): 409 once accepted, and the link keeps opening the accepted copy', async () => {
    const { job, token } = await sentJob();
    expect((await accept(token)).status).toBe(200);
    const res = await owner.post(`/api/jobs/${job.id}/revoke`);
    expect(res.status).toBe(409);
    expect((await getJob(job.id)).versions[0]!.revokedAt).toBeNull();
    expect((await open(token)).answer?.kind).toBe('accepted');
  });

  const afterCancel: { route: string; path: (job: Job) => string; body: unknown }[] = [
    { route: 'book', path: (j) => `/api/jobs/${j.id}/book`, body: { date: '2026-06-20' } },
    { route: 'done', path: (j) => `/api/jobs/${j.id}/done`, body: { actuals: [] } },
  ];
  for (const { route, path, body } of afterCancel) it(`${route}: refused (409) when its body arrives after the customer cancelled`, async () => {
    const { job, token } = await sentJob();
    expect((await accept(token)).status).toBe(200);
    const booking = pausedJsonRequest(server, 'POST', path(job), body, owner.cookieHeader());
    await booking.arrived;
    const cancelled = await fetch(`${server.url}/api/quotes/${token}/cancel`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: server.origin },
      body: JSON.stringify({ name: 'Jo Rowan', confirm: true }),
    });
    expect(cancelled.status, await cancelled.clone().text()).toBe(200);
    const answer = await booking.finish();
    expect(answer.status, answer.body).toBe(409);
    const after = await getJob(job.id);
    expect(after.status).toBe('cancelled');
    expect(after.booking).toBeNull();
    expect(after.doneAt).toBeNull();
  });
});

describe('edited after sending, accepted as sent', () => {
  it('shows the version the customer accepted in the job, its PDF, the summary and the booking', async () => {
    const { job, token } = await sentJob('Sam Ash');
    const edited = await jobOf(await owner.request('PATCH', `/api/jobs/${job.id}`, { items: [{ id: job.items[0]!.id, price: '900', description: 'Crown lift and full fell' }] }));
    expect(edited.status).toBe('sent');
    // The surgeon sees what the customer would not be accepting.
    expect(edited.changedSinceSent?.version).toBe(1);
    expect(edited.changedSinceSent?.changes.map((change) => change.kind).sort()).toEqual(['price', 'words']);
    expect(edited.changedSinceSent?.changes.map((change) => change.words).join(' ')).toContain('£100.00 → £900.00');
    // The customer's link still offers what was sent.
    expect((await open(token)).items.map((item) => [item.description, item.price])).toEqual([['Crown lift', '100.00']]);

    const acceptedThisMonth = async () => {
      const { summary } = (await (await owner.get('/api/jobs/summary')).json()) as { summary: { month: { accepted: { count: number; gross: string } } } };
      return { count: summary.month.accepted.count, pence: Math.round(Number(summary.month.accepted.gross) * 100) };
    };
    const monthBefore = await acceptedThisMonth();
    expect((await accept(token)).status).toBe(200);
    const accepted = await getJob(job.id);
    expect(accepted.status).toBe('accepted');
    expect(accepted.items.map((item) => [item.description, item.price])).toEqual([['Crown lift', '100.00']]);
    expect(accepted.totals.gross).toBe('100.00');
    expect(accepted.changedSinceSent).toBeNull();

    const pdf = await owner.get(`/api/jobs/${job.id}/quote.pdf`);
    expect(pdf.status).toBe(200);
    const { text } = await pdfText(Buffer.from(await pdf.arrayBuffer()));
    expect(text).toContain('Crown lift');
    expect(text).not.toContain('full fell');
    expect(text).toContain('100.00');
    expect(text).not.toContain('900.00');

    // The month's accepted figure grows by the £100 accepted, not the £900 draft.
    const monthAfter = await acceptedThisMonth();
    expect(monthAfter.count - monthBefore.count).toBe(1);
    expect(monthAfter.pence - monthBefore.pence).toBe(10_000);

    // The acceptance's e-mails (their PDF made in the background) are out before the booking's is looked for.
    await mailSettled(server);
    const before = outbox().length;
    const booked = await owner.post(`/api/jobs/${job.id}/book`, { date: '2026-06-20' });
    expect(booked.status, await booked.clone().text()).toBe(200);
    await mailSettled(server);
    const mail = outboxMessages(server.dataDir)
      .slice(before)
      .find((m) => /^Subject: Your tree work is booked/m.test(m.text) && m.text.includes(accepted.reference))!;
    // The work agreed, in the calendar file: the accepted words only.
    const calendar = Buffer.from(/filename=booking-[^\n]*\.ics\r?\n\r?\n([A-Za-z0-9+/=\r\n]+)/.exec(mail.text)![1]!.replace(/\s/g, ''), 'base64').toString('utf8');
    expect(calendar).toContain('Crown lift');
    expect(calendar + mail.text).not.toContain('full fell');
  });

  it('sending again offers the new version, which is then what the customer accepts', async () => {
    const { job } = await sentJob('Kit Elm');
    await jobOf(await owner.request('PATCH', `/api/jobs/${job.id}`, { items: [{ id: job.items[0]!.id, price: '150' }] }));
    await mailSettled(server);
    const before = outbox().length;
    const resent = await jobOf(await owner.post(`/api/jobs/${job.id}/send`, {}));
    expect(resent.changedSinceSent).toBeNull();
    expect(resent.versions.map((version) => version.version)).toEqual([2, 1]);
    await mailSettled(server);
    const token = outbox()
      .slice(before)
      .find((m) => /^Subject: Your quote from/m.test(m) && m.includes(job.reference))
      ?.match(/\/quote\/([A-Za-z0-9_-]{43})/)?.[1];
    expect((await accept(token!)).status).toBe(200);
    expect((await getJob(job.id)).totals.gross).toBe('150.00');
  });
});

describe("the acceptance's fingerprint", () => {
  it('is the SHA-256 of the copy the link serves, without its answer, which anyone with the link can recompute', async () => {
    const { job, token } = await sentJob('Lee Oak');
    const before = outbox().length;
    expect((await accept(token)).status).toBe(200);
    const served = await open(token);
    const recomputed = createHash('sha256').update(customerCopyText(served)).digest('hex');
    expect(served.answer?.contentHash).toBe(recomputed);
    // The same, by hand: keys sorted, no spaces, the answer left out.
    const byHand = (value: unknown): string =>
      Array.isArray(value)
        ? `[${value.map(byHand).join(',')}]`
        : value && typeof value === 'object'
          ? `{${Object.keys(value)
              .sort()
              .map((key) => `${JSON.stringify(key)}:${byHand((value as Record<string, unknown>)[key])}`)
              .join(',')}}`
          : JSON.stringify(value);
    const { answer: _answer, ...copy } = served;
    expect(createHash('sha256').update(byHand(copy)).digest('hex')).toBe(recomputed);

    const view = await getJob(job.id);
    expect(view.acceptance?.contentHash).toBe(recomputed);
    await mailSettled(server);
    const confirmation = outbox()
      .slice(before)
      .find((m) => addressedTo(m, CUSTOMER) && m.includes(`You accepted quote ${job.reference}`))!;
    // One short line, and the app's page on how to check it (the steps are there, not in the e-mail).
    expect(confirmation).toContain(`Fingerprint: ${recomputed}`);
    expect(confirmation).toContain(`How to check it: ${server.url}/help/quote-fingerprint`);
    expect(confirmation).not.toContain('RFC 8785');
    // Printed on the customer's PDF as well.
    const pdf = await fetch(`${server.url}/api/quotes/${token}/quote.pdf`);
    const pdfWords = (await pdfText(Buffer.from(await pdf.arrayBuffer()))).text;
    expect(pdfWords.replace(/\s/g, '')).toContain(recomputed);
    // Its model cancellation form is filled in: the service, the day accepted, the name typed, the site.
    const form = pdfWords.replace(/\s+/g, ' ');
    expect(form).toContain(`tree work, quote ${job.reference} (Crown lift)`);
    expect(form).toMatch(/Accepted on: \d{1,2} \w+ \d{4}/);
    expect(form).toContain('Name of consumer(s): Jo Rowan');
    expect(form).toContain('Address of consumer(s): 12 Elm Road, Leeds LS6 2AB');
  });
});
