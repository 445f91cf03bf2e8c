import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publicQuoteResponseSchema } from '../../core/quote-versions';
import { settingsResponseSchema } from '../../core/settings';
import { jobBookResponseSchema } from '../../core/job-booking';
import { NESTING_CHECK } from '../../core/protection';
import type { FakePlanning } from '../../testing/fake-planning';
import { acceptedLineJob, bookJob, startProtectionWorld } from '../../testing/protection';
import { analyze } from '../../testing/analysis';
import { createBusinessFor } from '../../testing/business';
import { registerClient, startTestServer, type TestClient, type TestServer } from '../../testing/harness';
import { jobOf } from '../../testing/jobs';
import { pdfText } from '../../testing/quote';
import { sendQuoteTo, sentLinesJob } from '../../testing/quote-links';

/*
 * What protected trees put on paper and in front of the customer, over HTTP against the fake
 * postcodes.io and planning data (testing/fake-planning.ts): the section 211 notice drafted from
 * the job's estimate, the customer copy's line frozen when the quote is sent, the refusal's date
 * in words, and the account's own nesting season. The test clock starts on 2026-06-01.
 */
let server: TestServer;
let fake: FakePlanning;
let owner: TestClient;

let close: () => Promise<void>;

beforeAll(async () => {
  ({ server, fake, owner, close } = await startProtectionWorld());
});
afterAll(() => close());

async function analysisId(description: string): Promise<number> {
  const res = await analyze(owner, { description });
  expect(res.status, await res.clone().text()).toBe(201);
  return ((await res.json()) as { analysis: { id: number } }).analysis.id;
}

