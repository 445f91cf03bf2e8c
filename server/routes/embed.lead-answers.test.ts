import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leadListSchema, type Lead } from '../../core/business';
import { EMAIL_FOR_EMAIL, PHONE_FOR_CALL } from '../../core/contact-preference';
import { formatTotalTime } from '../../core/format';
import { formatPrice } from '../../core/price';
import { DIAMETER_BANDS, HEIGHT_BANDS } from '../../core/questions';
import { grantTo } from '../../testing/analysis';
import { createBusinessFor, looseEmbedLimits, visitorAnalyze, visitorLead } from '../../testing/business';
import { registerClient, startTestServer, type TestClient, type TestServer } from '../../testing/harness';
import { leadMailFor } from '../../testing/mail';

/*
 * Results that sell: a visitor's estimate says what its price includes from
 * their answers, and their quote request carries everything to the owner, in Business Admin's
 * list and in the e-mail: the photo, every answer, the estimate, and how and when to get in
 * touch. A bad preference is a 400; nobody else reads the leads.
 */
let server: TestServer;
let owner: TestClient;
let ownerEmail: string;
beforeAll(async () => {
  server = await startTestServer({}, { rateLimits: looseEmbedLimits() });
  const registered = await registerClient(server, { firstName: 'Ash' });
  owner = registered.client;
  ownerEmail = registered.account.email;
  grantTo(server, registered.account.username, 100);
});
afterAll(() => server.close());

/** The visitor's taps: a large tree near a building, stump ground, wood left on site. */
const TREE = { species: 'English oak', height: { band: 'much_taller' }, diameter: { band: 'too_wide_to_hug' } };
const SITE = { targets: 'building', powerLines: false, access: 'side_gate', dragDistance: 'medium', stumpGrinding: true, wasteRemoval: false };

/** Every answer, as the owner reads them. */
const ANSWERS = [
  { question: 'What kind of tree is it?', answer: 'Oak' },
  { question: 'How tall is the tree?', answer: HEIGHT_BANDS.much_taller.label },
  { question: 'How thick is the trunk?', answer: DIAMETER_BANDS.too_wide_to_hug.label },
  { question: 'What could the tree hit if it fell?', answer: 'Building' },
  { question: 'Are there power lines near the tree?', answer: 'No' },
  { question: 'How can a crew get to the tree?', answer: 'Side gate only' },
  { question: 'How far is the tree from where a van can park?', answer: '10 to 30 m' },
  { question: 'Grind out the stump too?', answer: 'Yes' },
  { question: 'Take the wood and waste away?', answer: 'No' },
];

async function visitorEstimate(slug: string, fields: Parameters<typeof visitorAnalyze>[2] = { description: '', treeDetails: TREE, siteDetails: SITE }) {
  const res = await visitorAnalyze(server, slug, fields, { origin: 'https://customer-site.example' });
  expect(res.status, await res.clone().text()).toBe(201);
  const body = await res.json();
  // The estimate with the token that proves it, as the widget keeps them together.
  return { ...body.analysis, leadToken: body.leadToken as string };
}

async function ownerLeads(businessId: number): Promise<Lead[]> {
  const res = await owner.get(`/api/businesses/${businessId}/leads`);
  expect(res.status).toBe(200);
  return leadListSchema.parse(await res.json()).leads;
}

const leadMail = (visitor: string) => leadMailFor(server, ownerEmail, visitor);

