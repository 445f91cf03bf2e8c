import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobBookResponseSchema } from '../../core/job-booking';
import { NESTING_CHECK, protectionResponseSchema, type Protection } from '../../core/protection';
import { errorBodySchema } from '../../core/errors';
import { startFakePlanning, type FakePlanning } from '../../testing/fake-planning';
import { acceptedLineJob, bookJob, startProtectionWorld } from '../../testing/protection';
import { leadListSchema } from '../../core/business';
import { createLogger } from '../log';
import { retryFailedLookups } from '../protection/lookup';
import { createBusinessFor, visitorAnalyze, visitorLead } from '../../testing/business';
import { registerClient, startTestServer, type TestClient, type TestServer } from '../../testing/harness';
import { jobOf } from '../../testing/jobs';
import { addressedTo, decodeQuotedPrintable, outboxMessages } from '../../testing/mail';

/*
 * Protected trees over HTTP against one fake of postcodes.io and planning.data.gov.uk
 * (testing/fake-planning.ts): a job's postcode looked up and kept, in words that never say "not
 * protected"; a service down, slow, or not knowing the postcode leaves the job "not checked"; the
 * surgeon's record sets the earliest start, which booking keeps unless confirmed with a reason;
 * felling in the nesting months carries the nesting line into the booking and its calendar file.
 * The test clock starts on 2026-06-01, inside the nesting months.
 */
let server: TestServer;
let fake: FakePlanning;
let owner: TestClient;

let close: () => Promise<void>;

beforeAll(async () => {
  ({ server, fake, owner, close } = await startProtectionWorld());
});
afterAll(() => close());

async function protectionOf(res: Response, status = 200): Promise<Protection> {
  expect(res.status, await res.clone().text()).toBe(status);
  return protectionResponseSchema.parse(await res.json()).protection;
}

async function jobAt(siteAddress: string | null, client = owner): Promise<number> {
  return (await jobOf(await client.post('/api/jobs', { customer: { name: 'Sam Hill', siteAddress } }), 201)).id;
}

/** The calendar attachment of a raw message, decoded by its transfer encoding. */
function calendarText(raw: string): string {
  const part = raw.slice(raw.search(/Content-Type: text\/calendar/i));
  const split = part.search(/\r?\n\r?\n/);
  const headers = part.slice(0, split);
  const body = part.slice(split).replace(/^\r?\n\r?\n/, '');
  const encoded = body.slice(0, body.search(/\r?\n--/));
  const encoding = /Content-Transfer-Encoding: *([\w-]+)/i.exec(headers)?.[1]?.toLowerCase();
  if (encoding === 'base64') return Buffer.from(encoded.replace(/\s+/g, ''), 'base64').toString('utf8');
  return encoding === 'quoted-printable' ? Buffer.from(decodeQuotedPrintable(encoded), 'latin1').toString('utf8') : encoded;
}

const lookup = (jobId: number) => owner.get(`/api/jobs/${jobId}/protection`);

