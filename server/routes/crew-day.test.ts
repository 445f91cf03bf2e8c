import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobSheetResponseSchema, jobSheetSchema, SITE_CHECK_MESSAGES, SITE_HAZARD_KEYS, siteCheckResponseSchema, type SiteCheckPut } from '../../core/crew-day';
import { jobResponseSchema } from '../../core/jobs';
import { fullSettingsResponseSchema } from '../../core/settings';
import { distanceKm } from '../../core/site-check';
import { jobs, postcodeLocations, siteChecks } from '../../db/schema';
import { grantTo } from '../../testing/analysis';
import { createBusinessFor, visitorAnalyze, visitorLead } from '../../testing/business';
import { FAKE_PLACES, startFakePlanning, type FakePlanning } from '../../testing/fake-planning';
import { startTestServer, TestClient, type TestServer } from '../../testing/harness';
import { analysisIdOf } from '../../testing/jobs';
import { mailSettled } from '../../testing/mail';
import { pdfText } from '../../testing/quote';
import { acceptQuote, BIRCH_PROFILE, ownerWithProfile, sendQuoteTo } from '../../testing/quote-links';
import { inviteAndJoin } from '../../testing/team';
import { RateLimits } from '../http/rate-limit';

/*
 * The crew's day over HTTP (docs/product.md, The crew's day): the job sheet as a crew member reads
 * it (nothing about money anywhere), another crew's or an unbooked job a 404 as another team's,
 * the office's site notes; the site check with every part (hazards and controls, the plan, the
 * aerial rescuer on the crew, what3words, the nearest of three hospitals through the fake
 * postcodes.io), two signatures, a changed check losing them, its PDF read back; hostile bodies.
 * The clock is the harness's, Monday 1 June 2026.
 */

let fake: FakePlanning;
let server: TestServer;
let owner: TestClient;
let sam: Awaited<ReturnType<typeof inviteAndJoin>>;
let kit: Awaited<ReturnType<typeof inviteAndJoin>>;
let pat: Awaited<ReturnType<typeof inviteAndJoin>>;
let ana: Awaited<ReturnType<typeof inviteAndJoin>>;
let stranger: TestClient;
let blue: number;
let green: number;
const ids = {} as Record<'leeds' | 'green' | 'unbooked' | 'bristol' | 'noCrew' | 'fromLead', number>;

const TODAY = '2026-06-01';
const HOSPITALS = [
  { name: 'Bristol Royal Infirmary', postcode: 'bs28hw' },
  { name: "St James's University Hospital", postcode: 'LS9 7TF' },
  { name: 'Leeds General Infirmary', postcode: 'LS1 3EX' },
];

async function acceptedJob(name: string, opts: { trees?: string[]; lines?: string[]; siteAddress?: string; phone?: string }): Promise<number> {
  const analysisIds: number[] = [];
  for (const description of opts.trees ?? []) analysisIds.push(await analysisIdOf(owner, description));
  const email = `${name.split(' ')[0]!.toLowerCase()}@example.com`;
  const made = await owner.post('/api/jobs', { analysisIds, customer: { name, email, phone: opts.phone, siteAddress: opts.siteAddress ?? '3 Elm Road, Leeds LS6 2AB' } });
  expect(made.status, await made.clone().text()).toBe(201);
  const { id } = jobResponseSchema.parse(await made.json()).job;
  for (const line of opts.lines ?? []) expect((await owner.post(`/api/jobs/${id}/lines`, { description: line, price: '200' })).status).toBe(201);
  const { token } = await sendQuoteTo(server, owner, id, email);
  expect((await acceptQuote(server, token, [], true)).status).toBe(200);
  await mailSettled(server);
  return id;
}

async function book(jobId: number, date: string, days: number, crewId: number | null, note?: string): Promise<void> {
  const res = await owner.post(`/api/jobs/${jobId}/book`, { date, startTime: '08:00', days, ...(crewId !== null && { crewId }), ...(note && { note }) });
  expect(res.status, await res.clone().text()).toBe(200);
  await mailSettled(server);
}

/** Every key in an answer that names money (as the roles matrix checks crews' answers). */
const MONEY_KEY = /price|total|amount|pence|deposit|paid|owed|rate|vat|credit|balance|bank|cost/i;
function moneyKeys(value: unknown, path = ''): string[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => moneyKeys(v, `${path}[${i}]`));
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => [...(MONEY_KEY.test(k) ? [`${path}.${k}`] : []), ...moneyKeys(v, `${path}.${k}`)]);
  return [];
}

