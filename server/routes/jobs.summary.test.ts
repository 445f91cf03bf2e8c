import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leadListSchema } from '../../core/business';
import { jobSummaryResponseSchema, type JobSummary } from '../../core/job-summary';
import { jobListSchema, type Job } from '../../core/jobs';
import { grantTo } from '../../testing/analysis';
import { createBusinessFor, looseEmbedLimits, visitorAnalyze, visitorLead } from '../../testing/business';
import { registerClient, startTestServer, TestClient, type TestServer } from '../../testing/harness';
import { acceptQuote, sendQuoteTo } from '../../testing/quote-links';
import { jobOf } from '../../testing/jobs';

/*
 * The Jobs page's figures and search over HTTP (docs/product.md, The Jobs pages): jobs by status,
 * and what was quoted, accepted and done this UK calendar month, exact in pence; the list
 * searched by customer (any case and accent, "%" literal) and by status; a lead naming its job.
 * The clock starts on 1 June 2026 (British Summer Time) and only moves forward.
 */
let server: TestServer;
let owner: TestClient;
const CUSTOMER = 'customer@example.com';
const HOUR = 60 * 60 * 1000;

beforeAll(async () => {
  // Two visitor estimates from 127.0.0.1 for the leads below.
  server = await startTestServer({}, { rateLimits: looseEmbedLimits() });
  owner = (await registerClient(server)).client;
  const profile = await owner.request('PATCH', '/api/system-settings', {
    companyProfile: { tradingName: 'Birch Brothers', phone: '01632 960000', email: 'office@birch.example', address: '1 Yard Lane\nLeeds', vatNumber: '', quoteValidityDays: 30 },
  });
  expect(profile.status).toBe(200);
});
afterAll(() => server.close());

/** A job of typed lines: [description, price, optional?]. */
async function jobWith(client: TestClient, name: string, lines: [string, string, boolean?][], email: string | null = CUSTOMER): Promise<Job> {
  let job = await jobOf(await client.post('/api/jobs', { customer: { name, email } }), 201);
  for (const [description, price, optional = false] of lines) job = await jobOf(await client.post(`/api/jobs/${job.id}/lines`, { description, price, optional }), 201);
  return job;
}

async function summary(client = owner): Promise<JobSummary> {
  const res = await client.get('/api/jobs/summary');
  expect(res.status).toBe(200);
  return jobSummaryResponseSchema.parse(await res.json()).summary;
}

async function list(query: string, client = owner): Promise<Job[]> {
  const res = await client.get(`/api/jobs${query}`);
  expect(res.status, await res.clone().text()).toBe(200);
  return jobListSchema.parse(await res.json()).jobs;
}

async function accept(token: string, optionalItemIds: number[] = []) {
  const res = await acceptQuote(server, token, optionalItemIds);
  expect(res.status, await res.clone().text()).toBe(200);
}