describe('the lookup', () => {
  it('finds the conservation area and the council of the postcode ending the site address', async () => {
    const found = await protectionOf(await lookup(await jobAt('1 Clifton Down Road, Bristol BS8 4AA')));
    expect(found.lookup).toMatchObject({
      status: 'found',
      postcode: 'BS8 4AA',
      council: { name: 'Bristol City Council', website: 'https://www.bristol.gov.uk/' },
      conservationAreas: [{ name: 'Clifton', reference: 'CA-CLIFTON' }],
      preservationZones: [],
      protectedTrees: [],
      checkedAt: server.clock.now().toISOString(),
      source: `${fake.url} ${fake.url}`,
      words: ['In the Clifton conservation area (Bristol City Council)'],
    });
    expect(found.record).toBeNull();
    expect(found.missing).toEqual(['s211_notice']);
    expect(found.nesting).toEqual({ from: '03-01', to: '08-31' });
    // Only the postcode and its point went out, and the geometry was not asked for.
    expect(fake.requests.some((r) => r.startsWith('/postcodes/BS8%204AA'))).toBe(true);
    expect(fake.requests.find((r) => r.startsWith('/entity.json'))).toContain('exclude_field=geometry%2Cpoint');
  });

  it('finds a Tree Preservation Order zone, which holds booking until consent', async () => {
    const found = await protectionOf(await lookup(await jobAt('11 Montpellier Walk, Cheltenham GL50 1QA')));
    expect(found.lookup).toMatchObject({ status: 'found', preservationZones: [{ name: 'Montpellier Walk', reference: 'TPO-0421' }], council: { name: 'Cheltenham Borough Council' } });
    expect(found.lookup.words).toEqual(['A Tree Preservation Order area covers this postcode']);
    expect(found.missing).toEqual(['tpo_consent']);
  });

  it('says none found in incomplete data, never "not protected"', async () => {
    const found = await protectionOf(await lookup(await jobAt('2 Cardigan Road, Leeds LS6 2AB')));
    expect(found.lookup.status).toBe('none_found');
    expect(found.lookup.words).toEqual(['None found in the public data, which is incomplete: check with Leeds City Council']);
    expect(JSON.stringify(found)).not.toMatch(/not protected/i);
    expect(found.missing).toEqual([]);
  });

  it('keeps a postcode the service does not know as failed, "Not checked yet"', async () => {
    const found = await protectionOf(await lookup(await jobAt('10 Downing Street, London SW1A 2AA')));
    expect(found.lookup).toMatchObject({ status: 'failed', postcode: 'SW1A 2AA', council: null, words: ['Not checked yet'] });
    expect(found.missing).toEqual([]);
  });

  it('asks nothing for a job without a postcode', async () => {
    const before = fake.requests.length;
    const found = await protectionOf(await lookup(await jobAt('The Old Rectory, Lower Slaughter')));
    expect(found.lookup).toMatchObject({ status: 'not_checked', postcode: null, words: ['Not checked yet'] });
    expect(fake.requests.length).toBe(before);
  });

  it('a service down is kept as failed, asked again an hour on or when asked, and found then', async () => {
    const jobId = await jobAt('3 Royal York Crescent, Bristol BS8 4AA');
    fake.setMode('planning', 'down');
    expect((await protectionOf(await lookup(jobId))).lookup.status).toBe('failed');
    fake.setMode('planning', 'ok');
    const before = fake.requests.length;
    // Within the hour a GET does not ask again.
    expect((await protectionOf(await lookup(jobId))).lookup.status).toBe('failed');
    expect(fake.requests.length).toBe(before);
    expect((await protectionOf(await owner.post(`/api/jobs/${jobId}/protection/lookup`))).lookup.status).toBe('found');
  });

  it('a slow service is given up; the job reads "not checked"', async () => {
    const jobId = await jobAt('4 Clifton Park, Bristol BS8 4AA');
    // The fake never answers in 'slow': an answer at all is the lookup's own timeout (no wall-clock verdict).
    fake.setMode('postcodes', 'slow');
    try {
      expect((await protectionOf(await owner.post(`/api/jobs/${jobId}/protection/lookup`))).lookup.words).toEqual(['Not checked yet']);
    } finally {
      fake.setMode('postcodes', 'ok');
    }
  });

  it("looks up a quote request's own postcode, not the one its address may end in", async () => {
    const business = await createBusinessFor(owner);
    const estimate = await visitorAnalyze(server, business.slug);
    expect(estimate.status, await estimate.clone().text()).toBe(201);
    const { analysis, leadToken } = (await estimate.json()) as { analysis: { id: number }; leadToken: string };
    const sent = await visitorLead(server, business.slug, { name: 'Jo Park', phone: '07700 900123', postcode: 'bs84aa', trees: [{ analysisId: analysis.id, leadToken }] });
    expect(sent.status, await sent.clone().text()).toBe(201);
    const [lead] = leadListSchema.parse(await (await owner.get(`/api/businesses/${business.id}/leads`)).json()).leads;
    const job = await jobOf(await owner.post('/api/jobs', { leadId: lead!.id }), 201);
    expect((await jobOf(await owner.request('PATCH', `/api/jobs/${job.id}`, { customer: { name: 'Jo Park', siteAddress: '2 Cardigan Road, Leeds LS6 2AB' } }))).customer.siteAddress).toBe('2 Cardigan Road, Leeds LS6 2AB');
    const found = await protectionOf(await lookup(job.id));
    expect(found.lookup).toMatchObject({ status: 'found', postcode: 'BS8 4AA', conservationAreas: [{ name: 'Clifton' }] });
  });

  it('a service that refuses the connection: failed, and the hourly housekeeping asks again an hour on', async () => {
    const closed = await startFakePlanning();
    const url = closed.url;
    await closed.close();
    const refusing = await startTestServer({ POSTCODE_LOOKUP_URL: url, PLANNING_DATA_URL: url });
    try {
      const { client } = await registerClient(refusing);
      const jobId = (await jobOf(await client.post('/api/jobs', { customer: { name: 'Sam Hill', siteAddress: '1 Clifton Down Road, Bristol BS8 4AA' } }), 201)).id;
      expect((await protectionOf(await client.get(`/api/jobs/${jobId}/protection`))).lookup).toMatchObject({ status: 'failed', words: ['Not checked yet'] });
      // The service is back (the config now points at the live fake): within the hour nothing is asked, after it the lookup is made.
      const deps = { db: refusing.db, clock: refusing.clock, config: { ...refusing.config, protection: { lookups: true, postcodeUrl: fake.url, planningUrl: fake.url } }, logger: createLogger({ level: 'silent' }) };
      expect(await retryFailedLookups(deps)).toBe(0);
      refusing.clock.advance(61 * 60_000);
      expect(await retryFailedLookups(deps)).toBe(1);
      expect((await protectionOf(await client.get(`/api/jobs/${jobId}/protection`))).lookup.status).toBe('found');
    } finally {
      await refusing.close();
    }
  });

  it("is a 404 on another account's job", async () => {
    const jobId = await jobAt('1 Clifton Down Road, Bristol BS8 4AA');
    const { client: stranger } = await registerClient(server);
    for (const res of [
      await stranger.get(`/api/jobs/${jobId}/protection`),
      await stranger.post(`/api/jobs/${jobId}/protection/lookup`),
      await stranger.request('PUT', `/api/jobs/${jobId}/protection/record`, { outcome: 'exempt', on: '2026-06-01' }),
    ]) {
      expect(res.status).toBe(404);
    }
  });
});

