import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analysisListSchema, analyzeResponseSchema } from '../../core/analysis';
import { settingsResponseSchema } from '../../core/settings';
import { leadListSchema } from '../../core/business';
import { formatPrice, headlineRange } from '../../core/price';
import { penceToDecimal } from '../../core/money';
import { analyze, grantTo } from '../../testing/analysis';
import { createBusinessFor, looseEmbedLimits, visitorAnalyze, visitorLead } from '../../testing/business';
import { registerClient, startTestServer, type TestClient, type TestServer } from '../../testing/harness';
import { leadMailFor } from '../../testing/mail';

/*
 * Pricing rules and one price everywhere, over HTTP on the real app: a contractor's rules in
 * Settings (and a business's own for its estimator) make the price of each analysis, stored with
 * it, and the results, History, the estimator's answer, the lead (list and e-mail) and the PDF
 * quote all carry the same figures and say whether VAT is included.
 */
let server: TestServer;
let owner: TestClient;
let ownerEmail: string;
beforeAll(async () => {
  server = await startTestServer({}, { rateLimits: looseEmbedLimits() });
  const registered = await registerClient(server);
  owner = registered.client;
  ownerEmail = registered.account.email;
  grantTo(server, registered.account.username, 200);
});
afterAll(() => server.close());

/** A UK contractor's rules: £30 travel, £80 a tonne, £90 stump grinder, £150 platform, £120 traffic management, £250 minimum, VAT included. */
const RULES = {
  crewSize: 3,
  minimumCharge: '250',
  travel: '30.00',
  wastePerTonne: '80',
  stumpGrinding: '90',
  accessPlatform: '150',
  trafficManagement: '120.00',
  vatMode: 'inc',
} as const;

/** An oak by a road, open access, stump ground out and wood taken away: every line applies. */
const BIG_JOB = {
  description: '',
  treeDetails: { species: 'English oak', height: { value: 18, unit: 'm' }, diameter: { value: 60, unit: 'cm' } },
  siteDetails: { targets: 'road', powerLines: false, access: 'open', dragDistance: 'short', stumpGrinding: true, wasteRemoval: true },
} as const;

async function pdfText(res: Response): Promise<string> {
  const { text } = await extractText(await getDocumentProxy(new Uint8Array(await res.arrayBuffer())), { mergePages: true });
  return text.replace(/\s+/g, ' ');
}

describe('pricing rules in Settings', () => {
  it('are saved whole and answered back as pounds, a new account starting from a crew of 2 and no extras', async () => {
    const { client } = await registerClient(server);
    const before = settingsResponseSchema.parse(await (await client.get('/api/system-settings')).json());
    expect(before.pricing).toEqual({
      crewSize: 2,
      minimumCharge: '0.00',
      travel: '0.00',
      wastePerTonne: '0.00',
      stumpGrinding: '0.00',
      accessPlatform: '0.00',
      trafficManagement: '0.00',
      vatMode: 'none',
    });
    const res = await client.request('PATCH', '/api/system-settings', { pricing: RULES });
    expect(res.status).toBe(200);
    const saved = settingsResponseSchema.parse(await res.json());
    expect(saved.pricing).toEqual({ ...RULES, minimumCharge: '250.00', wastePerTonne: '80.00', stumpGrinding: '90.00', accessPlatform: '150.00' });
  });

  it('refuses a crew of none, a negative or absurd amount, an unknown VAT mode, and a partial set, saving nothing', async () => {
    const { client } = await registerClient(server);
    const bad = [
      [{ ...RULES, crewSize: 0 }, 'Crew size must be a whole number of people from 1 to 12'],
      [{ ...RULES, travel: '-5' }, 'Travel charge must be an amount in pounds'],
      [{ ...RULES, minimumCharge: '100000.01' }, 'Minimum charge must be an amount in pounds'],
      [{ ...RULES, vatMode: 'sometimes' }, 'VAT must be none, inc or ex'],
      [{ crewSize: 2 }, ''],
    ] as const;
    for (const [pricing, message] of bad) {
      const res = await client.request('PATCH', '/api/system-settings', { pricing });
      expect(res.status, JSON.stringify(pricing)).toBe(400);
      expect(JSON.stringify(await res.json())).toContain(message);
    }
    const after = settingsResponseSchema.parse(await (await client.get('/api/system-settings')).json());
    expect(after.pricing.crewSize).toBe(2);
  });

  it('charge VAT by default once the company profile has a VAT number, as quotes always did', async () => {
    const { client } = await registerClient(server);
    const profile = { tradingName: 'Oak Ltd', phone: '', email: '', address: '', vatNumber: 'GB123456789', quoteValidityDays: 30 };
    const res = await client.request('PATCH', '/api/system-settings', { companyProfile: profile });
    expect(settingsResponseSchema.parse(await res.json()).pricing.vatMode).toBe('inc');
  });
});