/** Every hazard answered: overhead lines present (with controls), the rest not. */
function aCheck(rescuerId: number, overrides: Partial<SiteCheckPut['emergency']> = {}): SiteCheckPut {
  return {
    hazards: SITE_HAZARD_KEYS.map((key) => (key === 'overhead_lines' ? { key, present: true, controls: 'Lines 4 m from the crown: no climbing on the road side, goalkeeper watches' } : { key, present: false })),
    emergency: { meetingPoint: 'The front gate on Elm Road', vehicleAccess: 'Ambulance to the front drive, 20 m from the tree', aerialRescuerId: rescuerId, what3words: 'filled.count.soap', signalNote: 'Good signal on site', ...overrides },
  };
}

async function checkOf(res: Response, status = 200) {
  expect(res.status, await res.clone().text()).toBe(status);
  return siteCheckResponseSchema.strict().parse(await res.json()).siteCheck;
}

beforeAll(async () => {
  fake = await startFakePlanning();
  server = await startTestServer({ POSTCODE_LOOKUP_URL: fake.url, PLANNING_DATA_URL: fake.url }, { rateLimits: new RateLimits({ registrationsPerAddress: { points: 1000, windowSeconds: 3600 } }) });
  const registered = await ownerWithProfile(server, { ...BIRCH_PROFILE });
  owner = registered.client;
  grantTo(server, registered.account.username, 100);
  sam = await inviteAndJoin(server, owner, 'crew', { name: 'Sam Field' });
  kit = await inviteAndJoin(server, owner, 'crew', { name: 'Kit Moss' });
  pat = await inviteAndJoin(server, owner, 'crew', { name: 'Pat Green' });
  ana = await inviteAndJoin(server, owner, 'office', { name: 'Ana Ruiz' });
  const made = async (body: unknown) => ((await (await owner.post('/api/crews', body)).json()) as { crew: { id: number } }).crew.id;
  blue = await made({ name: 'Blue crew', memberIds: [sam.memberId, kit.memberId], equipment: [{ name: 'Niftylift HR21', kind: 'mewp' }, { name: 'Timberwolf chipper', kind: 'chipper' }] });
  green = await made({ name: 'Green crew', memberIds: [pat.memberId] });

  ids.leeds = await acceptedJob('Priya Shah', { trees: ['oak, 16 inch trunk, 40 ft tall'], lines: ['Take the wood away'], phone: '07700 900456' });
  ids.green = await acceptedJob('Gil Hart', { lines: ['Crown lift the sycamore'] });
  ids.unbooked = await acceptedJob('Una Lowe', { lines: ['Trim the hedge'] });
  ids.bristol = await acceptedJob('Bea Clift', { lines: ['Fell the ash'], siteAddress: '8 Clifton Down, Bristol BS8 4AA' });
  ids.noCrew = await acceptedJob('Nat Free', { lines: ['Reduce the beech'] });

  await book(ids.leeds, TODAY, 2, blue, 'Park on the drive');
  await book(ids.green, TODAY, 1, green);
  // Accepted, never booked, yet named on Blue: still not the crew's to open.
  server.db.update(jobs).set({ crewId: blue }).where(eq(jobs.id, ids.unbooked)).run();
  // The conservation area's notice was sent in April, so June is after the six weeks.
  expect((await owner.request('PUT', `/api/jobs/${ids.bristol}/protection/record`, { outcome: 's211_notice_sent', on: '2026-04-01' })).status).toBe(200);
  await book(ids.bristol, '2026-06-02', 1, blue);
  await book(ids.noCrew, TODAY, 1, null);

  // A job from a website request whose visitor said the crew comes through a side gate.
  const business = await createBusinessFor(owner);
  const estimate = (await (await visitorAnalyze(server, business.slug, { siteDetails: { access: 'side_gate' } })).json()) as { analysis: { id: number }; leadToken: string };
  expect((await visitorLead(server, business.slug, { analysisId: estimate.analysis.id, leadToken: estimate.leadToken, name: 'Lee Dunn', email: 'lee@example.com' })).status).toBe(201);
  const leads = (await (await owner.get(`/api/businesses/${business.id}/leads`)).json()) as { leads: { id: number }[] };
  const fromLead = await owner.post('/api/jobs', { leadId: leads.leads[0]!.id });
  expect(fromLead.status, await fromLead.clone().text()).toBe(201);
  ids.fromLead = jobResponseSchema.parse(await fromLead.json()).job.id;
  const sent = await sendQuoteTo(server, owner, ids.fromLead, 'lee@example.com');
  expect((await acceptQuote(server, sent.token, [], true)).status).toBe(200);
  await book(ids.fromLead, TODAY, 1, blue);

  stranger = (await ownerWithProfile(server)).client;
});
afterAll(async () => {
  await server.close();
  await fake.close();
});

