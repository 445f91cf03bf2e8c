import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { businessResponseSchema, leadListSchema, type Lead } from '../../core/business';
import { errorBodySchema } from '../../core/errors';
import { LEAD_THANKS } from '../../core/embed';
import { POSTCODE_INVALID, POSTCODE_REQUIRED } from '../../core/postcode';
import { grantTo } from '../../testing/analysis';
import { createBusinessFor, visitorAnalyze, visitorLead } from '../../testing/business';
import { registerClient, startTestServer, type TestClient, type TestServer } from '../../testing/harness';
import { leadMailFor } from '../../testing/mail';
import { RateLimits } from '../http/rate-limit';
import { cpuMsWhile } from '../../testing/cpu-time';

/*
 * The postcode on a quote request and the districts a business covers (docs/product.md, Embed
 * widget: The postcode and the service area): checked as a UK postcode and stored normalised;
 * a request from outside the listed districts is still stored and e-mailed, marked, and the
 * visitor is told. All over HTTP against the real server.
 */
let server: TestServer;
let owner: TestClient;
let ownerEmail: string;
beforeAll(async () => {
  server = await startTestServer(
    {},
    {
      rateLimits: new RateLimits({
        embedAnalysesPerAddress: { points: 1000, windowSeconds: 60 },
        embedAnalysesPerBusiness: { points: 1000, windowSeconds: 60 },
        leadsPerAddress: { points: 1000, windowSeconds: 60 },
      }),
    },
  );
  const registered = await registerClient(server, { firstName: 'Ash' });
  owner = registered.client;
  ownerEmail = registered.account.email;
  grantTo(server, registered.account.username, 1000);
});
afterAll(() => server.close());

async function estimate(slug: string): Promise<{ analysisId: number; leadToken: string }> {
  const res = await visitorAnalyze(server, slug);
  expect(res.status, await res.clone().text()).toBe(201);
  const body = await res.json();
  return { analysisId: body.analysis.id, leadToken: body.leadToken };
}

async function ownerLeads(businessId: number): Promise<Lead[]> {
  const res = await owner.get(`/api/businesses/${businessId}/leads`);
  expect(res.status).toBe(200);
  return leadListSchema.parse(await res.json()).leads;
}

let visitors = 0;
/** A fresh estimate and a request for it from `postcode`; the visitor's name is unique. */
async function request(slug: string, postcode: unknown, extra: Record<string, unknown> = {}) {
  visitors += 1;
  const name = `Visitor ${visitors}`;
  const res = await visitorLead(server, slug, { ...(await estimate(slug)), name, phone: '07700 900123', postcode, ...extra });
  return { res, name };
}

const patch = (id: number, body: unknown) => owner.request('PATCH', `/api/businesses/${id}`, body);

describe('the postcode on a quote request', () => {
  it('is stored normalised whatever its case and spacing, with the address when given', async () => {
    const business = await createBusinessFor(owner);
    const typed: [string, string][] = [
      ['ls62ab', 'LS6 2AB'],
      ['  sw1a   1aa ', 'SW1A 1AA'],
      ['Ec1A1bB', 'EC1A 1BB'],
      ['m1 1ae', 'M1 1AE'],
      ['w1a\t0ax', 'W1A 0AX'],
    ];
    for (const [postcode, stored] of typed) {
      const { res, name } = await request(business.slug, postcode, { address: '  12 Oak Lane, Headingley  ' });
      expect(res.status, await res.clone().text()).toBe(201);
      expect(await res.json()).toEqual({ message: LEAD_THANKS, outsideArea: false, reference: expect.stringMatching(/^R-\d{6}$/) });
      const lead = (await ownerLeads(business.id)).find((l) => l.name === name)!;
      expect(lead).toMatchObject({ postcode: stored, address: '12 Oak Lane, Headingley', outsideArea: false });
    }
    const { res, name } = await request(business.slug, 'LS6 2AB', { address: '   ' });
    expect(res.status).toBe(201);
    expect((await ownerLeads(business.id)).find((l) => l.name === name)).toMatchObject({ postcode: 'LS6 2AB', address: null });
  });

  it('is required, and a wrong one is a 400 that says what to write; nothing is stored', async () => {
    const business = await createBusinessFor(owner);
    const proof = await estimate(business.slug);
    const cases: [unknown, string][] = [
      [undefined, POSTCODE_REQUIRED],
      ['', POSTCODE_REQUIRED],
      ['   ', POSTCODE_REQUIRED],
      [null, POSTCODE_REQUIRED],
      [12345, POSTCODE_REQUIRED],
      ['LS6', POSTCODE_INVALID],
      ['LS6 2CI', POSTCODE_INVALID],
      ['QA1 1AA', POSTCODE_INVALID],
      ['ＬＳ６ ２ＡＢ', POSTCODE_INVALID],
      ['LS6 2AB\u0000', POSTCODE_INVALID],
      ['x'.repeat(10_000), POSTCODE_INVALID],
    ];
    for (const [postcode, message] of cases) {
      const res = await visitorLead(server, business.slug, { ...proof, name: 'Jo', phone: '07700 900123', postcode });
      expect(res.status, String(postcode).slice(0, 20)).toBe(400);
      const body = errorBodySchema.parse(await res.json());
      expect(body.details?.postcode, String(postcode).slice(0, 20)).toEqual([message]);
    }
    expect(POSTCODE_REQUIRED).toBe('Enter your postcode, e.g. LS6 2AB');
    const tooLong = await visitorLead(server, business.slug, { ...proof, name: 'Jo', phone: '07700 900123', address: 'a'.repeat(301) });
    expect(tooLong.status).toBe(400);
    expect(errorBodySchema.parse(await tooLong.json()).details?.address).toEqual(['Address must be at most 300 characters']);
    expect(await ownerLeads(business.id)).toEqual([]);
  });

  it('a 1 MB postcode is refused at once, by the body cap', async () => {
    const business = await createBusinessFor(owner);
    const proof = await estimate(business.slug);
    // CPU time (client and server are this process; testing/cpu-time.ts), not the wall clock.
    const { value: res, cpuMs } = await cpuMsWhile(() => visitorLead(server, business.slug, { ...proof, name: 'Jo', phone: '07700 900123', postcode: 'LS6 2AB'.repeat(150_000) }));
    expect([400, 413]).toContain(res.status);
    expect(cpuMs).toBeLessThan(2_000);
    expect(await ownerLeads(business.id)).toEqual([]);
  });
});