describe('the price of an analysis', () => {
  it('has every line the job calls for, the minimum and VAT, on the results and the same in History and on the quote', async () => {
    await owner.request('PATCH', '/api/system-settings', { hourlyRate: '60', pricing: RULES });
    const res = await analyze(owner, BIG_JOB);
    expect(res.status, await res.clone().text()).toBe(201);
    const { analysis } = analyzeResponseSchema.parse(await res.json());
    const price = analysis.price!;
    expect(price.lines.map((line) => line.code)).toEqual(['labour', 'travel', 'waste', 'stump_grinder', 'access_platform', 'traffic_management']);
    // The base line is the cost: total hours x the rate, to the penny.
    expect(price.lines[0]).toMatchObject({ minPence: Math.round(Number(analysis.cost!.min) * 100), maxPence: Math.round(Number(analysis.cost!.max) * 100) });
    expect(price.lines[0]!.detail).toContain('at £60.00 an hour (crew of 3)');
    expect(price.lines.slice(1).map((line) => line.minPence)).toEqual([3000, price.lines[2]!.minPence, 9000, 15000, 12000]);
    expect(price.lines[2]!.detail).toMatch(/^About [\d.]+ tonnes of green waste at £80\.00 a tonne$/);
    const net = price.lines.reduce((sum, line) => sum + line.minPence, 0);
    expect(price.netMinPence).toBe(Math.max(net, 25000));
    expect(price.grossMinPence).toBe(price.netMinPence + Math.floor((price.netMinPence * 20 + 50) / 100));
    const shown = formatPrice(price);
    expect(shown).toMatch(/ inc VAT$/);

    const history = analysisListSchema.parse(await (await owner.get('/api/analyses')).json());
    expect(formatPrice(history.analyses.find((item) => item.id === analysis.id)!.price!)).toBe(shown);

    const quote = await pdfText(await owner.get(`/api/analysis/${analysis.id}/report.pdf`));
    const gross = headlineRange(price);
    expect(quote).toContain(`Total inc VAT ${shown.replace(' inc VAT', '')}`);
    expect(quote).toContain('Traffic management £120.00');
    expect(quote).toContain('Access platform £150.00');
    expect(gross.minPence).toBe(price.grossMinPence);
  });

  it('keeps the price it was made with when the rules change later', async () => {
    const { client, account } = await registerClient(server);
    grantTo(server, account.username, 20);
    await client.request('PATCH', '/api/system-settings', { hourlyRate: '40', pricing: { ...RULES, vatMode: 'none', minimumCharge: '0' } });
    const { analysis } = analyzeResponseSchema.parse(await (await analyze(client, BIG_JOB)).json());
    await client.request('PATCH', '/api/system-settings', { hourlyRate: '90', pricing: { ...RULES, travel: '500' } });
    const again = analyzeResponseSchema.shape.analysis.parse((await (await client.get(`/api/analysis/${analysis.id}`)).json()).analysis);
    expect(again.price).toEqual(analysis.price);
    expect(formatPrice(again.price!)).toMatch(/ no VAT$/);
  });

  it('has no price at an hourly rate of 0, whatever the other rules say', async () => {
    const { client, account } = await registerClient(server);
    grantTo(server, account.username, 20);
    await client.request('PATCH', '/api/system-settings', { hourlyRate: '0', pricing: RULES });
    const { analysis } = analyzeResponseSchema.parse(await (await analyze(client, BIG_JOB)).json());
    expect(analysis.cost).toBeNull();
    expect(analysis.price).toBeNull();
  });
});