describe('the job sheet', () => {
  it('gives a crew member of the job’s crew what they need on site, and nothing about money', async () => {
    const res = await sam.client.get(`/api/jobs/${ids.leeds}/sheet`);
    const text = await res.clone().text();
    expect(res.status, text).toBe(200);
    const body: unknown = await res.json();
    // The answer's shape, as the crew's screens read it (dashboard/crew/api.ts).
    expect(jobSheetResponseSchema.strict().safeParse(body).success).toBe(true);
    const parsed = jobSheetSchema.strict().parse((body as { sheet: unknown }).sheet);
    const leeds = FAKE_PLACES['LS6 2AB']!;
    expect(parsed).toMatchObject({
      jobId: ids.leeds,
      customer: { name: 'Priya Shah', phone: '07700 900456' },
      siteAddress: '3 Elm Road, Leeds LS6 2AB',
      postcode: 'LS6 2AB',
      location: { latitude: leeds.latitude, longitude: leeds.longitude },
      mapUrl: `https://www.openstreetmap.org/?mlat=${leeds.latitude.toFixed(6)}&mlon=${leeds.longitude.toFixed(6)}#map=18/${leeds.latitude.toFixed(6)}/${leeds.longitude.toFixed(6)}`,
      what3words: null,
      bookingNote: 'Park on the drive',
      booking: { date: TODAY, startTime: '08:00', days: 2 },
      lines: [{ description: 'Take the wood away' }],
      crew: {
        id: blue,
        name: 'Blue crew',
        members: [
          { id: kit.memberId, name: 'Kit Moss' },
          { id: sam.memberId, name: 'Sam Field' },
        ],
        kit: [
          { name: 'Niftylift HR21', kind: 'mewp', windLimitMs: 12.5 },
          { name: 'Timberwolf chipper', kind: 'chipper', windLimitMs: null },
        ],
      },
      siteCheck: { complete: false },
      work: { minutesOnSite: 0, state: 'not_started', days: [], startedWithoutCheck: null },
      status: 'booked',
    });
    expect(parsed.trees).toHaveLength(1);
    const [tree] = parsed.trees;
    expect(tree!.kind.toLowerCase()).toContain('oak');
    expect(tree!.heightM).toBeCloseTo(12.2, 1);
    expect(tree!.trunkCm).toBeCloseTo(40.6, 1);
    expect(tree!.work.length).toBeGreaterThan(0);
    expect(tree!.photoUrl).toBe(`/api/jobs/${ids.leeds}/sheet/photos/${tree!.itemId}`);
    expect(tree!.protection).toBeNull();
    expect(parsed.siteCheck.missing.length).toBeGreaterThan(0);
    // No money at all: no "£", and no key anywhere that names a price, total or deposit.
    expect(text).not.toContain('£');
    expect(moneyKeys(body)).toEqual([]);

    // The tree's photo is the crew's to load, through the sheet's own route.
    const photo = await sam.client.get(tree!.photoUrl!);
    expect(photo.status).toBe(200);
    expect(photo.headers.get('content-type')).toBe('image/jpeg');
    expect((await photo.arrayBuffer()).byteLength).toBeGreaterThan(100);
    // An item of the job that is not one of its trees, or another job's, has none.
    expect((await sam.client.get(`/api/jobs/${ids.leeds}/sheet/photos/${parsed.lines[0]!.itemId}`)).status).toBe(404);
    expect((await pat.client.get(tree!.photoUrl!)).status).toBe(404);
  });

  it('says the protected-tree state and the nesting check in words', async () => {
    const { sheet } = (await (await sam.client.get(`/api/jobs/${ids.bristol}/sheet`)).json()) as { sheet: { lines: unknown[]; trees: unknown[] } };
    expect(sheet.lines).toEqual([{ itemId: expect.any(Number), description: 'Fell the ash' }]);
    // A job of typed lines has no trees; the state is the job's, and the leeds job's tree shows both lines.
    const protectedTree = await acceptedJob('Tia Moor', { trees: ['ash, 20 inch trunk, 50 ft tall'], siteAddress: '9 Clifton Down, Bristol BS8 4AA' });
    expect((await owner.request('PUT', `/api/jobs/${protectedTree}/protection/record`, { outcome: 's211_notice_sent', on: '2026-04-01' })).status).toBe(200);
    await book(protectedTree, '2026-06-03', 1, blue);
    const res = await kit.client.get(`/api/jobs/${protectedTree}/sheet`);
    expect(res.status, await res.clone().text()).toBe(200);
    const tree = jobSheetSchema.parse(((await res.json()) as { sheet: unknown }).sheet).trees[0]!;
    expect(tree.protection).toBe('Section 211 notice sent to the council on 1 April 2026: work from 13 May 2026.');
    // Removing a tree in June is in the nesting season.
    expect(tree.nestingCheck).toBe('Check for nesting birds before starting');
  });

  it("is a 404 for a crew member on another crew's job or an unbooked one, exactly as another team's job", async () => {
    const theirs = await stranger.get(`/api/jobs/${ids.leeds}/sheet`);
    expect(theirs.status).toBe(404);
    const answer = await theirs.json();
    for (const [client, jobId] of [
      [pat.client, ids.leeds],
      [sam.client, ids.green],
      [sam.client, ids.unbooked],
      [sam.client, 999_999],
    ] as const) {
      for (const path of [`/api/jobs/${jobId}/sheet`, `/api/jobs/${jobId}/site-check`, `/api/jobs/${jobId}/site-check.pdf`]) {
        const res = await client.get(path);
        expect(res.status, path).toBe(404);
        expect(await res.json(), path).toEqual(answer);
      }
    }
    expect(answer).toEqual({ code: 'NOT_FOUND', message: 'Job not found' });
  });

  it('is the owner’s and the office’s for any of the team’s booked jobs; an unbooked one says so', async () => {
    for (const client of [owner, ana.client]) {
      const res = await client.get(`/api/jobs/${ids.green}/sheet`);
      expect(res.status).toBe(200);
      expect(jobSheetSchema.parse(((await res.json()) as { sheet: unknown }).sheet).crew?.name).toBe('Green crew');
    }
    const unbooked = await owner.get(`/api/jobs/${ids.unbooked}/sheet`);
    expect(unbooked.status).toBe(409);
    expect(await unbooked.json()).toMatchObject({ code: 'CONFLICT', message: 'This job is not booked yet, so it has no site check.' });
  });

  it("shows the office's what3words and access notes, else the website request's access answer", async () => {
    const refused = await sam.client.request('PATCH', `/api/jobs/${ids.leeds}/site-notes`, { what3words: 'a.b.c' });
    expect(refused.status).toBe(403);
    const res = await ana.client.request('PATCH', `/api/jobs/${ids.leeds}/site-notes`, { what3words: 'Filled.Count.Soap', accessNotes: 'Key under the blue pot; mind the dog' });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await res.json()).toEqual({ siteNotes: { what3words: '///filled.count.soap', accessNotes: 'Key under the blue pot; mind the dog' } });
    const sheet = jobSheetSchema.parse(((await (await sam.client.get(`/api/jobs/${ids.leeds}/sheet`)).json()) as { sheet: unknown }).sheet);
    expect(sheet).toMatchObject({ what3words: '///filled.count.soap', accessNotes: 'Key under the blue pot; mind the dog' });

    const fromLead = jobSheetSchema.parse(((await (await sam.client.get(`/api/jobs/${ids.fromLead}/sheet`)).json()) as { sheet: unknown }).sheet);
    expect(fromLead.accessNotes).toBe("Access (the customer's answer): Side gate only");
    // The job page shows the office's own notes to change them, never the customer's answer filled in.
    const job = jobResponseSchema.parse(await (await owner.get(`/api/jobs/${ids.leeds}`)).json()).job;
    expect(job.siteNotes).toEqual({ what3words: '///filled.count.soap', accessNotes: 'Key under the blue pot; mind the dog' });
    const leadJob = jobResponseSchema.parse(await (await owner.get(`/api/jobs/${ids.fromLead}`)).json()).job;
    expect(leadJob.siteNotes).toEqual({ what3words: null, accessNotes: null });

    for (const body of [{}, { what3words: 'two.words' }, { accessNotes: 'x'.repeat(1001) }, { accessNotes: 5 }]) {
      const bad = await owner.request('PATCH', `/api/jobs/${ids.leeds}/site-notes`, body);
      expect(bad.status, JSON.stringify(body)).toBe(400);
    }
    expect((await stranger.request('PATCH', `/api/jobs/${ids.leeds}/site-notes`, { accessNotes: 'mine' })).status).toBe(404);
    // Cleared with null.
    const cleared = await owner.request('PATCH', `/api/jobs/${ids.leeds}/site-notes`, { what3words: null });
    expect(await cleared.json()).toEqual({ siteNotes: { what3words: null, accessNotes: 'Key under the blue pot; mind the dog' } });
  });
});

