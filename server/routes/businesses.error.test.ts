import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REQUIRED_FIELDS_MESSAGE, SLUG_TAKEN_MESSAGE } from '../../core/business';
import { LEAD_THANKS, visitorLimitMessage } from '../../core/embed';
import { RateLimits } from '../http/rate-limit';
import { grantTo, photo } from '../../testing/analysis';
import { createBusinessFor, visitorAnalyze, visitorLead } from '../../testing/business';
import { registerClient, startTestServer, type TestClient, type TestServer } from '../../testing/harness';
import { outboxCount } from '../../testing/mail';

let server: TestServer;
let owner: TestClient;
let ownerName: string;
const SMALL_PHOTO = photo('redbud-small-tree.jpg');

beforeAll(async () => {
  // The default limits, as a real install has them.
  server = await startTestServer({}, { rateLimits: new RateLimits() });
  const a = await registerClient(server);
  owner = a.client;
  ownerName = a.account.username;
});
afterAll(() => server.close());

describe('business form validation', () => {
  it('names missing required fields with the one message', async () => {
    for (const body of [{}, { name: 'A', slug: 'a' }, { name: ' ', slug: 'a', hourlyRate: '10' }, { name: 'A', slug: 'a', hourlyRate: '' }]) {
      const res = await owner.post('/api/businesses', body);
      expect(res.status).toBe(400);
      expect((await res.json()).message).toBe(REQUIRED_FIELDS_MESSAGE);
    }
  });

  it('refuses bad slugs, rates, origins, caps and colours, field by field', async () => {
    const valid = { name: 'Birch Co', slug: 'birch-co', hourlyRate: '10' };
    const cases: [Record<string, unknown>, string][] = [
      [{ slug: 'Birch Co!' }, 'slug'],
      [{ slug: '-birch' }, 'slug'],
      [{ hourlyRate: '-5' }, 'hourlyRate'],
      [{ hourlyRate: '12.345' }, 'hourlyRate'],
      [{ allowedOrigins: ['https://example.com/page'] }, 'allowedOrigins'],
      [{ allowedOrigins: ['ftp://example.com'] }, 'allowedOrigins'],
      [{ allowedOrigins: Array.from({ length: 21 }, (_, i) => `https://s${i}.example`) }, 'allowedOrigins'],
      [{ dailyCap: 0 }, 'dailyCap'],
      [{ dailyCap: 2.5 }, 'dailyCap'],
      [{ accentColor: 'green' }, 'accentColor'],
      [{ aiInstructions: 'x'.repeat(2001) }, 'aiInstructions'],
    ];
    for (const [change, field] of cases) {
      const res = await owner.post('/api/businesses', { ...valid, ...change });
      expect(res.status, JSON.stringify(change)).toBe(400);
      expect(Object.keys((await res.json()).details), JSON.stringify(change)).toContain(field);
    }
    expect((await owner.get('/api/businesses')).status).toBe(200);
    expect((await (await owner.get('/api/businesses')).json()).businesses).toEqual([]);
  });

  it('says a taken slug is taken (409), whoever holds it', async () => {
    const first = await createBusinessFor(owner);
    const other = (await registerClient(server)).client;
    const res = await other.post('/api/businesses', { name: 'Copy', slug: first.slug, hourlyRate: '10' });
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({ code: 'CONFLICT', message: SLUG_TAKEN_MESSAGE });
  });

  it('keeps name and slug fixed after creation (embeds point at the slug)', async () => {
    const business = await createBusinessFor(owner);
    const res = await owner.request('PATCH', `/api/businesses/${business.id}`, { slug: 'renamed', name: 'Renamed', hourlyRate: '11' });
    expect(res.status).toBe(200);
    expect((await res.json()).business).toMatchObject({ slug: business.slug, name: business.name, hourlyRate: '11.00' });
  });
});

