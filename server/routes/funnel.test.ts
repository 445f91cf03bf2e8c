import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { funnelResponseSchema, leadListSchema } from '../../core/business';
import { jobResponseSchema } from '../../core/jobs';
import { grantTo } from '../../testing/analysis';
import { createBusinessFor, visitorAnalyze, visitorLead } from '../../testing/business';
import { registerClient, startTestServer, TestClient, type TestServer } from '../../testing/harness';
import { acceptQuote, sendQuoteTo } from '../../testing/quote-links';

/*
 * The business's funnel (docs/embedding.md, The funnel): per UTC day, counted on our server with no cookie
 * or visitor data: loads (the widget's lookup), photos (the widget's report), estimates,
 * needs-details answers and leads. Owner only; loads and photos count at most 20 an hour
 * from one address, so a script cannot inflate them cheaply.
 */
let server: TestServer;
let owner: TestClient;
beforeAll(async () => {
  server = await startTestServer();
  const registered = await registerClient(server);
  owner = registered.client;
  grantTo(server, registered.account.username, 100);
});
afterAll(() => server.close());

const lookup = (slug: string) => fetch(`${server.url}/api/businesses/${slug}`, { headers: { origin: 'https://oakandash.example' } });
const report = (slug: string, body: unknown) =>
  fetch(`${server.url}/api/businesses/${slug}/events`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: 'https://oakandash.example' },
    body: JSON.stringify(body),
  });
async function funnelResponse(id: number, query = '') {
  const res = await owner.get(`/api/businesses/${id}/funnel${query}`);
  expect(res.status).toBe(200);
  return funnelResponseSchema.parse(await res.json());
}
const funnel = async (id: number, query = '') => (await funnelResponse(id, query)).days;