describe('the hospitals', () => {
  it('are kept located once, each refused by name when its postcode cannot be found', async () => {
    const refused = await sam.client.request('PATCH', '/api/system-settings', { hospitals: HOSPITALS });
    expect(refused.status).toBe(403);

    const unknown = await owner.request('PATCH', '/api/system-settings', { hospitals: [...HOSPITALS, { name: 'Nowhere General', postcode: 'SW1A 1AA' }] });
    expect(unknown.status).toBe(400);
    expect(((await unknown.json()) as { message: string }).message).toBe(
      'The postcode SW1A 1AA (Nowhere General) could not be located: check it, or try again if the postcode service is not answering.',
    );
    const notAPostcode = await owner.request('PATCH', '/api/system-settings', { hospitals: [{ name: 'Typo Infirmary', postcode: 'hello' }] });
    expect(notAPostcode.status).toBe(400);
    expect(((await notAPostcode.json()) as { message: string }).message).toBe('hello (Typo Infirmary) is not a UK postcode.');
    const tooMany = await owner.request('PATCH', '/api/system-settings', { hospitals: Array.from({ length: 21 }, (_, i) => ({ name: `H${i}`, postcode: 'LS1 3EX' })) });
    expect(tooMany.status).toBe(400);
    // Nothing of a refused list was kept.
    expect(fullSettingsResponseSchema.parse(await (await owner.get('/api/system-settings')).json()).hospitals).toEqual([]);

    const saved = await ana.client.request('PATCH', '/api/system-settings', { hospitals: HOSPITALS });
    expect(saved.status, await saved.clone().text()).toBe(200);
    const expected = HOSPITALS.map((h) => {
      const postcode = h.postcode === 'bs28hw' ? 'BS2 8HW' : h.postcode;
      return { name: h.name, postcode, latitude: FAKE_PLACES[postcode]!.latitude, longitude: FAKE_PLACES[postcode]!.longitude };
    });
    expect(fullSettingsResponseSchema.parse(await saved.json()).hospitals).toEqual(expected);
    expect(fullSettingsResponseSchema.parse(await (await owner.get('/api/system-settings')).json()).hospitals).toEqual(expected);

    // Saved again as it is, nothing is asked of the postcode service.
    const asked = fake.requests.length;
    expect((await owner.request('PATCH', '/api/system-settings', { hospitals: HOSPITALS })).status).toBe(200);
    expect(fake.requests.length).toBe(asked);
  });
});