describe('the section 211 notice', () => {
  it("drafts the notice from the estimate: each tree's species, height and trunk against 7.5 cm, the work, the council and area, the business and the date", async () => {
    const oak = await analysisId('oak, 20 inch trunk, 50 ft tall');
    const sapling = await analysisId('birch, 2 inch trunk, 10 ft tall');
    const job = await jobOf(await owner.post('/api/jobs', { analysisIds: [oak, sapling], customer: { name: 'Sam Hill', siteAddress: '1 Clifton Down Road, Bristol BS8 4AA' } }), 201);
    await owner.post(`/api/jobs/${job.id}/lines`, { description: 'Reduce the laurel hedge by 1 m', price: '120' });
    await owner.get(`/api/jobs/${job.id}/protection`);

    const res = await owner.get(`/api/jobs/${job.id}/section-211.pdf`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="section-211-${job.reference}.pdf"`);
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    const text = (await pdfText(Buffer.from(await res.arrayBuffer()))).text.replace(/\s+/g, ' ');
    expect(text).toContain('Notice of intent to carry out works to trees in a conservation area');
    expect(text).toContain('Town and Country Planning Act 1990, section 211');
    expect(text).toContain('To: Bristol City Council');
    expect(text).toContain('Conservation area: Clifton');
    expect(text).toContain('1 Clifton Down Road, Bristol BS8 4AA');
    expect(text).toContain('Tree 1: Oak');
    expect(text).toContain('Trunk 20 in (50.8 cm) across: over the 7.5 cm threshold, so notice is needed');
    expect(text).toContain('Tree 2: Birch');
    expect(text).toContain('Trunk 2 in (5.1 cm) across: under 7.5 cm, so this tree needs no notice');
    expect(text).toContain('Height about 50 ft (15 m). Trunk 20 in (50.8 cm) across');
    expect(text).toContain(job.items[0]!.description);
    expect(text).toContain('Other work on the job: Reduce the laurel hedge by 1 m');
    expect(text).toContain('Birch Brothers');
    expect(text).toContain('office@birch.example');
    expect(text).toContain('Date of this notice: 1 June 2026');
    expect(text).toContain('We will not start the work until 6 weeks after the council receives this notice');
  });

  it("is a 404 on another account's job and a 401 signed out", async () => {
    const job = await jobOf(await owner.post('/api/jobs', { customer: { name: 'Sam Hill', siteAddress: '1 Clifton Down Road, Bristol BS8 4AA' } }), 201);
    const other = (await registerClient(server)).client;
    expect((await other.get(`/api/jobs/${job.id}/section-211.pdf`)).status).toBe(404);
    expect((await fetch(`${server.url}/api/jobs/${job.id}/section-211.pdf`)).status).toBe(401);
  });
});

describe("the customer's copy", () => {
  const quoteOf = async (token: string) => publicQuoteResponseSchema.parse(await (await fetch(`${server.url}/api/quotes/${token}`)).json()).quote;

  it('carries the conservation area line with the earliest start six weeks after the notice, on the page and the PDF', async () => {
    const made = await jobOf(await owner.post('/api/jobs', { customer: { name: 'Sam Hill', email: 'sam@example.com', siteAddress: '1 Clifton Down Road, Bristol BS8 4AA' } }), 201);
    await owner.post(`/api/jobs/${made.id}/lines`, { description: 'Fell the sycamore by the wall', price: '400' });
    await owner.get(`/api/jobs/${made.id}/protection`);
    await owner.request('PUT', `/api/jobs/${made.id}/protection/record`, { outcome: 's211_notice_sent', on: '2026-05-29' });
    const { token } = await sendQuoteTo(server, owner, made.id, 'sam@example.com');
    const line = "The site is in a conservation area: we give the council six weeks' notice before the work, so the earliest start is 10 July 2026";
    expect((await quoteOf(token)).protectionNotice).toBe(line);
    const page = await (await fetch(`${server.url}/quote/${token}`)).text();
    expect(page).toContain(`<p data-protection>The site is in a conservation area: we give the council six weeks&#39; notice before the work, so the earliest start is 10 July 2026.</p>`);
    const pdf = await fetch(`${server.url}/api/quotes/${token}/quote.pdf`);
    expect((await pdfText(Buffer.from(await pdf.arrayBuffer()))).text.replace(/\s+/g, ' ')).toContain('so the earliest start is 10 July 2026.');
  });

  it('counts six weeks from the day it is sent when no notice is recorded yet; the TPO line asks for consent', async () => {
    const { token } = await sentLinesJob(server, owner, { name: 'Sam Hill', email: 'sam2@example.com', siteAddress: '1 Clifton Down Road, Bristol BS8 4AA' }, [{ description: 'Fell the ash', price: '300' }]);
    expect((await quoteOf(token)).protectionNotice).toBe("The site is in a conservation area: we give the council six weeks' notice before the work, so the earliest start is 13 July 2026");
    const tpo = await sentLinesJob(server, owner, { name: 'Sam Hill', email: 'sam3@example.com', siteAddress: '11 Montpellier Walk, Cheltenham GL50 1QA' }, [{ description: 'Reduce the lime', price: '300' }]);
    expect((await quoteOf(tpo.token)).protectionNotice).toBe("A Tree Preservation Order may cover trees at this site: we ask the council's consent before the work, so the start date depends on its answer");
  });

  it('has no line, and no key in the copy, where nothing was found or the council said it is not protected', async () => {
    const none = await sentLinesJob(server, owner, { name: 'Sam Hill', email: 'sam4@example.com', siteAddress: '4 Otley Road, Leeds LS6 2AB' }, [{ description: 'Fell the ash', price: '300' }]);
    const body = (await (await fetch(`${server.url}/api/quotes/${none.token}`)).json()) as { quote: Record<string, unknown> };
    expect('protectionNotice' in body.quote).toBe(false);
    expect(await (await fetch(`${server.url}/quote/${none.token}`)).text()).not.toContain('data-protection');

    const made = await jobOf(await owner.post('/api/jobs', { customer: { name: 'Sam Hill', siteAddress: '1 Clifton Down Road, Bristol BS8 4AA' } }), 201);
    await owner.post(`/api/jobs/${made.id}/lines`, { description: 'Fell the ash', price: '300' });
    await owner.request('PUT', `/api/jobs/${made.id}/protection/record`, { outcome: 'not_protected', on: '2026-05-28', reference: 'Checked by phone' });
    const { token } = await sendQuoteTo(server, owner, made.id, 'sam5@example.com');
    expect((await quoteOf(token)).protectionNotice).toBeUndefined();
  });
});

describe('booking', () => {
  const acceptedJob = (email: string, line: string) => acceptedLineJob(server, owner, email, '1 Clifton Down Road, Bristol BS8 4AA', line);
  const book = (jobId: number, body: unknown) => bookJob(server, owner, jobId, body);

  it('refuses a date before the earliest start naming it in words', async () => {
    const jobId = await acceptedJob('book1@example.com', 'Fell the sycamore by the wall');
    await owner.request('PUT', `/api/jobs/${jobId}/protection/record`, { outcome: 's211_notice_sent', on: '2026-06-01' });
    const early = await book(jobId, { date: '2026-07-06' });
    expect(early.status).toBe(409);
    expect(await early.json()).toMatchObject({
      code: 'PROTECTION_NOTICE',
      message: "The earliest start after the council's notice is 13 July 2026. Choose that day or later, or book anyway with a reason.",
      details: { earliestStart: ['2026-07-13'] },
    });
  });

  it("checks for nesting birds in the account's own season, across the new year if set so; a day that is not a date is refused", async () => {
    const jobId = await acceptedJob('book2@example.com', 'Fell the sycamore by the wall');
    await owner.request('PUT', `/api/jobs/${jobId}/protection/record`, { outcome: 'not_protected', on: '2026-06-01' });
    const set = await owner.request('PATCH', '/api/system-settings', { nestingSeason: { from: '11-01', to: '02-28' } });
    expect(set.status, await set.clone().text()).toBe(200);
    expect(settingsResponseSchema.parse(await set.json()).nestingSeason).toEqual({ from: '11-01', to: '02-28' });

    const june = await book(jobId, { date: '2026-06-15' });
    expect(june.status, await june.clone().text()).toBe(200);
    expect(jobBookResponseSchema.parse(await june.json()).nestingCheck).toBeNull();
    const january = await book(jobId, { date: '2027-01-11' });
    expect(jobBookResponseSchema.parse(await january.json()).nestingCheck).toBe(NESTING_CHECK);
    const protection = (await (await owner.get(`/api/jobs/${jobId}/protection`)).json()) as { protection: { nesting: unknown; nestingCheck: string | null } };
    expect(protection.protection).toMatchObject({ nesting: { from: '11-01', to: '02-28' }, nestingCheck: NESTING_CHECK });

    const bad = await owner.request('PATCH', '/api/system-settings', { nestingSeason: { from: '02-30', to: '08-31' } });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ details: { 'nestingSeason.from': ['Enter the day as MM-DD, for example 03-01 for 1 March'] } });
    const back = await owner.request('PATCH', '/api/system-settings', { nestingSeason: { from: '03-01', to: '08-31' } });
    expect(settingsResponseSchema.parse(await back.json()).nestingSeason).toEqual({ from: '03-01', to: '08-31' });
  });
});