describe('GET /api/businesses/{id}/funnel', () => {
  it('counts loads, photos, estimates, needs-details answers, leads and their trees for the day, every day present', async () => {
    const business = await createBusinessFor(owner);
    for (let i = 0; i < 3; i += 1) expect((await lookup(business.slug)).status).toBe(200);
    for (let i = 0; i < 2; i += 1) expect((await report(business.slug, { event: 'photo' })).status).toBe(204);
    const estimate = await visitorAnalyze(server, business.slug);
    expect(estimate.status).toBe(201);
    expect((await visitorAnalyze(server, business.slug, { description: '' })).status).toBe(200);
    const { analysis, leadToken } = await estimate.json();
    expect((await visitorLead(server, business.slug, { analysisId: analysis.id, leadToken, name: 'Visitor', email: 'v@example.com', phone: '', note: '' })).status).toBe(201);

    const days = await funnel(business.id);
    expect(days).toHaveLength(30);
    const today = server.clock.now().toISOString().slice(0, 10);
    expect(days.at(-1)).toEqual({ date: today, loads: 3, photos: 2, estimates: 1, needsDetails: 1, leads: 1, trees: 1, turnedAway: 0 });
    expect(days[0]).toEqual({ date: new Date(Date.parse(`${today}T00:00:00Z`) - 29 * 86_400_000).toISOString().slice(0, 10), loads: 0, photos: 0, estimates: 0, needsDetails: 0, leads: 0, trees: 0, turnedAway: 0 });
    expect(days.map((d) => d.date)).toEqual([...days.map((d) => d.date)].sort());

    // The next UTC day starts from nothing; yesterday keeps its counts.
    server.clock.advance(24 * 60 * 60 * 1000);
    await lookup(business.slug);
    const next = await funnel(business.id, '?days=2');
    expect(next.map((d) => [d.date, d.loads])).toEqual([
      [today, 3],
      [server.clock.now().toISOString().slice(0, 10), 1],
    ]);
  });

  it('counts at most 20 loads and photos an hour from one address, while still answering', async () => {
    const business = await createBusinessFor(owner);
    for (let i = 0; i < 25; i += 1) expect((await lookup(business.slug)).status).toBe(200);
    for (let i = 0; i < 25; i += 1) expect((await report(business.slug, { event: 'photo' })).status).toBe(204);
    expect((await funnel(business.id, '?days=1'))[0]).toMatchObject({ loads: 20, photos: 20 });
  });

  it('takes only the events the widget alone sees, from the sites the business lists', async () => {
    const business = await createBusinessFor(owner, { allowedOrigins: ['https://oakandash.example'] });
    expect((await report(business.slug, { event: 'estimate' })).status).toBe(400);
    const elsewhere = await fetch(`${server.url}/api/businesses/${business.slug}/events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'https://copycat.example' },
      body: JSON.stringify({ event: 'photo' }),
    });
    expect(elsewhere.status).toBe(403);
    expect((await funnel(business.id, '?days=1'))[0]).toMatchObject({ photos: 0, estimates: 0 });
  });

  it("counts its leads' quotes sent and accepted over the same days, and the accepted value with the options chosen", async () => {
    const business = await createBusinessFor(owner);
    const other = await createBusinessFor(owner);
    expect((await funnelResponse(business.id)).quotes).toEqual({ sent: 0, accepted: 0, acceptedValue: '0.00' });

    // Two requests through the estimator; a job from each, both sent, one accepted with its optional line.
    const jobs = [];
    for (const name of ['Rowan Visitor', 'Hazel Visitor']) {
      const { analysis, leadToken } = await (await visitorAnalyze(server, business.slug)).json();
      expect((await visitorLead(server, business.slug, { analysisId: analysis.id, leadToken, name, email: 'v@example.com' })).status).toBe(201);
    }
    const leads = leadListSchema.parse(await (await owner.get(`/api/businesses/${business.id}/leads`)).json()).leads;
    for (const lead of leads) {
      const made = jobResponseSchema.parse(await (await owner.post('/api/jobs', { leadId: lead.id })).json()).job;
      const priced = await owner.request('PATCH', `/api/jobs/${made.id}`, { items: [{ id: made.items[0]!.id, price: '420' }] });
      expect(priced.status).toBe(200);
      const withLine = jobResponseSchema.parse(await (await owner.post(`/api/jobs/${made.id}/lines`, { description: 'Grind the stump', price: '80.50', optional: true })).json()).job;
      const { token } = await sendQuoteTo(server, owner, made.id, 'v@example.com');
      jobs.push({ items: withLine.items, token });
    }
    const [accepted] = jobs;
    expect((await acceptQuote(server, accepted!.token, [accepted!.items[1]!.id])).status).toBe(200);
    // A job of the owner's own, from no lead of this business, is not the business's.
    const own = jobResponseSchema.parse(await (await owner.post('/api/jobs', { customer: { name: 'Walk-in', email: 'w@example.com' } })).json()).job;
    await owner.post(`/api/jobs/${own.id}/lines`, { description: 'Hedge', price: '100' });
    await sendQuoteTo(server, owner, own.id, 'w@example.com');

    // £420.00 and the £80.50 stump chosen (no VAT charged, or VAT included in the prices: the same total).
    expect((await funnelResponse(business.id)).quotes).toEqual({ sent: 2, accepted: 1, acceptedValue: '500.50' });
    expect((await funnelResponse(other.id)).quotes).toEqual({ sent: 0, accepted: 0, acceptedValue: '0.00' });

    // The window is the funnel's: two days on, the last day alone holds none of them; the last three all.
    server.clock.advance(2 * 24 * 60 * 60 * 1000);
    expect((await funnelResponse(business.id, '?days=1')).quotes).toEqual({ sent: 0, accepted: 0, acceptedValue: '0.00' });
    expect((await funnelResponse(business.id, '?days=3')).quotes).toEqual({ sent: 2, accepted: 1, acceptedValue: '500.50' });
  });

  it("is the owner's alone, and checks its days", async () => {
    const business = await createBusinessFor(owner);
    const other = await registerClient(server);
    expect((await other.client.get(`/api/businesses/${business.id}/funnel`)).status).toBe(404);
    expect((await new TestClient(server).get(`/api/businesses/${business.id}/funnel`)).status).toBe(401);
    for (const days of ['0', '91', 'x', '1.5']) expect((await owner.get(`/api/businesses/${business.id}/funnel?days=${days}`)).status).toBe(400);
    expect(await funnel(business.id, '?days=90')).toHaveLength(90);
  });
});