const leadMail = (visitor: string) => leadMailFor(server, ownerEmail, visitor);

describe("a business's estimator", () => {
  it('prices by its own rules; the visitor, the lead list, the e-mail and the quote show the same figures and say inc VAT, with what was assumed', async () => {
    await owner.request('PATCH', '/api/system-settings', { pricing: { ...RULES, vatMode: 'none' } });
    const business = await createBusinessFor(owner, { hourlyRate: '50.00', pricing: { ...RULES, travel: '45', vatMode: 'inc' } });
    expect(business.pricing).toMatchObject({ travel: '45.00', vatMode: 'inc' });
    // The visitor answered nothing about the site: the estimate assumes, and says so.
    const res = await visitorAnalyze(server, business.slug, { description: '', treeDetails: BIG_JOB.treeDetails }, { origin: 'https://customer-site.example' });
    expect(res.status, await res.clone().text()).toBe(201);
    const { analysis, leadToken } = await res.json();
    const shown = formatPrice(analysis.price);
    expect(shown).toMatch(/ inc VAT$/);
    expect(analysis.price.lines.find((line: { code: string }) => line.code === 'travel').minPence).toBe(4500);

    expect((await visitorLead(server, business.slug, { analysisId: analysis.id, leadToken, name: 'Pat Price', email: 'pat@example.com' })).status).toBe(201);
    const [lead] = leadListSchema.parse(await (await owner.get(`/api/businesses/${business.id}/leads`)).json()).leads;
    expect(formatPrice(lead!.estimate!.price!)).toBe(shown);
    expect(lead!.estimate!.assumed).toEqual(expect.arrayContaining(['side gate only access', 'no stump grinding']));
    const mail = await leadMail('Pat Price');
    expect(mail).toContain(`Estimated cost: ${shown}`);
    expect(mail).toContain('Priced for: ');
    expect(mail).toContain('side gate only access');

    const quote = await pdfText(await owner.get(`/api/analysis/${analysis.id}/report.pdf`));
    expect(quote).toContain(`Total inc VAT ${shown.replace(' inc VAT', '')}`);
    expect(quote).toContain('Priced for: ');

    // The host page's analytics event carries the figure shown, as decimal text.
    const range = headlineRange(analysis.price);
    expect(penceToDecimal(range.minPence)).toMatch(/^\d+\.\d\d$/);
  });

  it("without its own rules prices by the owner's Settings, and going back to them with null", async () => {
    await owner.request('PATCH', '/api/system-settings', { pricing: { ...RULES, vatMode: 'ex', travel: '12.34' } });
    const business = await createBusinessFor(owner, { pricing: { ...RULES, travel: '99' } });
    const patched = await owner.request('PATCH', `/api/businesses/${business.id}`, { pricing: null });
    expect(patched.status).toBe(200);
    expect((await patched.json()).business.pricing).toBeNull();
    const res = await visitorAnalyze(server, business.slug, BIG_JOB, { origin: 'https://customer-site.example' });
    const { analysis } = await res.json();
    expect(analysis.price.lines.find((line: { code: string }) => line.code === 'travel').minPence).toBe(1234);
    expect(formatPrice(analysis.price)).toMatch(/ ex VAT$/);
  });
});