describe('the Jobs list', () => {
  it('"waiting on the council": jobs still to do held by a missing notice or an earliest start to come; not after the council said not protected; never another account\'s', async () => {
    const other = (await registerClient(server)).client;
    const ids = (body: unknown) => (body as { jobs: { id: number }[] }).jobs.map((j) => j.id);
    const held = await jobOf(await owner.post('/api/jobs', { customer: { name: 'Held', siteAddress: '1 Clifton Down Road, Bristol BS8 4AA' } }), 201);
    const noticed = await jobOf(await owner.post('/api/jobs', { customer: { name: 'Noticed', siteAddress: '2 Clifton Down Road, Bristol BS8 4AA' } }), 201);
    const cleared = await jobOf(await owner.post('/api/jobs', { customer: { name: 'Cleared', siteAddress: '3 Clifton Down Road, Bristol BS8 4AA' } }), 201);
    const elsewhere = await jobOf(await owner.post('/api/jobs', { customer: { name: 'Leeds', siteAddress: '4 Otley Road, Leeds LS6 2AB' } }), 201);
    const theirs = await jobOf(await other.post('/api/jobs', { customer: { name: 'Theirs', siteAddress: '5 Clifton Down Road, Bristol BS8 4AA' } }), 201);
    for (const id of [held.id, noticed.id, cleared.id, elsewhere.id]) await owner.get(`/api/jobs/${id}/protection`);
    await other.get(`/api/jobs/${theirs.id}/protection`);
    await owner.request('PUT', `/api/jobs/${noticed.id}/protection/record`, { outcome: 's211_notice_sent', on: '2026-05-30' });
    await owner.request('PUT', `/api/jobs/${cleared.id}/protection/record`, { outcome: 'not_protected', on: '2026-05-30' });

    const listed = ids(await (await owner.get('/api/jobs?waiting=council')).json());
    expect(listed).toContain(held.id);
    expect(listed).toContain(noticed.id);
    expect(listed).not.toContain(cleared.id);
    expect(listed).not.toContain(elsewhere.id);
    expect(listed).not.toContain(theirs.id);
    expect(ids(await (await owner.get('/api/jobs?waiting=council&q=Noticed')).json())).toEqual([noticed.id]);
    const bad = await owner.get('/api/jobs?waiting=everyone');
    expect(bad.status).toBe(400);
  });
});