describe('leads: validation and limits', () => {
  let slug: string;
  /** Three estimates, each with the token that proves it (the analysis answer's leadToken). */
  const proofs: { analysisId: number; leadToken: string }[] = [];

  beforeAll(async () => {
    grantTo(server, ownerName, 60);
    const business = await createBusinessFor(owner);
    slug = business.slug;
    for (let i = 0; i < 3; i += 1) {
      const res = await visitorAnalyze(server, slug, { image: SMALL_PHOTO });
      const body = await res.json();
      proofs.push({ analysisId: body.analysis.id, leadToken: body.leadToken });
    }
  });

  it('refuses a lead without a name, without any contact, or with bad contact details', async () => {
    const proof = proofs[0]!;
    const cases: [Record<string, unknown>, string][] = [
      [{ ...proof, email: 'a@example.com' }, 'name'],
      [{ ...proof, name: 'Jo' }, 'email'],
      [{ ...proof, name: 'Jo', email: 'not-an-email' }, 'email'],
      [{ ...proof, name: 'Jo', phone: 'call me' }, 'phone'],
      [{ ...proof, name: 'Jo', phone: '12' }, 'phone'],
      [{ ...proof, name: 'x'.repeat(101), email: 'a@example.com' }, 'name'],
      [{ ...proof, name: 'Jo\r\nBcc: x@evil.example', email: 'a@example.com' }, 'name'],
      [{ ...proof, name: 'Jo', email: 'a@example.com', note: 'x'.repeat(1001) }, 'note'],
      [{ leadToken: proof.leadToken, name: 'Jo', email: 'a@example.com' }, 'analysisId'],
      [{ analysisId: proof.analysisId, name: 'Jo', email: 'a@example.com' }, 'leadToken'],
      [{ ...proof, leadToken: 'x'.repeat(10_000), name: 'Jo', email: 'a@example.com' }, 'leadToken'],
    ];
    for (const [body, field] of cases) {
      const res = await visitorLead(server, slug, body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(Object.keys((await res.json()).details)).toContain(field);
    }
  });

  it('answers a filled honeypot like a success and stores nothing', async () => {
    const mails = outboxCount(server.dataDir);
    const res = await visitorLead(server, slug, { ...proofs[0]!, name: 'Bot', email: 'bot@example.com', website: 'http://spam.example' });
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ message: LEAD_THANKS, outsideArea: false, reference: expect.stringMatching(/^R-\d{6}$/) });
    const businessId = (await (await owner.get('/api/businesses')).json()).businesses.find((b: { slug: string }) => b.slug === slug).id;
    expect((await (await owner.get(`/api/businesses/${businessId}/leads`)).json()).leads).toEqual([]);
    await new Promise((r) => setTimeout(r, 200));
    expect(outboxCount(server.dataDir)).toBe(mails);
  });

  it('takes one lead per estimate: the same visitor sending again updates it, and no other business takes it', async () => {
    const first = await visitorLead(server, slug, { ...proofs[1]!, name: 'Jo', phone: '+44 (0)20 7946 0958' });
    expect(first.status).toBe(201);
    const again = await visitorLead(server, slug, { ...proofs[1]!, name: 'Jo Ash', phone: '+44 20 7946 0958' });
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual({ message: LEAD_THANKS, outsideArea: false, reference: expect.stringMatching(/^R-\d{6}$/) });
    const businessId = (await (await owner.get('/api/businesses')).json()).businesses.find((b: { slug: string }) => b.slug === slug).id;
    const leads = (await (await owner.get(`/api/businesses/${businessId}/leads`)).json()).leads as { analysisId: number; name: string; phone: string }[];
    expect(leads.filter((lead) => lead.analysisId === proofs[1]!.analysisId)).toEqual([
      expect.objectContaining({ name: 'Jo Ash', phone: '+44 20 7946 0958' }),
    ]);

    const elsewhere = await createBusinessFor(owner);
    const wrong = await visitorLead(server, elsewhere.slug, { ...proofs[2]!, name: 'Jo', email: 'jo@example.com' });
    expect(wrong.status).toBe(404);
    const unknown = await visitorLead(server, 'no-such-business', { ...proofs[2]!, name: 'Jo', email: 'jo@example.com' });
    expect(unknown.status).toBe(404);
  });

  it('limits leads per address (5 an hour) and visitor analyses per address (10 an hour)', async () => {
    // Earlier tests in this file spent some of both budgets from this address.
    let lead: Response | undefined;
    for (let i = 0; i < 6; i += 1) {
      lead = await visitorLead(server, slug, { ...proofs[2]!, name: 'Jo', email: 'jo@example.com' });
      if (lead.status === 429) break;
    }
    expect(lead?.status).toBe(429);
    expect(Number(lead?.headers.get('retry-after'))).toBeGreaterThan(0);

    grantTo(server, ownerName, 200);
    let analysis: Response | undefined;
    for (let i = 0; i < 11; i += 1) {
      analysis = await visitorAnalyze(server, slug, { image: SMALL_PHOTO });
      if (analysis.status === 429) break;
    }
    expect(analysis?.status).toBe(429);
    // The visitor's own limit, with the wait, never the business's "busy".
    const refusal = await analysis!.json();
    expect(refusal.code).toBe('VISITOR_LIMIT');
    expect(refusal.error).toBe(visitorLimitMessage(Number(analysis!.headers.get('retry-after'))));
  });
});
