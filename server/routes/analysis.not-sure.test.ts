import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeResponseSchema } from '../../core/analysis';
import { OPERATOR_WORDS } from '../../core/embed';
import { embedAnalyzeResponseSchema } from '../../core/embed-api';
import type { SiteDetails } from '../../core/questions';
import { CAUTIOUS_SITE, NOT_SURE, SITE_QUESTION_KEYS, TYPICAL_GARDEN_TREE, type CautiousSite } from '../../core/site-assumptions';
import { needsDetailsSchema } from '../../core/tree-details';
import { analyze, grantTo } from '../../testing/analysis';
import { createBusinessFor, looseEmbedLimits, visitorAnalyze } from '../../testing/business';
import { registerClient, startTestServer, type TestServer } from '../../testing/harness';

/*
 * docs/analysis.md, Not sure and unanswered: a site question answered "Not sure" or left out is
 * priced on the cautious side and listed under "What we assumed"; "Not sure" for the height or
 * the trunk prices a typical garden tree's range with a site visit recommended, instead of
 * asking for a size. Over HTTP, as a business's visitor (at its £60 rate) and as a signed-in owner.
 */
let server: TestServer;
let slug: string;

beforeAll(async () => {
  server = await startTestServer({}, { rateLimits: looseEmbedLimits() });
  const { client, account } = await registerClient(server);
  grantTo(server, account.username, 10_000);
  slug = (await createBusinessFor(client, { dailyCap: 1000 })).slug;
});
afterAll(() => server.close());

/** Every question answered as the easiest job, so one answer at a time can be changed. */
const EASY: CautiousSite = { targets: 'nothing', powerLines: false, access: 'open', dragDistance: 'short', stumpGrinding: false, wasteRemoval: true };
const TREE = 'oak, 12 inch trunk, 30 ft tall';

type Answer = CautiousSite[keyof CautiousSite] | typeof NOT_SURE | undefined;

async function visitorEstimate(fields: { description?: string; siteDetails?: unknown; treeDetails?: unknown }) {
  const res = await visitorAnalyze(server, slug, { description: TREE, ...fields });
  expect(res.status, await res.clone().text()).toBe(201);
  const text = await res.text();
  return { analysis: embedAnalyzeResponseSchema.parse(JSON.parse(text)).analysis, text };
}

/** The easy site with one question answered as given: undefined leaves it out, NOT_SURE sends "not_sure". */
async function withAnswer(key: keyof CautiousSite, answer: Answer) {
  const site: Record<string, unknown> = { ...EASY };
  if (answer === undefined) delete site[key];
  else site[key] = answer;
  return (await visitorEstimate({ siteDetails: site })).analysis;
}

const total = (a: { cuttingTimeMax: number; prepTimeMax: number; cleanupTimeMax: number; cuttingTimeMin: number; prepTimeMin: number; cleanupTimeMin: number }) => ({
  min: a.cuttingTimeMin + a.prepTimeMin + a.cleanupTimeMin,
  max: a.cuttingTimeMax + a.prepTimeMax + a.cleanupTimeMax,
});

describe('power lines "Not sure"', () => {
  it('is priced as near, the same as unanswered and as "yes", above "no", and says so', async () => {
    const no = await withAnswer('powerLines', false);
    const yes = await withAnswer('powerLines', true);
    const notSure = await withAnswer('powerLines', NOT_SURE);
    const unanswered = await withAnswer('powerLines', undefined);

    for (const cautious of [notSure, unanswered]) {
      expect(cautious.price).toEqual(yes.price);
      expect(total(cautious)).toEqual(total(yes));
      const method = (a: typeof yes) => a.factors.find((f) => f.startsWith('Method:'));
      expect(method(cautious)).toBe(method(yes));
      expect(method(cautious)).toMatch(/power lines/);
      expect(cautious.assumptions).toEqual([CAUTIOUS_SITE.powerLines.sentence]);
      expect(cautious.assumptions[0]).toBe('We assumed there may be power lines near the tree; tell us if not and the price may come down.');
      // The warning is there, worded as not yet confirmed.
      expect(cautious.safetyWarnings.join('\n')).toMatch(/Power lines may be near the tree \(not yet confirmed\): only a competent/);
    }
    expect(notSure.price!.grossMaxPence).toBeGreaterThan(no.price!.grossMaxPence);
    expect(notSure.price!.grossMinPence).toBeGreaterThan(no.price!.grossMinPence);
    expect(no.assumptions).toEqual([]);
    expect(yes.assumptions).toEqual([]);
    expect(no.safetyWarnings.join('\n')).not.toMatch(/power lines/i);
    expect(yes.safetyWarnings.join('\n')).toMatch(/^Power lines near the tree: only a competent/m);
  });
});