describe('GET /api/jobs/summary', () => {
  it("counts the account's jobs by status and this UK month's quoted, accepted and done values, exact in pence", async () => {
    // June: a job of £600 and an optional £175 hedge, sent and accepted with the hedge.
    const hedge = await jobWith(owner, 'June Customer', [
      ['Fell the leylandii', '600'],
      ['Reduce the beech hedge', '175', true],
    ]);
    const { token: juneToken } = await sendQuoteTo(server, owner, hedge.id, CUSTOMER);
    await accept(juneToken, [hedge.items[1]!.id]);
    const june = await summary();
    expect(june.month).toEqual({
      timeZone: 'Europe/London',
      start: '2026-05-31T23:00:00.000Z',
      end: '2026-06-30T23:00:00.000Z',
      quoted: { count: 1, gross: '600.00' },
      accepted: { count: 1, gross: '775.00' },
      done: { count: 0, gross: '0.00' },
    });

    // 23:30 UTC on 30 June is 00:30 on 1 July in the UK: July's.
    server.clock.advance(Date.parse('2026-06-30T23:30:00Z') - server.clock.now().getTime());
    const pruning = await jobWith(owner, 'July Customer', [['Crown lift the sycamore', '250']]);
    await sendQuoteTo(server, owner, pruning.id, CUSTOMER);
    const midnight = await summary();
    expect(midnight.month).toMatchObject({ start: '2026-06-30T23:00:00.000Z', end: '2026-07-31T23:00:00.000Z', quoted: { count: 1, gross: '250.00' }, accepted: { count: 0, gross: '0.00' } });

    server.clock.advance(36 * HOUR);
    // June's accepted job done in July: done at what was accepted, with the hedge.
    await jobOf(await owner.post(`/api/jobs/${hedge.id}/done`, {}));
    // The July job changed and sent again: counted once, at its newest version.
    await jobOf(await owner.request('PATCH', `/api/jobs/${pruning.id}`, { items: [{ id: pruning.items[0]!.id, price: '300' }] }));
    const resent = await sendQuoteTo(server, owner, pruning.id, CUSTOMER);
    expect(resent.job.versions).toHaveLength(2);

    // VAT added on top: £333.33 + the optional £50.00 chosen = £383.33 net, VAT £76.67, £460.00.
    const rules = { crewSize: 2, minimumCharge: '0', travel: '0', wastePerTonne: '0', stumpGrinding: '0', accessPlatform: '0', trafficManagement: '0', vatMode: 'ex' };
    expect((await owner.request('PATCH', '/api/system-settings', { pricing: rules })).status).toBe(200);
    const trade = await jobWith(owner, 'Trade Customer', [
      ['Remove the ash', '333.33'],
      ['Grind the stump', '50', true],
    ]);
    expect(trade.vatMode).toBe('ex');
    const { token: tradeToken } = await sendQuoteTo(server, owner, trade.id, CUSTOMER);
    await accept(tradeToken, [trade.items[1]!.id]);
    expect((await jobOf(await owner.get(`/api/jobs/${trade.id}`))).totals).toEqual({ net: '383.33', vat: '76.67', gross: '460.00' });
    await jobWith(owner, 'Draft Customer', [['Survey', '80']]);

    const july = await summary();
    expect(july).toEqual({
      counts: { draft: 1, sent: 1, viewed: 0, accepted: 1, declined: 0, changes_requested: 0, expired: 0, booked: 0, done: 1, cancelled: 0 },
      total: 4,
      month: {
        timeZone: 'Europe/London',
        start: '2026-06-30T23:00:00.000Z',
        end: '2026-07-31T23:00:00.000Z',
        // £300.00 (the sycamore's second version) + £400.00 (the ash with VAT, no option).
        quoted: { count: 2, gross: '700.00' },
        accepted: { count: 1, gross: '460.00' },
        done: { count: 1, gross: '775.00' },
      },
    });

    // Another account sees only its own.
    const { client: other } = await registerClient(server);
    const theirs = await summary(other);
    expect(theirs.total).toBe(0);
    expect(theirs.month).toMatchObject({ quoted: { count: 0, gross: '0.00' }, accepted: { count: 0, gross: '0.00' }, done: { count: 0, gross: '0.00' } });
  });

  it('is for a signed-in account only', async () => {
    expect((await new TestClient(server).get('/api/jobs/summary')).status).toBe(401);
  });
});

