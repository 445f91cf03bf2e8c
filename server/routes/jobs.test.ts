import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { JOB_LOCKED_MESSAGE, jobListSchema } from '../../core/jobs';
import { jobs } from '../../db/schema';
import { grantTo } from '../../testing/analysis';
import { createBusinessFor, visitorAnalyze, visitorLead, VISITOR_POSTCODE } from '../../testing/business';
import { registerClient, startTestServer, type TestClient, type TestServer } from '../../testing/harness';
import { analysisIdOf, jobOf } from '../../testing/jobs';

/*
 * Jobs over HTTP (docs/product.md, Jobs and quotes): a job made from History's analyses, from a
 * website lead or empty; prices set, rounded and made optional; totals exact in pence with VAT;
 * another account's jobs and analyses a 404; an accepted quote locked.
 */
let server: TestServer;
let owner: TestClient;

beforeAll(async () => {
  server = await startTestServer();
  const registered = await registerClient(server);
  owner = registered.client;
  grantTo(server, registered.account.username, 200);
  // £90 an hour, no VAT: the estimates have prices to start from.
  const settings = await owner.request('PATCH', '/api/system-settings', { aiInstructions: '', hourlyRate: '90' });
  expect(settings.status).toBe(200);
});
afterAll(() => server.close());

const pence = (text: string) => Math.round(Number(text) * 100);

describe('making a job', () => {
  it('from two analyses in History: each tree starts at its estimate, rounded to £5', async () => {
    const oak = await analysisIdOf(owner, 'oak, 16 inch trunk, 40 ft tall');
    const birch = await analysisIdOf(owner, 'birch, 8 inch trunk, 25 ft tall');
    const job = await jobOf(await owner.post('/api/jobs', { analysisIds: [oak, birch], customer: { name: 'Łukasz Wójcik', email: 'lukasz@example.com', siteAddress: '12 Elm Road, Leeds' } }), 201);
    expect(job).toMatchObject({ status: 'draft', reference: `Q-${String(job.id).padStart(6, '0')}`, vatMode: 'none', leadId: null });
    expect(job.customer).toEqual({ name: 'Łukasz Wójcik', email: 'lukasz@example.com', phone: null, siteAddress: '12 Elm Road, Leeds' });
    expect(job.items.map((i) => [i.kind, i.analysisId])).toEqual([
      ['tree', oak],
      ['tree', birch],
    ]);
    for (const item of job.items) {
      const estimate = item.estimate!.price!;
      const middle = (estimate.netMinPence + estimate.netMaxPence) / 2;
      expect(pence(item.price) % 500).toBe(0);
      expect(Math.abs(pence(item.price) - middle)).toBeLessThanOrEqual(250);
      // Plain words for the customer: which tree, what will be done; never "Unknown".
      expect(item.description).toMatch(/^Remove the (oak|birch) \(about .* tall\)\./i);
    }
    const sum = job.items.reduce((s, i) => s + pence(i.price), 0);
    expect(job.totals).toEqual({ net: (sum / 100).toFixed(2), vat: '0.00', gross: (sum / 100).toFixed(2) });
  });

  it("refuses another account's analysis with a 404, and makes nothing", async () => {
    const { client: other, account } = await registerClient(server);
    grantTo(server, account.username, 10);
    const theirs = await analysisIdOf(other, 'ash, 10 inch trunk, 30 ft tall');
    const before = (jobListSchema.parse(await (await owner.get('/api/jobs')).json())).jobs.length;
    const res = await owner.post('/api/jobs', { analysisIds: [theirs], customer: { name: 'Jo' } });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ message: 'Analysis not found', code: 'NOT_FOUND' });
    expect(jobListSchema.parse(await (await owner.get('/api/jobs')).json()).jobs).toHaveLength(before);
  });

  it("from a website lead: the visitor's tree and details, tied to the lead and business", async () => {
    const business = await createBusinessFor(owner, { hourlyRate: '60.00' });
    const estimate = await visitorAnalyze(server, business.slug, {}, { origin: 'https://oakandash.example' });
    const { analysis, leadToken } = (await estimate.json()) as { analysis: { id: number }; leadToken: string };
    expect((await visitorLead(server, business.slug, { analysisId: analysis.id, leadToken, name: 'Москва Visitor', email: 'm@example.com', phone: '07700 900123' })).status).toBe(201);
    const leads = (await (await owner.get(`/api/businesses/${business.id}/leads`)).json()) as { leads: { id: number }[] };
    const job = await jobOf(await owner.post('/api/jobs', { leadId: leads.leads[0]!.id }), 201);
    expect(job).toMatchObject({ businessId: business.id, leadId: leads.leads[0]!.id });
    // The postcode the visitor gave is where the job is (they gave no address).
    expect(job.customer).toEqual({ name: 'Москва Visitor', email: 'm@example.com', phone: '07700 900123', siteAddress: VISITOR_POSTCODE });
    expect(job.items.map((i) => i.analysisId)).toEqual([analysis.id]);

    // Another account cannot make a job from it.
    const { client: other } = await registerClient(server);
    expect((await other.post('/api/jobs', { leadId: leads.leads[0]!.id })).status).toBe(404);
  });

  it('empty, with a customer; a name is needed', async () => {
    const job = await jobOf(await owner.post('/api/jobs', { customer: { name: 'Sam Birch' } }), 201);
    expect(job.items).toEqual([]);
    expect(job.totals).toEqual({ net: '0.00', vat: '0.00', gross: '0.00' });
    const nameless = await owner.post('/api/jobs', { analysisIds: [] });
    expect(nameless.status).toBe(400);
  });
});

