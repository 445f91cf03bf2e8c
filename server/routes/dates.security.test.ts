import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { quoteAnswers } from '../../db/schema';
import { invoiceOf } from '../../testing/invoices';
import { startTestServer, advanceKeepingSession, type TestClient, type TestServer } from '../../testing/harness';
import { jobOf } from '../../testing/jobs';
import { mailSettled } from '../../testing/mail';
import { acceptQuote, ownerWithProfile, sentLinesJob } from '../../testing/quote-links';

/*
 * Dates an attacker (or a slip of the keyboard) might type, refused with a sentence
 * (docs/security.md, Dates the records keep): a payment dated before the job's quote was accepted
 * (1900-01-01 would move a deposit's tax point a century back), or after today on the injected
 * clock (Europe/London); a protection record dated after today (2099). The test clock starts at
 * 2026-06-01 09:00 UTC, when the quote is accepted, and moves to 20 June.
 */
let server: TestServer;
let owner: TestClient;
let invoiceId: number;
let versionId: number;

beforeAll(async () => {
  server = await startTestServer();
  owner = (await ownerWithProfile(server)).client;
  const { job, token } = await sentLinesJob(server, owner, { name: 'Pat Date', email: 'pat@example.com', siteAddress: '1 High Street, Leeds LS6 2AB' }, [{ description: 'Fell the ash', price: '600' }]);
  expect((await acceptQuote(server, token)).status).toBe(200);
  await mailSettled(server);
  await advanceKeepingSession(server, owner, 19);
  const draft = await invoiceOf(await owner.post(`/api/jobs/${job.id}/invoices`, { kind: 'final' }), 201);
  invoiceId = (await invoiceOf(await owner.post(`/api/invoices/${draft.id}/issue`))).id;
  versionId = server.db.select({ versionId: quoteAnswers.versionId }).from(quoteAnswers).get()!.versionId;
});
afterAll(() => server.close());

async function pay(paidOn: string): Promise<Response> {
  const res = await owner.post(`/api/invoices/${invoiceId}/payments`, { amount: '1', paidOn, method: 'bank_transfer' });
  await mailSettled(server);
  return res;
}

async function refusal(res: Response): Promise<{ message: string; details: Record<string, string[]> }> {
  expect(res.status, await res.clone().text()).toBe(400);
  return (await res.json()) as { message: string; details: Record<string, string[]> };
}

describe('a payment’s date', () => {
  it('is refused before the quote was accepted: 1900-01-01, and the day before', async () => {
    for (const paidOn of ['1900-01-01', '2000-01-01', '2026-05-31']) {
      const body = await refusal(await pay(paidOn));
      expect(body.message, paidOn).toBe('A payment for this job cannot be dated before 1 June 2026, the day its quote was accepted.');
      expect(body.details.paidOn).toEqual([body.message]);
    }
  });

  it('is refused after today on the clock (Europe/London), and a malformed one is a 400', async () => {
    expect((await refusal(await pay('2026-06-21'))).message).toBe('A payment cannot be dated in the future.');
    expect((await refusal(await pay('2099-12-31'))).message).toBe('A payment cannot be dated in the future.');
    for (const paidOn of ['2026-13-01', '2026-02-30', 'garbage']) expect((await pay(paidOn)).status, paidOn).toBe(400);
  });

  it('is taken from the day of acceptance to today; nothing refused was recorded', async () => {
    expect((await pay('2026-06-01')).status).toBe(201);
    const invoice = await invoiceOf(await pay('2026-06-20'), 201);
    expect(invoice.payments.map((p) => p.paidOn)).toEqual(['2026-06-01', '2026-06-20']);
  });

  it('without an acceptance on record, a year back is the earliest', async () => {
    // An invoice of a version whose acceptance is not on record (an older install's).
    server.db.delete(quoteAnswers).where(eq(quoteAnswers.versionId, versionId)).run();
    expect((await refusal(await pay('2025-06-19'))).message).toBe('A payment cannot be dated more than a year back: 20 June 2025 is the earliest.');
    expect((await pay('2025-06-20')).status).toBe(201);
  });
});

describe('a protection record’s date', () => {
  it('is refused after today (2099, tomorrow) with a sentence; today and the past are kept', async () => {
    const job = await jobOf(await owner.post('/api/jobs', { customer: { name: 'Sam Hill', siteAddress: '1 Clifton Down Road, Bristol BS8 4AA' } }), 201);
    for (const on of ['2099-01-01', '2026-06-21']) {
      const body = await refusal(await owner.request('PUT', `/api/jobs/${job.id}/protection/record`, { outcome: 's211_notice_sent', on }));
      expect(body.message, on).toBe('A record cannot be dated after today: enter the day the council answered or the notice was sent.');
      expect(body.details.on).toEqual([body.message]);
    }
    const today = await owner.request('PUT', `/api/jobs/${job.id}/protection/record`, { outcome: 's211_notice_sent', on: '2026-06-20' });
    expect(today.status, await today.clone().text()).toBe(200);
    expect(((await today.json()) as { protection: { record: { on: string } } }).protection.record.on).toBe('2026-06-20');
  });
});