describe('each site question "Not sure"', () => {
  const OPTIONS: Record<keyof CautiousSite, CautiousSite[keyof CautiousSite][]> = {
    targets: ['nothing', 'fence_shed', 'road', 'building'],
    powerLines: [false, true],
    access: ['open', 'side_gate'],
    dragDistance: ['short', 'medium', 'long'],
    stumpGrinding: [false],
    wasteRemoval: [true],
  };

  it.each(SITE_QUESTION_KEYS)('%s: "Not sure" and unanswered are priced as the cautious answer, at least any lighter one, and listed', async (key) => {
    const cautious = await withAnswer(key, CAUTIOUS_SITE[key].value);
    const notSure = await withAnswer(key, NOT_SURE);
    const unanswered = await withAnswer(key, undefined);
    for (const same of [notSure, unanswered]) {
      expect(same.price).toEqual(cautious.price);
      expect(total(same)).toEqual(total(cautious));
      expect(same.assumptions).toEqual([CAUTIOUS_SITE[key].sentence]);
      expect(same.factors).toContain(`Not answered, assumed: ${CAUTIOUS_SITE[key].phrase}`);
    }
    expect(cautious.assumptions).toEqual([]);
    for (const option of OPTIONS[key]) {
      const answered = await withAnswer(key, option);
      expect(answered.price!.grossMaxPence, `${key}: ${String(option)}`).toBeLessThanOrEqual(notSure.price!.grossMaxPence);
    }
  });

  it('with every question unanswered, lists each assumption once, in the order of the questions, in the visitor\'s words', async () => {
    const { analysis, text } = await visitorEstimate({});
    expect(analysis.assumptions).toEqual(SITE_QUESTION_KEYS.map((key) => CAUTIOUS_SITE[key].sentence));
    // Every stump and waste assumption matches what the price says it includes.
    expect(analysis.included).toContainEqual({ text: 'Stump grinding (stump left low at ground level)', included: false });
    expect(analysis.included).toContainEqual({ text: 'Removal of all wood, brush and chippings', included: true });
    expect(text).not.toMatch(OPERATOR_WORDS);
  });

  it('"through the house" is the one answer priced above "Not sure" (a homeowner knows that one), and the sentence says a van', async () => {
    const notSure = await withAnswer('access', NOT_SURE);
    const house = await withAnswer('access', 'through_house');
    expect(house.price!.grossMaxPence).toBeGreaterThan(notSure.price!.grossMaxPence);
    expect(notSure.assumptions[0]).toMatch(/a van cannot reach the tree/);
  });

  it('refuses an answer that is not an option or "not_sure", with 400', async () => {
    const res = await visitorAnalyze(server, slug, { description: TREE, siteDetails: { powerLines: 'maybe' } });
    expect(res.status).toBe(400);
    const bad = await visitorAnalyze(server, slug, { description: TREE, siteDetails: { targets: 'Not sure' } });
    expect(bad.status).toBe(400);
  });
});