describe('the districts a business covers', () => {
  it('are listed on the business, normalised, and can be changed or emptied', async () => {
    const business = await createBusinessFor(owner, { serviceDistricts: ['ls1', ' LS6 ', 'bd', 'LS1'] });
    expect(business.serviceDistricts).toEqual(['LS1', 'LS6', 'BD']);
    const changed = await patch(business.id, { serviceDistricts: ['w1', 'EC1A'] });
    expect(changed.status).toBe(200);
    expect(businessResponseSchema.parse(await changed.json()).business.serviceDistricts).toEqual(['W1', 'EC1A']);
    // Left out, it stays.
    const rate = await patch(business.id, { hourlyRate: '70.00' });
    expect(businessResponseSchema.parse(await rate.json()).business.serviceDistricts).toEqual(['W1', 'EC1A']);
    const emptied = await patch(business.id, { serviceDistricts: [] });
    expect(businessResponseSchema.parse(await emptied.json()).business.serviceDistricts).toEqual([]);
    const created = await createBusinessFor(owner);
    expect(created.serviceDistricts).toEqual([]);
  });

  it('a bad entry is a 400 that names it, and nothing changes', async () => {
    const business = await createBusinessFor(owner, { serviceDistricts: ['LS6'] });
    const cases: [unknown, RegExp][] = [
      [['LS1', 'Leeds'], /"Leeds" is not a postcode district or area/],
      [['LS6 2AB'], /"2AB" is not a postcode district or area/],
      [['QX1'], /"QX1" is not a postcode district or area/],
      [['x'.repeat(5000)], /is not a postcode district or area/],
      [Array.from({ length: 201 }, (_, i) => `${['LS', 'BD', 'M'][i % 3]}${Math.floor(i / 3) + 1}`), /at most 200/],
      [Array.from({ length: 5_000 }, (_, i) => `A${i}`), /"A100" is not a postcode district or area/],
      ['LS1, LS6', /list of postcode districts/],
      [[1, 2], /list of postcode districts/],
    ];
    for (const [serviceDistricts, message] of cases) {
      const res = await patch(business.id, { serviceDistricts });
      expect(res.status, JSON.stringify(serviceDistricts).slice(0, 40)).toBe(400);
      const body = errorBodySchema.parse(await res.json());
      expect(body.details?.serviceDistricts?.[0], JSON.stringify(serviceDistricts).slice(0, 40)).toMatch(message);
      // The named entry is cut short, never echoed whole.
      expect(body.details!.serviceDistricts![0]!.length).toBeLessThan(120);
    }
    // 10,000 entries: one of them repeated is one district; past the 64 KB body cap, a 413.
    const repeated = await patch(business.id, { serviceDistricts: Array.from({ length: 10_000 }, () => 'm1') });
    expect(businessResponseSchema.parse(await repeated.json()).business.serviceDistricts).toEqual(['M1']);
    expect((await patch(business.id, { serviceDistricts: Array.from({ length: 10_000 }, (_, i) => `LS${i}`) })).status).toBe(413);
    await patch(business.id, { serviceDistricts: ['LS6'] });
    const bad = await owner.post('/api/businesses', { name: 'Bad Districts', slug: 'bad-districts-postcode', hourlyRate: '60.00', serviceDistricts: ['LS1', 'Leeds'] });
    expect(bad.status).toBe(400);
    expect(errorBodySchema.parse(await bad.json()).details?.serviceDistricts?.[0]).toMatch(/"Leeds"/);
    const [own] = (await (await owner.get('/api/businesses')).json()).businesses.filter((b: { id: number }) => b.id === business.id);
    expect(own.serviceDistricts).toEqual(['LS6']);
  });

  it('a request inside is not marked; one outside is still stored and e-mailed, marked, and the visitor is told', async () => {
    const business = await createBusinessFor(owner, { serviceDistricts: ['LS1', 'LS6'] });
    const inside = await request(business.slug, 'ls6 2ab');
    expect(inside.res.status).toBe(201);
    expect(await inside.res.json()).toEqual({ message: LEAD_THANKS, outsideArea: false, reference: expect.stringMatching(/^R-\d{6}$/) });

    const outside = await request(business.slug, 'bd1 1aa', { address: '1 Mill Street, Bradford' });
    expect(outside.res.status).toBe(201);
    expect(await outside.res.json()).toEqual({ message: LEAD_THANKS, outsideArea: true, reference: expect.stringMatching(/^R-\d{6}$/) });

    const leads = await ownerLeads(business.id);
    expect(leads.find((l) => l.name === inside.name)).toMatchObject({ postcode: 'LS6 2AB', outsideArea: false });
    expect(leads.find((l) => l.name === outside.name)).toMatchObject({ postcode: 'BD1 1AA', address: '1 Mill Street, Bradford', outsideArea: true });

    const outsideMail = await leadMailFor(server, ownerEmail, outside.name);
    expect(outsideMail).toContain('Postcode: BD1 1AA');
    expect(outsideMail).toContain('Address: 1 Mill Street, Bradford');
    expect(outsideMail).toContain('Outside the districts you cover (LS1, LS6)');
    const insideMail = await leadMailFor(server, ownerEmail, inside.name);
    expect(insideMail).toContain('Postcode: LS6 2AB');
    expect(insideMail).not.toContain('Outside the districts');

    // The mark is of the request's time: listing BD later does not rewrite it.
    await patch(business.id, { serviceDistricts: ['LS1', 'LS6', 'BD'] });
    expect((await ownerLeads(business.id)).find((l) => l.name === outside.name)?.outsideArea).toBe(true);
  });

  it('an area covers each of its districts, BD1 to BD99, and not B', async () => {
    const business = await createBusinessFor(owner, { serviceDistricts: ['BD'] });
    for (const postcode of ['BD1 1AA', 'bd99 9zz', 'BD23 4QB']) {
      const { res } = await request(business.slug, postcode);
      expect(await res.json(), postcode).toEqual({ message: LEAD_THANKS, outsideArea: false, reference: expect.stringMatching(/^R-\d{6}$/) });
    }
    const { res } = await request(business.slug, 'B33 8TH');
    expect(await res.json()).toEqual({ message: LEAD_THANKS, outsideArea: true, reference: expect.stringMatching(/^R-\d{6}$/) });
  });

  it('an empty list covers everywhere', async () => {
    const business = await createBusinessFor(owner);
    for (const postcode of ['TR1 1AA', 'ZE1 0AA', 'GIR 0AA']) {
      const { res, name } = await request(business.slug, postcode);
      expect(await res.json(), postcode).toEqual({ message: LEAD_THANKS, outsideArea: false, reference: expect.stringMatching(/^R-\d{6}$/) });
      expect((await ownerLeads(business.id)).find((l) => l.name === name)?.outsideArea).toBe(false);
    }
  });

  it('a request sent again for the same estimate is marked by its new postcode', async () => {
    const business = await createBusinessFor(owner, { serviceDistricts: ['LS6'] });
    const proof = await estimate(business.slug);
    const first = await visitorLead(server, business.slug, { ...proof, name: 'Robin Again', phone: '07700 900123', postcode: 'BD1 1AA' });
    expect(await first.json()).toEqual({ message: LEAD_THANKS, outsideArea: true, reference: expect.stringMatching(/^R-\d{6}$/) });
    const again = await visitorLead(server, business.slug, { ...proof, name: 'Robin Again', phone: '07700 900123', postcode: 'LS6 1AA' });
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual({ message: LEAD_THANKS, outsideArea: false, reference: expect.stringMatching(/^R-\d{6}$/) });
    expect((await ownerLeads(business.id)).find((l) => l.name === 'Robin Again')).toMatchObject({ postcode: 'LS6 1AA', outsideArea: false });
  });
});