describe("the homeowner's request screen", () => {
  it('notes a conservation area or a TPO under the postcode, says nothing otherwise, asks each postcode once, and refuses what is not a postcode', async () => {
    const business = await createBusinessFor(owner);
    const note = async (postcode: string) => {
      const res = await fetch(`${server.url}/api/businesses/${business.slug}/site-note?postcode=${encodeURIComponent(postcode)}`);
      expect(res.status, await res.clone().text()).toBe(200);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      return ((await res.json()) as { note: string | null }).note;
    };
    expect(await note('bs8 4aa')).toBe("This address is in a conservation area: the council must be given six weeks' notice before most tree work, so the work may need to wait.");
    expect(await note('GL501QA')).toBe("A Tree Preservation Order may cover trees here: the council's consent is needed before the work.");
    expect(await note('LS6 2AB')).toBeNull();
    expect(await note('SW1A 2AA')).toBeNull();

    const asked = fake.requests.length;
    expect(await note('BS8 4AA')).not.toBeNull();
    expect(fake.requests.length).toBe(asked);

    const bad = await fetch(`${server.url}/api/businesses/${business.slug}/site-note?postcode=${encodeURIComponent('<script>')}`);
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ details: { postcode: ['Enter a full UK postcode, e.g. LS6 2AB'] } });
    expect((await fetch(`${server.url}/api/businesses/${business.slug}/site-note?postcode=${'A'.repeat(5000)}`)).status).toBe(400);
    expect((await fetch(`${server.url}/api/businesses/no-such-business/site-note?postcode=BS8%204AA`)).status).toBe(404);
  });

  it('says nothing with lookups off', async () => {
    const off = await startTestServer({ POSTCODE_LOOKUP_URL: fake.url, PLANNING_DATA_URL: fake.url, PROTECTION_LOOKUPS: 'off' });
    try {
      const { client } = await registerClient(off);
      const business = await createBusinessFor(client);
      const asked = fake.requests.length;
      const res = await fetch(`${off.url}/api/businesses/${business.slug}/site-note?postcode=BS8%204AA`);
      expect(await res.json()).toEqual({ note: null });
      expect(fake.requests.length).toBe(asked);
    } finally {
      await off.close();
    }
  });
});