describe('height and trunk "Not sure"', () => {
  const { height, trunk } = TYPICAL_GARDEN_TREE;

  it('both: an estimate across a typical garden tree, a visit recommended, both listed, nothing "Unknown"', async () => {
    const { analysis, text } = await visitorEstimate({ description: 'an oak', siteDetails: EASY, treeDetails: { heightUnknown: true, diameterUnknown: true } });
    expect(analysis.height).toBeNull();
    expect(analysis.diameter).toBeNull();
    // Beside the local estimate's own low confidence.
    expect(analysis.siteVisitReason).toMatch(/the tree's height and trunk size were not known, so the price covers a typical garden tree; a visit will confirm the size$/);
    expect(analysis.assumptions).toEqual([
      `We did not know the tree's height, so we priced a typical garden tree, ${height.minM} to ${height.maxM} m (${height.minFt} to ${height.maxFt} ft); a site visit will confirm it.`,
      `We did not know how thick the trunk is, so we priced a typical garden tree, ${trunk.minCm} to ${trunk.maxCm} cm (${trunk.minIn} to ${trunk.maxIn} in); a site visit will confirm it.`,
    ]);
    expect(text).not.toMatch(/unknown/i);
    expect(text).not.toMatch(OPERATOR_WORDS);

    // The range runs from the small garden tree's quickest to the large one's longest.
    const small = (await visitorEstimate({ description: `oak, ${trunk.minIn} inch trunk, ${height.minFt} ft tall`, siteDetails: EASY })).analysis;
    const large = (await visitorEstimate({ description: `oak, ${trunk.maxIn} inch trunk, ${height.maxFt} ft tall`, siteDetails: EASY })).analysis;
    expect(total(analysis).min).toBe(total(small).min);
    expect(total(analysis).max).toBe(total(large).max);
    expect(analysis.price!.grossMinPence).toBe(small.price!.grossMinPence);
    expect(analysis.price!.grossMaxPence).toBe(large.price!.grossMaxPence);
    // Wider than any one band's price.
    const band = (await visitorEstimate({ description: 'an oak', siteDetails: EASY, treeDetails: { height: { band: 'taller_than_house' }, diameter: { band: 'thicker_than_plate' } } })).analysis;
    expect(analysis.price!.grossMaxPence - analysis.price!.grossMinPence).toBeGreaterThan(band.price!.grossMaxPence - band.price!.grossMinPence);
  });

  it('height only, beside a trunk chosen: the height is a range, the trunk as chosen, and only the height listed', async () => {
    const { analysis } = await visitorEstimate({ description: '', siteDetails: EASY, treeDetails: { heightUnknown: true, diameter: { band: 'up_to_plate' } } });
    expect(analysis.diameter).toBe(7);
    expect(analysis.height).toBeNull();
    expect(analysis.assumptions).toHaveLength(1);
    expect(analysis.assumptions[0]).toMatch(/^We did not know the tree's height, so we priced a typical garden tree, 6 to 15 m/);
    expect(analysis.siteVisitReason).toMatch(/the tree's height was not known, so the price covers a typical garden tree; a visit will confirm the size$/);
  });

  it('a trunk too wide for the typical range widens the height range to take in what it suggests', async () => {
    const { analysis } = await visitorEstimate({ description: '', siteDetails: EASY, treeDetails: { heightUnknown: true, diameter: { band: 'too_wide_to_hug' } } });
    // 26 in suggests about 62 ft (estimate.ts heightFromDbh): the range runs 20 to 62 ft.
    expect(analysis.assumptions[0]).toContain('(20 to 62 ft)');
    expect(analysis.factors).toContain('Height not known: priced from 20 to 62 ft, a typical garden tree');
  });

  it('a size measured on the photo wins over "Not sure"', async () => {
    const { analysis } = await visitorEstimate({ description: 'oak, 30 ft tall', siteDetails: EASY, treeDetails: { heightUnknown: true } });
    expect(analysis.height).toBe(30);
    // The trunk, left blank beside a "Not sure", is not sure either.
    expect(analysis.assumptions).toEqual([expect.stringMatching(/^We did not know how thick the trunk is/)]);
  });

  it('without "Not sure", no size still asks for one (the widget sends "Not sure" for a size left blank)', async () => {
    const res = await visitorAnalyze(server, slug, { description: '' });
    expect(res.status).toBe(200);
    expect(needsDetailsSchema.parse(await res.json()).missing).toEqual(['height', 'diameter']);
  });

  it('refuses heightUnknown that is not true, with 400', async () => {
    const res = await visitorAnalyze(server, slug, { description: '', treeDetails: { heightUnknown: 'yes' } });
    expect(res.status).toBe(400);
  });
});

describe('the signed-in owner', () => {
  it('gets the same pricing and the assumptions on their own analysis', async () => {
    const { client, account } = await registerClient(server);
    grantTo(server, account.username, 100);
    await client.request('PATCH', '/api/system-settings', { hourlyRate: '60' });
    const site: SiteDetails = { ...EASY };
    delete site.powerLines;
    const res = await analyze(client, { description: '', siteDetails: { ...site, dragDistance: NOT_SURE }, treeDetails: { heightUnknown: true, diameterUnknown: true } });
    expect(res.status, await res.clone().text()).toBe(201);
    const { analysis } = analyzeResponseSchema.parse(await res.json());
    expect(analysis.assumptions).toEqual([
      expect.stringMatching(/^We did not know the tree's height/),
      expect.stringMatching(/^We did not know how thick the trunk is/),
      CAUTIOUS_SITE.powerLines.sentence,
      CAUTIOUS_SITE.dragDistance.sentence,
    ]);
    expect(analysis.siteVisitReason).toMatch(/typical garden tree/);
    // The answers kept are the ones given: "not_sure" is not stored as an answer.
    expect(analysis.siteDetails).toEqual({ targets: 'nothing', access: 'open', stumpGrinding: false, wasteRemoval: true });
    expect(analysis.price).not.toBeNull();
  });
});