describe('a visitor who answered the questions', () => {
  it('sees what the price includes from their answers: stump ground, wood left on site', async () => {
    const business = await createBusinessFor(owner);
    const analysis = await visitorEstimate(business.slug);
    expect(analysis.included).toEqual(
      expect.arrayContaining([
        { text: 'Stump grinding below ground level', included: true },
        { text: 'Waste removal (wood left on site in rounds)', included: false },
      ]),
    );
    // Unanswered, the estimate's own assumptions: no stump grinding, the wood taken away.
    const assumed = await visitorEstimate(business.slug, { description: '', treeDetails: TREE });
    expect(assumed.included).toEqual(
      expect.arrayContaining([
        { text: 'Stump grinding (stump left low at ground level)', included: false },
        { text: 'Removal of all wood, brush and chippings', included: true },
      ]),
    );
  });

  it('requests a quote with a preferred way and time; the owner reads every answer, the estimate and the photo, in Business Admin and by e-mail', async () => {
    const business = await createBusinessFor(owner, { hourlyRate: '50.00' });
    const analysis = await visitorEstimate(business.slug);
    const sent = await visitorLead(server, business.slug, {
      analysisId: analysis.id,
      leadToken: analysis.leadToken,
      name: 'Sam Visitor',
      phone: '07700 900456',
      contactMethod: 'phone',
      contactTime: 'morning',
    });
    expect(sent.status, await sent.clone().text()).toBe(201);

    const [lead] = await ownerLeads(business.id);
    expect(lead).toMatchObject({
      analysisId: analysis.id,
      name: 'Sam Visitor',
      email: null,
      phone: '07700 900456',
      contactMethod: 'phone',
      contactTime: 'morning',
      estimate: {
        imageUrl: `/api/analysis/${analysis.id}/image`,
        species: 'Oak',
        cost: analysis.cost,
        siteVisitReason: analysis.siteVisitReason,
        answers: ANSWERS,
      },
    });
    const minutes = lead!.estimate!.totalMinutes;
    expect(minutes.min).toBe(analysis.cuttingTimeMin + analysis.prepTimeMin + analysis.cleanupTimeMin);
    expect(minutes.max).toBe(analysis.cuttingTimeMax + analysis.prepTimeMax + analysis.cleanupTimeMax);

    const mail = await leadMail('Sam Visitor');
    expect(mail).toContain('Preferred contact: Phone');
    expect(mail).toContain('Best time: Morning');
    for (const { question, answer } of ANSWERS) expect(mail).toContain(`${question} ${answer}`);
    expect(mail).toContain(`Estimated time: ${formatTotalTime(minutes)}`);
    expect(mail).toContain(`Estimated cost: ${formatPrice(analysis.price)}`);
    expect(mail).toContain(`Photo: ${server.url}/api/analysis/${analysis.id}/image`);
    // A tree this large beside a building is one to see first: the owner is told why.
    expect(analysis.siteVisitReason).toEqual(expect.any(String));
    expect(mail).toContain(`Site visit recommended: ${analysis.siteVisitReason}`);
  });

  it('may say nothing of how or when: both null, and the e-mail leaves them out', async () => {
    const business = await createBusinessFor(owner);
    const analysis = await visitorEstimate(business.slug, { description: 'birch, 8 inch trunk, 20 ft tall' });
    const sent = await visitorLead(server, business.slug, { analysisId: analysis.id, leadToken: analysis.leadToken, name: 'Quiet Visitor', email: 'quiet@example.com', contactMethod: null });
    expect(sent.status).toBe(201);
    const [lead] = await ownerLeads(business.id);
    expect(lead).toMatchObject({ contactMethod: null, contactTime: null });
    // Nothing was tapped: the species is "Not sure" and no size is the visitor's.
    expect(lead!.estimate!.answers).toEqual([{ question: 'What kind of tree is it?', answer: 'Not sure' }]);
    const mail = await leadMail('Quiet Visitor');
    expect(mail).not.toContain('Preferred contact');
    expect(mail).not.toContain('Best time');
  });
});

describe('contact preferences: errors', () => {
  it('refuses a way or time the form does not offer, and a chosen way without its detail, storing nothing', async () => {
    const business = await createBusinessFor(owner);
    const analysis = await visitorEstimate(business.slug);
    const base = { analysisId: analysis.id, leadToken: analysis.leadToken, name: 'Jo', email: 'jo@example.com', phone: '07700 900123' };
    const cases: [Record<string, unknown>, string, string | RegExp][] = [
      [{ ...base, contactMethod: 'pigeon' }, 'contactMethod', /phone, email or either/],
      [{ ...base, contactMethod: 'PHONE' }, 'contactMethod', /phone, email or either/],
      [{ ...base, contactTime: 'midnight' }, 'contactTime', /morning, afternoon, evening or any/],
      [{ ...base, contactTime: 3 }, 'contactTime', /morning, afternoon, evening or any/],
      [{ ...base, phone: '', contactMethod: 'phone' }, 'phone', PHONE_FOR_CALL],
      [{ ...base, email: '', contactMethod: 'email' }, 'email', EMAIL_FOR_EMAIL],
    ];
    for (const [body, field, message] of cases) {
      const res = await visitorLead(server, business.slug, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      const answer = await res.json();
      expect(answer.code).toBe('VALIDATION_ERROR');
      expect(answer.details[field]?.[0]).toMatch(message);
    }
    expect(await ownerLeads(business.id)).toEqual([]);
  });
});

describe('contact preferences: security', () => {
  it("another user's business leads stay a 404, with nothing of the visitor's answers", async () => {
    const business = await createBusinessFor(owner);
    const analysis = await visitorEstimate(business.slug);
    expect((await visitorLead(server, business.slug, { analysisId: analysis.id, leadToken: analysis.leadToken, name: 'Private Visitor', phone: '07700 900789', contactMethod: 'phone' })).status).toBe(201);
    const { client: other } = await registerClient(server);
    const res = await other.get(`/api/businesses/${business.id}/leads`);
    expect(res.status).toBe(404);
    const body = await res.text();
    expect(body).not.toContain('Private Visitor');
    expect(body).not.toContain('Grind out the stump');
    expect((await fetch(`${server.url}/api/businesses/${business.id}/leads`)).status).toBe(401);
  });
});