describe('pricing a job', () => {
  it('adds a typed line, optional, left out of the totals until the customer chooses it', async () => {
    const tree = await analysisIdOf(owner, 'conifer, 12 inch trunk, 30 ft tall');
    const job = await jobOf(await owner.post('/api/jobs', { analysisIds: [tree], customer: { name: 'Jo Hedge' } }), 201);
    await owner.request('PATCH', `/api/jobs/${job.id}`, { items: [{ id: job.items[0]!.id, price: '600' }] });
    const withLine = await jobOf(
      await owner.post(`/api/jobs/${job.id}/lines`, { description: 'Reduce the beech hedge along the drive by 1 m', price: '175', optional: true }),
      201,
    );
    expect(withLine.items.at(-1)).toMatchObject({ kind: 'line', description: 'Reduce the beech hedge along the drive by 1 m', price: '175.00', optional: true, estimate: null });
    expect(withLine.totals.gross).toBe('600.00');
    expect(withLine.totalsWithOptional.gross).toBe('775.00');
  });

  it('sets prices, rounds them by the rule in Pricing, and works VAT out exactly', async () => {
    const job = await jobOf(await owner.post('/api/jobs', { customer: { name: 'Pat VAT' } }), 201);
    await jobOf(await owner.post(`/api/jobs/${job.id}/lines`, { description: 'Grind three stumps', price: '233.33' }), 201);
    const second = await jobOf(await owner.post(`/api/jobs/${job.id}/lines`, { description: 'Crown reduction', price: '451.17' }), 201);
    expect(second.totals.gross).toBe('684.50');

    expect((await owner.request('PATCH', '/api/system-settings', { quoteRounding: '10' })).status).toBe(200);
    const rounded = await jobOf(await owner.request('PATCH', `/api/jobs/${job.id}`, { roundPrices: true }));
    expect(rounded.items.map((i) => i.price)).toEqual(['230.00', '450.00']);
    expect(rounded.totals).toEqual({ net: '680.00', vat: '0.00', gross: '680.00' });
    await owner.request('PATCH', '/api/system-settings', { quoteRounding: '5' });

    // A VAT-registered surgeon's quote shows prices including VAT; the VAT in them is 1/6.
    const pricing = await owner.get('/api/system-settings');
    const rules = ((await pricing.json()) as { pricing: Record<string, unknown> }).pricing;
    expect((await owner.request('PATCH', '/api/system-settings', { pricing: { ...rules, vatMode: 'inc' } })).status).toBe(200);
    const inc = await jobOf(await owner.post('/api/jobs', { customer: { name: 'Inc Customer' } }), 201);
    expect(inc.vatMode).toBe('inc');
    await owner.post(`/api/jobs/${inc.id}/lines`, { description: 'Fell the leylandii', price: '1225' });
    const priced = await jobOf(await owner.get(`/api/jobs/${inc.id}`));
    // 122,500p / 6 = 20,416.67p: VAT £204.17, net £1,020.83, and the customer pays £1,225.00.
    expect(priced.totals).toEqual({ net: '1020.83', vat: '204.17', gross: '1225.00' });
    await owner.request('PATCH', '/api/system-settings', { pricing: { ...rules, vatMode: 'none' } });
  });

  it('changes words, optional and customer; removes an item; refuses a bad price and an item of another job', async () => {
    const job = await jobOf(await owner.post('/api/jobs', { customer: { name: 'Alex' } }), 201);
    const a = await jobOf(await owner.post(`/api/jobs/${job.id}/lines`, { description: 'Hedge', price: '100' }), 201);
    const b = await jobOf(await owner.post(`/api/jobs/${job.id}/lines`, { description: 'Stump', price: '80' }), 201);
    const [hedge, stump] = b.items;
    const changed = await jobOf(
      await owner.request('PATCH', `/api/jobs/${job.id}`, {
        customer: { name: 'Alex Rowan', phone: '01632 960123', siteAddress: 'The Old Rectory' },
        items: [{ id: hedge!.id, description: 'Trim the hedge', optional: true }],
        removeItemIds: [stump!.id],
      }),
    );
    expect(changed.customer).toEqual({ name: 'Alex Rowan', email: null, phone: '01632 960123', siteAddress: 'The Old Rectory' });
    expect(changed.items).toEqual([expect.objectContaining({ id: hedge!.id, description: 'Trim the hedge', optional: true, price: '100.00' })]);
    expect(a.items).toHaveLength(1);

    for (const price of ['-1', '12.345', 'ten', '1000000.01']) {
      const res = await owner.request('PATCH', `/api/jobs/${job.id}`, { items: [{ id: hedge!.id, price }] });
      expect(res.status, price).toBe(400);
    }
    const other = await jobOf(await owner.post('/api/jobs', { customer: { name: 'Other' } }), 201);
    const otherLine = await jobOf(await owner.post(`/api/jobs/${other.id}/lines`, { description: 'x', price: '1' }), 201);
    const res = await owner.request('PATCH', `/api/jobs/${job.id}`, { items: [{ id: otherLine.items[0]!.id, price: '5' }] });
    expect(res.status).toBe(404);
    expect((await jobOf(await owner.get(`/api/jobs/${other.id}`))).items[0]!.price).toBe('1.00');
  });

  it('keeps an accepted quote as it was: 409 on any change', async () => {
    const job = await jobOf(await owner.post('/api/jobs', { customer: { name: 'Locked' } }), 201);
    const line = await jobOf(await owner.post(`/api/jobs/${job.id}/lines`, { description: 'Fell', price: '500' }), 201);
    server.db.update(jobs).set({ status: 'accepted' }).where(eq(jobs.id, job.id)).run();
    const patch = await owner.request('PATCH', `/api/jobs/${job.id}`, { items: [{ id: line.items[0]!.id, price: '1' }] });
    expect(patch.status).toBe(409);
    expect(await patch.json()).toEqual({ message: JOB_LOCKED_MESSAGE, code: 'CONFLICT' });
    expect((await owner.post(`/api/jobs/${job.id}/lines`, { description: 'More', price: '1' })).status).toBe(409);
    expect((await jobOf(await owner.get(`/api/jobs/${job.id}`))).items[0]!.price).toBe('500.00');
  });
});

describe('whose jobs', () => {
  it("lists only the account's own; another account's job is a 404 to read or change", async () => {
    const job = await jobOf(await owner.post('/api/jobs', { customer: { name: 'Mine' } }), 201);
    const { client: other } = await registerClient(server);
    expect(jobListSchema.parse(await (await other.get('/api/jobs')).json()).jobs).toEqual([]);
    expect((await other.get(`/api/jobs/${job.id}`)).status).toBe(404);
    expect((await other.request('PATCH', `/api/jobs/${job.id}`, { customer: { name: 'Stolen' } })).status).toBe(404);
    expect((await other.post(`/api/jobs/${job.id}/lines`, { description: 'x', price: '1' })).status).toBe(404);
    expect((await jobOf(await owner.get(`/api/jobs/${job.id}`))).customer.name).toBe('Mine');
    const mine = jobListSchema.parse(await (await owner.get('/api/jobs')).json()).jobs;
    expect(mine[0]!.id).toBe(job.id);
  });
});