describe('the site check', () => {
  it('is kept with every part, the nearest A&E worked out, and complete once two people on site sign', async () => {
    const empty = await checkOf(await sam.client.get(`/api/jobs/${ids.leeds}/site-check`));
    expect(empty).toEqual({
      jobId: ids.leeds,
      date: TODAY,
      hazards: [],
      emergency: null,
      signatures: [],
      complete: false,
      missing: ['The hazards are not answered yet.', 'The emergency plan is not given yet.', 'No one has signed yet: at least 2 people on site sign.'],
      updatedAt: null,
      updatedBy: null,
    });

    const saved = await checkOf(await sam.client.request('PUT', `/api/jobs/${ids.leeds}/site-check`, aCheck(kit.memberId)));
    const site = FAKE_PLACES['LS6 2AB']!;
    const lgi = FAKE_PLACES['LS1 3EX']!;
    expect(saved).toMatchObject({
      date: TODAY,
      emergency: {
        meetingPoint: 'The front gate on Elm Road',
        vehicleAccess: 'Ambulance to the front drive, 20 m from the tree',
        aerialRescuer: { id: kit.memberId, name: 'Kit Moss' },
        what3words: '///filled.count.soap',
        signalNote: 'Good signal on site',
        postcode: 'LS6 2AB',
        latitude: site.latitude,
        longitude: site.longitude,
        nearestHospital: { name: 'Leeds General Infirmary', postcode: 'LS1 3EX', distanceKm: Math.round(distanceKm(site, lgi) * 10) / 10 },
      },
      signatures: [],
      complete: false,
      missing: ['No one has signed yet: at least 2 people on site sign.'],
      updatedAt: server.clock.now().toISOString(),
      updatedBy: 'Sam Field',
    });
    expect(saved.hazards).toHaveLength(SITE_HAZARD_KEYS.length);
    expect(saved.hazards.map((h) => h.key)).toEqual([...SITE_HAZARD_KEYS]);
    expect(saved.hazards[0]).toEqual({ key: 'overhead_lines', present: true, controls: 'Lines 4 m from the crown: no climbing on the road side, goalkeeper watches' });
    expect(saved.hazards[1]).toEqual({ key: 'roads_public', present: false, controls: null });

    const once = await checkOf(await sam.client.post(`/api/jobs/${ids.leeds}/site-check/sign`));
    expect(once.signatures).toEqual([{ memberId: sam.memberId, name: 'Sam Field', signedAt: server.clock.now().toISOString() }]);
    expect(once.missing).toEqual(['Signed by 1 person: at least 2 people on site sign.']);
    // Signing twice keeps the first signature (a phone may send twice).
    expect((await checkOf(await sam.client.post(`/api/jobs/${ids.leeds}/site-check/sign`))).signatures).toHaveLength(1);
    const signed = await checkOf(await kit.client.post(`/api/jobs/${ids.leeds}/site-check/sign`));
    expect(signed.signatures.map((s) => s.name)).toEqual(['Sam Field', 'Kit Moss']);
    expect(signed).toMatchObject({ complete: true, missing: [] });
    // The office, not on the crew, does not sign.
    const office = await ana.client.post(`/api/jobs/${ids.leeds}/site-check/sign`);
    expect(office.status).toBe(403);
    expect(await office.json()).toEqual({ code: 'FORBIDDEN', message: "Only the people on the job's crew sign its site check." });

    const sheet = jobSheetSchema.parse(((await (await sam.client.get(`/api/jobs/${ids.leeds}/sheet`)).json()) as { sheet: unknown }).sheet);
    expect(sheet.siteCheck).toEqual({ complete: true, missing: [] });
    // The owner reads the same check.
    expect(await checkOf(await owner.get(`/api/jobs/${ids.leeds}/site-check`))).toEqual(signed);

    // The same findings sent again keep the signatures; changed findings clear them.
    expect((await checkOf(await sam.client.request('PUT', `/api/jobs/${ids.leeds}/site-check`, aCheck(kit.memberId)))).signatures).toHaveLength(2);
    const changed = await checkOf(await sam.client.request('PUT', `/api/jobs/${ids.leeds}/site-check`, aCheck(sam.memberId, { meetingPoint: 'The back lane' })));
    expect(changed).toMatchObject({ signatures: [], complete: false, emergency: { meetingPoint: 'The back lane', aerialRescuer: { id: sam.memberId, name: 'Sam Field' } } });
    await checkOf(await sam.client.post(`/api/jobs/${ids.leeds}/site-check/sign`));
    await checkOf(await kit.client.post(`/api/jobs/${ids.leeds}/site-check/sign`));
  });

  it('keeps each booked day its own check; a day off the booking is refused', async () => {
    const second = await checkOf(await sam.client.get(`/api/jobs/${ids.leeds}/site-check?date=2026-06-02`));
    expect(second).toMatchObject({ date: '2026-06-02', emergency: null, complete: false });
    const notFilled = await sam.client.post(`/api/jobs/${ids.leeds}/site-check/sign?date=2026-06-02`);
    expect(notFilled.status).toBe(409);
    expect(await notFilled.json()).toEqual({ code: 'CONFLICT', message: 'Fill in the site check before signing it.' });
    for (const date of ['2026-06-03', '2026-02-30', 'tomorrow']) {
      const res = await sam.client.get(`/api/jobs/${ids.leeds}/site-check?date=${date}`);
      expect(res.status, date).toBe(400);
    }
    // A job booked tomorrow is checked for its day.
    expect((await checkOf(await sam.client.get(`/api/jobs/${ids.bristol}/site-check`))).date).toBe('2026-06-02');
  });

  it('takes the aerial rescuer from the crew, or from the whole team for a job on no crew', async () => {
    const offCrew = await sam.client.request('PUT', `/api/jobs/${ids.leeds}/site-check?date=2026-06-02`, aCheck(pat.memberId));
    expect(offCrew.status).toBe(400);
    expect(await offCrew.json()).toMatchObject({ code: 'VALIDATION_ERROR', message: SITE_CHECK_MESSAGES.aerialRescuer });

    const loose = await checkOf(await owner.request('PUT', `/api/jobs/${ids.noCrew}/site-check`, aCheck(pat.memberId)));
    expect(loose.emergency?.aerialRescuer).toEqual({ id: pat.memberId, name: 'Pat Green' });
    await checkOf(await ana.client.post(`/api/jobs/${ids.noCrew}/site-check/sign`));
    expect((await checkOf(await owner.post(`/api/jobs/${ids.noCrew}/site-check/sign`))).complete).toBe(true);
  });

  it('refuses a check with a part missing or wrong, saying which', async () => {
    const put = (body: unknown) => sam.client.request('PUT', `/api/jobs/${ids.leeds}/site-check?date=2026-06-02`, body);
    const good = aCheck(kit.memberId);
    const cases: [unknown, string][] = [
      [{ ...good, hazards: good.hazards.map((h) => (h.key === 'ground' ? { key: 'ground', present: true } : h)) }, SITE_CHECK_MESSAGES.controls],
      [{ ...good, hazards: good.hazards.map((h) => (h.key === 'ground' ? { key: 'ground', present: true, controls: '   ' } : h)) }, SITE_CHECK_MESSAGES.controls],
      [{ ...good, hazards: good.hazards.slice(1) }, SITE_CHECK_MESSAGES.hazards],
      [{ ...good, hazards: [...good.hazards.slice(1), good.hazards[1]] }, SITE_CHECK_MESSAGES.hazards],
      [{ ...good, emergency: { ...good.emergency, what3words: 'filled-count-soap' } }, SITE_CHECK_MESSAGES.what3words],
      [{ ...good, emergency: { ...good.emergency, meetingPoint: ' ' } }, SITE_CHECK_MESSAGES.meetingPoint],
      [{ hazards: good.hazards }, SITE_CHECK_MESSAGES.emergency],
      [{ ...good, emergency: { ...good.emergency, meetingPoint: undefined } }, SITE_CHECK_MESSAGES.meetingPoint],
    ];
    for (const [body, message] of cases) {
      const res = await put(body);
      expect(res.status, JSON.stringify(body).slice(0, 200)).toBe(400);
      expect(((await res.json()) as { message: string }).message).toBe(message);
    }
    expect((await checkOf(await sam.client.get(`/api/jobs/${ids.leeds}/site-check?date=2026-06-02`))).emergency).toBeNull();
  });

  it('refuses hostile bodies: huge strings, wrong types, 10 000 hazards; unknown keys are not kept', async () => {
    const put = (body: unknown) => sam.client.request('PUT', `/api/jobs/${ids.leeds}/site-check?date=2026-06-02`, body);
    const good = aCheck(kit.memberId);
    const statuses: [unknown, number][] = [
      [{ ...good, hazards: good.hazards.map((h) => ({ ...h, present: true, controls: 'x'.repeat(1001) })) }, 400],
      [{ ...good, emergency: { ...good.emergency, meetingPoint: 'x'.repeat(200_000) } }, 413],
      [{ ...good, hazards: Array.from({ length: 10_000 }, () => ({ key: 'other', present: false })) }, 413],
      [{ ...good, hazards: Array.from({ length: 1_000 }, () => ({ key: 'other', present: false })) }, 400],
      [{ ...good, hazards: 'all fine' }, 400],
      [{ ...good, hazards: good.hazards.map((h) => ({ ...h, present: 'no' })) }, 400],
      [{ ...good, emergency: { ...good.emergency, aerialRescuerId: String(kit.memberId) } }, 400],
      [{ ...good, emergency: { ...good.emergency, aerialRescuerId: 1.5 } }, 400],
      [{ ...good, emergency: [] }, 400],
      [[good], 400],
      ['null', 400],
    ];
    for (const [body, status] of statuses) {
      const res = await put(body);
      expect(res.status, JSON.stringify(body).slice(0, 120)).toBe(status);
    }
    const notJson = await put('{"hazards": [');
    expect(notJson.status).toBe(400);

    const extra = await put({ ...good, price: '500', emergency: { ...good.emergency, isAdmin: true, nearestHospital: { name: 'Fake', postcode: 'X', distanceKm: 0 } } });
    const kept = await checkOf(extra);
    expect(kept.emergency?.nearestHospital?.name).toBe('Leeds General Infirmary');
    const row = server.db.select().from(siteChecks).where(eq(siteChecks.jobId, ids.leeds)).all().find((r) => r.date === '2026-06-02')!;
    expect(Object.keys(row.emergency).sort()).toEqual(['aerialRescuerId', 'aerialRescuerName', 'meetingPoint', 'signalNote', 'vehicleAccess', 'what3words']);
  });

  it("is another team's 404 and asks the signed-out to sign in", async () => {
    for (const [method, path] of [
      ['GET', `/api/jobs/${ids.leeds}/site-check`],
      ['PUT', `/api/jobs/${ids.leeds}/site-check`],
      ['POST', `/api/jobs/${ids.leeds}/site-check/sign`],
      ['GET', `/api/jobs/${ids.leeds}/site-check.pdf`],
      ['GET', `/api/jobs/${ids.leeds}/sheet`],
    ] as const) {
      const theirs = await stranger.request(method, path, method === 'PUT' ? aCheck(kit.memberId) : undefined);
      expect(theirs.status, path).toBe(404);
      expect(await theirs.json()).toEqual({ code: 'NOT_FOUND', message: 'Job not found' });
      const out = await new TestClient(server).request(method, path, method === 'PUT' ? aCheck(kit.memberId) : undefined);
      expect(out.status, path).toBe(401);
    }
  });

  it('prints the record: the business, the site, the date, the findings, the plan, who signed and when', async () => {
    const res = await sam.client.get(`/api/jobs/${ids.leeds}/site-check.pdf`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toContain(`site-check-`);
    const { text } = await pdfText(new Uint8Array(await res.arrayBuffer()));
    const flat = text.replace(/\s+/g, ' ');
    for (const words of [
      'Site risk assessment and emergency plan',
      'Birch Brothers',
      'Monday 1 June 2026',
      'Complete: every hazard answered',
      '3 Elm Road, Leeds LS6 2AB',
      'Postcode: LS6 2AB',
      'what3words: ///filled.count.soap',
      'Overhead lines: present',
      'Controls: Lines 4 m from the crown',
      'Roads and the public: not present',
      'call 999',
      'Meeting point: The back lane',
      'Vehicle access: Ambulance to the front drive, 20 m from the tree',
      'Aerial rescuer: Sam Field',
      'Nearest A&E: Leeds General Infirmary, LS1 3EX',
      'km in a straight line',
      'Sam Field, 1 June 2026 at',
      'Kit Moss, 1 June 2026 at',
    ]) {
      expect(flat, words).toContain(words);
    }
    expect(flat).not.toContain('£');

    // A day not signed, or not filled in, says what is missing.
    const unsigned = await pdfText(new Uint8Array(await (await owner.get(`/api/jobs/${ids.leeds}/site-check.pdf?date=2026-06-02`)).arrayBuffer()));
    expect(unsigned.text.replace(/\s+/g, ' ')).toContain('Not complete: No one has signed yet: at least 2 people on site sign.');
    const empty = await pdfText(new Uint8Array(await (await owner.get(`/api/jobs/${ids.bristol}/site-check.pdf`)).arrayBuffer()));
    expect(empty.text.replace(/\s+/g, ' ')).toContain('Not complete: The hazards are not answered yet. The emergency plan is not given yet.');
  });
});

describe('a slow postcode service', () => {
  it('does not hold the sheet up: it answers, without the location', async () => {
    server.db.delete(postcodeLocations).where(eq(postcodeLocations.postcode, 'LS6 2AB')).run();
    fake.setMode('postcodes', 'slow');
    try {
      // The slow service never answers: without the sheet's own deadline this would hang until
      // the test's time ran out (no verdict on the wall clock: the box may be loaded).
      const res = await sam.client.get(`/api/jobs/${ids.leeds}/sheet`);
      expect(res.status).toBe(200);
      expect(jobSheetSchema.parse(((await res.json()) as { sheet: unknown }).sheet)).toMatchObject({ postcode: 'LS6 2AB', location: null, mapUrl: null });
    } finally {
      fake.setMode('postcodes', 'ok');
    }
  });
});