describe('with lookups off', () => {
  it('PROTECTION_LOOKUPS=off sends nothing, whatever the addresses', async () => {
    const off = await startTestServer({ POSTCODE_LOOKUP_URL: fake.url, PLANNING_DATA_URL: fake.url, PROTECTION_LOOKUPS: 'off' });
    try {
      const { client } = await registerClient(off);
      const before = fake.requests.length;
      const jobId = (await jobOf(await client.post('/api/jobs', { customer: { name: 'Sam Hill', siteAddress: '1 Clifton Down Road, Bristol BS8 4AA' } }), 201)).id;
      expect((await protectionOf(await client.post(`/api/jobs/${jobId}/protection/lookup`))).lookup.status).toBe('not_checked');
      expect(fake.requests.length).toBe(before);
    } finally {
      await off.close();
    }
  });

  it('a test server given no fake (the tests\' default) asks nothing and says "Not checked yet"', async () => {
    const quiet = await startTestServer();
    try {
      const { client } = await registerClient(quiet);
      const before = fake.requests.length;
      const found = await protectionOf(await client.get(`/api/jobs/${await jobAt('1 Clifton Down Road, Bristol BS8 4AA', client)}/protection`));
      expect(found.lookup).toMatchObject({ status: 'not_checked', postcode: 'BS8 4AA', words: ['Not checked yet'] });
      expect(fake.requests.length).toBe(before);
    } finally {
      await quiet.close();
    }
  });
});

describe("the surgeon's record", () => {
  it('a section 211 notice sets the earliest start six weeks on', async () => {
    const jobId = await jobAt('1 Clifton Down Road, Bristol BS8 4AA');
    await lookup(jobId);
    const saved = await protectionOf(await owner.request('PUT', `/api/jobs/${jobId}/protection/record`, { outcome: 's211_notice_sent', on: '2026-06-01', reference: ' N-12\u202e ', note: 'Posted first class' }));
    expect(saved.record).toMatchObject({ outcome: 's211_notice_sent', on: '2026-06-01', reference: 'N-12', note: 'Posted first class' });
    expect(saved.earliestStart).toBe('2026-07-13');
    expect(saved.missing).toEqual([]);
  });

  it('refuses an outcome or a date it does not know', async () => {
    const jobId = await jobAt(null);
    for (const body of [{ outcome: 'maybe', on: '2026-06-01' }, { outcome: 'exempt', on: '2026-02-30' }, { outcome: 'exempt' }]) {
      const res = await owner.request('PUT', `/api/jobs/${jobId}/protection/record`, body);
      expect(res.status).toBe(400);
      expect(errorBodySchema.parse(await res.json()).code).toBe('VALIDATION_ERROR');
    }
  });
});

