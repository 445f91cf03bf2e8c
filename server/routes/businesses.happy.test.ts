import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analysisListSchema } from '../../core/analysis';
import { businessListSchema, businessResponseSchema, leadListSchema, leadResponseSchema, publicBusinessSchema } from '../../core/business';
import { LEAD_THANKS } from '../../core/embed';
import { balanceOf, ledgerSum } from '../credits/ledger';
import { findUserByUsername } from '../accounts/users';
import { RateLimits } from '../http/rate-limit';
import { grantTo } from '../../testing/analysis';
import { createBusinessFor, visitorAnalyze, visitorLead } from '../../testing/business';
import { registerClient, startTestServer, type TestClient, type TestServer } from '../../testing/harness';
import { addressedTo, decodeQuotedPrintable } from '../../testing/mail';

let server: TestServer;
let owner: TestClient;
let ownerName: string;
let ownerEmail: string;
beforeAll(async () => {
  server = await startTestServer({}, { rateLimits: new RateLimits({ embedAnalysesPerAddress: { points: 1000, windowSeconds: 60 } }) });
  const a = await registerClient(server, { firstName: 'Rowan' });
  owner = a.client;
  ownerName = a.account.username;
  ownerEmail = a.account.email;
});
afterAll(() => server.close());

/** The outbox mail to `to`, waiting briefly: lead e-mails are sent after the answer. */
async function outboxMailTo(to: string): Promise<string> {
  const dir = join(server.dataDir, 'outbox');
  for (let i = 0; i < 50; i += 1) {
    const files = await readdir(dir).catch(() => [] as string[]);
    for (const file of files) {
      const raw = decodeQuotedPrintable(await readFile(join(dir, file), 'utf8'));
      if (addressedTo(raw, to) && raw.includes('quote request')) return raw;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no lead e-mail to ${to}`);
}

describe('an owner manages businesses', () => {
  it('creates, lists, edits and deletes, with name, slug, rate and instructions plus origins, cap and accent', async () => {
    const created = await createBusinessFor(owner, {
      name: 'Green Oak Tree Care',
      slug: 'green-oak-tree-care',
      hourlyRate: '45.5',
      aiInstructions: '   ',
      allowedOrigins: ['https://www.greenoak.example/', 'https://greenoak.example'],
      accentColor: '#1D4ED8',
    });
    expect(created).toMatchObject({
      name: 'Green Oak Tree Care',
      slug: 'green-oak-tree-care',
      hourlyRate: '45.50',
      aiInstructions: null,
      allowedOrigins: ['https://www.greenoak.example', 'https://greenoak.example'],
      dailyCap: 50,
      accentColor: '#1d4ed8',
      // UK tree surgeons measure in metres: a business asks and answers in metric unless told.
      units: 'metric',
      analysesToday: 0,
    });

    const list = businessListSchema.parse(await (await owner.get('/api/businesses')).json());
    expect(list.businesses.map((b) => b.slug)).toContain('green-oak-tree-care');

    const patched = await owner.request('PATCH', `/api/businesses/${created.id}`, {
      hourlyRate: '70',
      aiInstructions: 'Mention our free stump grinding',
      allowedOrigins: [],
      dailyCap: 5,
      accentColor: null,
      units: 'imperial',
    });
    expect(patched.status).toBe(200);
    expect(businessResponseSchema.parse(await patched.json()).business).toMatchObject({
      name: 'Green Oak Tree Care',
      hourlyRate: '70.00',
      aiInstructions: 'Mention our free stump grinding',
      allowedOrigins: [],
      dailyCap: 5,
      accentColor: null,
      units: 'imperial',
    });
    expect((await (await fetch(`${server.url}/api/businesses/green-oak-tree-care`)).json()).units).toBe('imperial');
    const refused = await owner.request('PATCH', `/api/businesses/${created.id}`, { units: 'furlongs' });
    expect(refused.status).toBe(400);

    const deleted = await owner.request('DELETE', `/api/businesses/${created.id}`);
    expect(deleted.status).toBe(200);
    const after = businessListSchema.parse(await (await owner.get('/api/businesses')).json());
    expect(after.businesses.map((b) => b.id)).not.toContain(created.id);
    expect((await fetch(`${server.url}/api/businesses/green-oak-tree-care`)).status).toBe(404);
  });
});

describe('a visitor on the business site', () => {
  it('reads the public business: name, rate, accent and status only', async () => {
    const business = await createBusinessFor(owner, { hourlyRate: '55.00', accentColor: '#14532d' });
    const res = await fetch(`${server.url}/api/businesses/${business.slug}`, { headers: { origin: 'https://anywhere.example' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
    const body = await res.json();
    expect(body).toEqual({
      name: business.name,
      slug: business.slug,
      hourlyRate: '55.00',
      accentColor: '#14532d',
      status: 'unavailable',
      units: 'metric',
      sizesFromPhoto: false,
    });
    expect(publicBusinessSchema.parse(body)).toBeTruthy();
  });

  it('gets an estimate at the business rate, paid by the owner, requests a quote, and the owner is told', async () => {
    grantTo(server, ownerName, 20);
    const business = await createBusinessFor(owner, { hourlyRate: '60.00' });
    expect((await (await fetch(`${server.url}/api/businesses/${business.slug}`)).json()).status).toBe('available');

    const res = await visitorAnalyze(server, business.slug, { description: 'oak, 16 inch trunk, 40 ft tall' }, { origin: 'https://customer-site.example' });
    expect(res.status).toBe(201);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    const { analysis, cost, leadToken } = await res.json();
    expect(analysis.species).toBe('Oak');
    expect(analysis.hourlyRate).toBe('60.00');
    expect(cost).toEqual(analysis.cost);
    // The visitor sees the estimate, not the owner's photo route, notes or settings.
    for (const key of ['imageUrl', 'description', 'feedback', 'businessName', 'calibratedFromJobs', 'calibratedFrom', 'provider']) {
      expect(analysis).not.toHaveProperty(key);
    }

    const lead = await visitorLead(server, business.slug, {
      analysisId: analysis.id,
      leadToken,
      name: 'Jo Customer',
      email: 'jo@customer.example',
      phone: '',
      note: 'Can you come on a Saturday?',
      website: '',
    });
    expect(lead.status).toBe(201);
    expect(await lead.json()).toEqual({ message: LEAD_THANKS, outsideArea: false, reference: expect.stringMatching(/^R-\d{6}$/) });

    const leads = leadListSchema.parse(await (await owner.get(`/api/businesses/${business.id}/leads`)).json()).leads;
    expect(leads).toHaveLength(1);
    expect(leads[0]).toMatchObject({
      analysisId: analysis.id,
      name: 'Jo Customer',
      email: 'jo@customer.example',
      phone: null,
      note: 'Can you come on a Saturday?',
      contactedAt: null,
      estimate: { species: 'Oak', imageUrl: `/api/analysis/${analysis.id}/image`, cost: analysis.cost },
    });

    const mail = await outboxMailTo(ownerEmail);
    expect(mail).toContain(`Subject: New quote request for ${business.name} from Jo Customer`);
    expect(mail).toContain('Hello Rowan,');
    expect(mail).toContain('jo@customer.example');
    expect(mail).toContain('Can you come on a Saturday?');
    expect(mail).toContain(`${server.url}/history/${analysis.id}`);

    const marked = await owner.request('PATCH', `/api/businesses/${business.id}/leads/${leads[0]!.id}`, { contacted: true });
    expect(leadResponseSchema.parse(await marked.json()).lead.contactedAt).toBe(server.clock.now().toISOString());

    // The owner's history has it, marked as from the embed; the photo is theirs to see.
    const history = analysisListSchema.parse(await (await owner.get('/api/analyses')).json()).analyses;
    expect(history.find((a) => a.id === analysis.id)).toMatchObject({ source: 'embed', businessName: business.name });
    expect((await owner.get(`/api/analysis/${analysis.id}/image`)).status).toBe(200);

    const user = findUserByUsername(server.db, ownerName)!;
    expect(balanceOf(server.db, user.id)).toBe(10);
    expect(ledgerSum(server.db, user.id)).toBe(10);
  });
});