describe('GET /api/jobs?q=&status=', () => {
  it('finds customers by name, e-mail or quote number in any case and accent, every word, "%" and "_" literal', async () => {
    const { client } = await registerClient(server);
    const wojcik = await jobWith(client, 'Łukasz Wójcik', [['Fell the oak', '600']], 'lukasz@example.com');
    const percent = await jobWith(client, '100% Trees_Ltd', [['Hedge', '100']], 'office@trees.example');
    const sam = await jobWith(client, 'Sam Birch', [['Stump', '90']], null);
    const names = async (query: string) => (await list(query, client)).map((job) => job.customer.name);

    expect(await names('')).toEqual([sam.customer.name, percent.customer.name, wojcik.customer.name]);
    expect(await names('?q=wojcik')).toEqual(['Łukasz Wójcik']);
    expect(await names('?q=%C5%81UKASZ%20W%C3%93JCIK')).toEqual(['Łukasz Wójcik']);
    expect(await names('?q=lukasz')).toEqual(['Łukasz Wójcik']);
    expect(await names('?q=TREES.EXAMPLE')).toEqual(['100% Trees_Ltd']);
    expect(await names(`?q=${encodeURIComponent(sam.reference.toLowerCase())}`)).toEqual(['Sam Birch']);
    // "%" and "_" are themselves, never wildcards.
    expect(await names('?q=%25')).toEqual(['100% Trees_Ltd']);
    expect(await names('?q=_')).toEqual(['100% Trees_Ltd']);
    expect(await names('?q=s_m')).toEqual([]);
    expect(await names('?q=birch%20sam')).toEqual(['Sam Birch']);
    expect(await names('?q=birch%20nobody')).toEqual([]);
    expect(await names('?q=%20%20')).toHaveLength(3);

    await sendQuoteTo(server, client, wojcik.id, 'lukasz@example.com');
    expect(await names('?status=sent')).toEqual(['Łukasz Wójcik']);
    expect(await names('?status=draft&q=trees')).toEqual(['100% Trees_Ltd']);
    expect(await names('?status=done')).toEqual([]);
    // Only the account's own jobs.
    expect(await list('?q=wojcik')).toEqual([]);
  });

  it('refuses a search over 100 characters and an unknown status', async () => {
    expect((await owner.get(`/api/jobs?q=${'a'.repeat(100)}`)).status).toBe(200);
    const long = await owner.get(`/api/jobs?q=${'a'.repeat(101)}`);
    expect(long.status).toBe(400);
    expect(await long.json()).toMatchObject({ code: 'VALIDATION_ERROR', details: { q: ['Search for at most 100 characters'] } });
    expect((await owner.get('/api/jobs?status=lost')).status).toBe(400);
  });
});

describe("a lead's job", () => {
  it('each lead names the newest job made from it, the owner\'s own, in the one list', async () => {
    const { client, account } = await registerClient(server);
    grantTo(server, account.username, 100);
    const business = await createBusinessFor(client);
    const leadIds: number[] = [];
    for (const name of ['Rowan Visitor', 'Hazel Visitor']) {
      const analysed = await visitorAnalyze(server, business.slug);
      expect(analysed.status, await analysed.clone().text()).toBe(201);
      const estimate = (await analysed.json()) as { analysis: { id: number }; leadToken: string };
      expect((await visitorLead(server, business.slug, { analysisId: estimate.analysis.id, leadToken: estimate.leadToken, name, email: 'v@example.com' })).status).toBe(201);
    }
    const leads = async () => leadListSchema.parse(await (await client.get(`/api/businesses/${business.id}/leads`)).json()).leads;
    for (const lead of await leads()) leadIds.push(lead.id);
    expect((await leads()).map((lead) => lead.jobId)).toEqual([null, null]);

    const first = await jobOf(await client.post('/api/jobs', { leadId: leadIds[0] }), 201);
    const second = await jobOf(await client.post('/api/jobs', { leadId: leadIds[0] }), 201);
    expect((await leads()).map((lead) => [lead.id, lead.jobId])).toEqual([
      [leadIds[0], second.id],
      [leadIds[1], null],
    ]);
    expect(first.id).toBeLessThan(second.id);
    // Marking the lead contacted answers it the same way.
    const marked = await client.request('PATCH', `/api/businesses/${business.id}/leads/${leadIds[0]}`, { contacted: true });
    expect(marked.status).toBe(200);
    expect(((await marked.json()) as { lead: { jobId: number | null } }).lead.jobId).toBe(second.id);
  });
});