describe('booking', () => {
  const CUSTOMER = 'homeowner@example.com';

  const acceptedJob = (siteAddress: string, line: string) => acceptedLineJob(server, owner, CUSTOMER, siteAddress, line);
  const book = (jobId: number, body: unknown) => bookJob(server, owner, jobId, body);

  it('in a conservation area: held until a notice, refused before six weeks with the date, confirmed with a reason, the nesting line in the booking and its calendar', async () => {
    const jobId = await acceptedJob('1 Clifton Down Road, Bristol BS8 4AA', 'Fell the sycamore by the wall');
    await lookup(jobId);
    const held = await book(jobId, { date: '2026-06-10' });
    expect(held.status).toBe(409);
    expect(await held.json()).toMatchObject({ code: 'PROTECTION_NOTICE', details: { earliestStart: [], missing: ['s211_notice'] } });

    await owner.request('PUT', `/api/jobs/${jobId}/protection/record`, { outcome: 's211_notice_sent', on: '2026-06-01' });
    const early = await book(jobId, { date: '2026-07-06' });
    expect(early.status).toBe(409);
    expect(await early.json()).toMatchObject({ code: 'PROTECTION_NOTICE', details: { earliestStart: ['2026-07-13'], missing: [] } });

    const confirmed = await book(jobId, { date: '2026-07-06', confirmProtection: { reason: 'The council agreed by phone to an earlier start' } });
    expect(confirmed.status, await confirmed.clone().text()).toBe(200);
    expect(jobBookResponseSchema.parse(await confirmed.json()).nestingCheck).toBe(NESTING_CHECK);
    expect((await protectionOf(await lookup(jobId))).confirmation).toEqual({ reason: 'The council agreed by phone to an earlier start', at: server.clock.now().toISOString() });
    const mail = outboxMessages(server.dataDir).reverse().find((m) => addressedTo(m.text, CUSTOMER) && /text\/calendar/i.test(m.raw));
    expect(calendarText(mail!.raw).replace(/\r?\n /g, '')).toContain('Check for nesting birds before starting');

    const onTime = await book(jobId, { date: '2026-07-13' });
    expect(onTime.status, await onTime.clone().text()).toBe(200);
    expect((await protectionOf(await lookup(jobId))).nestingCheck).toBe(NESTING_CHECK);
  });

  it('a TPO zone: refused until consent is recorded, whatever the date; dead or dangerous five working days on', async () => {
    const jobId = await acceptedJob('11 Montpellier Walk, Cheltenham GL50 1QA', 'Deadwood the lime');
    await lookup(jobId);
    const held = await book(jobId, { date: '2026-12-01' });
    expect(held.status).toBe(409);
    expect(errorBodySchema.parse(await held.json())).toMatchObject({ code: 'PROTECTION_NOTICE', details: { earliestStart: [], missing: ['tpo_consent'] } });
    // Friday 29 May 2026 + five working days: Friday 5 June (a record is never dated after today).
    await owner.request('PUT', `/api/jobs/${jobId}/protection/record`, { outcome: 'dead_or_dangerous', on: '2026-05-29' });
    expect(((await (await book(jobId, { date: '2026-06-04' })).json()) as { details: unknown }).details).toEqual({ earliestStart: ['2026-06-05'], missing: [] });
    await owner.request('PUT', `/api/jobs/${jobId}/protection/record`, { outcome: 'tpo_consent', on: '2026-06-01', reference: '26/00421/TPO' });
    const res = await book(jobId, { date: '2026-06-11' });
    expect(res.status, await res.clone().text()).toBe(200);
    // Deadwooding is neither felling, a reduction nor hedge work.
    expect(jobBookResponseSchema.parse(await res.json()).nestingCheck).toBeNull();
  });

  it('a failed lookup books as today, and work outside the nesting months carries no line', async () => {
    const jobId = await acceptedJob('10 Downing Street, London SW1A 2AA', 'Fell the sycamore by the wall');
    expect((await protectionOf(await lookup(jobId))).lookup.status).toBe('failed');
    const res = await book(jobId, { date: '2026-10-05' });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(jobBookResponseSchema.parse(await res.json()).nestingCheck).toBeNull();
    expect((await protectionOf(await lookup(jobId))).nestingCheck).toBeNull();
  });
});
