import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  analysisListItemSchema,
  analysisListSchema,
  analysisSchema,
  analyzeOutcomeSchema,
  analyzeResponseSchema,
  type Analysis,
  type AnalysisListItem,
} from '../../core/analysis';
import { errorBodySchema } from '../../core/errors';
import { estimateTimes } from '../../core/time-model';
import { NEEDS_DETAILS_MESSAGE, NOT_A_TREE_MESSAGE, type TreeDetails } from '../../core/tree-details';
import { treeAnalyses } from '../../db/schema';
import { findUserByUsername } from '../accounts/users';
import { balanceOf, ledgerSum } from '../credits/ledger';
import { analyze, DOOR_MEASUREMENT, grantTo } from '../../testing/analysis';
import { fakeVisionAnswer, startFakeOpenAI, type FakeOpenAI } from '../../testing/fake-openai';
import { registerClient, startTestServer, type TestClient, type TestServer } from '../../testing/harness';
import { solidBlue } from '../../testing/images';

/*
 * Issue "Estimates a tree surgeon would sign", over HTTP: a model's messy numbers and names are
 * normalised before they are stored, History always loads, the user's tree details override a
 * model's reading and the sources say so, and an analysis with nothing to quote is answered
 * with what is missing, charging nothing.
 */
let fake: FakeOpenAI;
let modelServer: TestServer;
let localServer: TestServer;

beforeAll(async () => {
  fake = await startFakeOpenAI();
  modelServer = await startTestServer({ OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'sk-test-key', OPENAI_MODEL: 'tree-vision' });
  localServer = await startTestServer();
});
afterAll(async () => {
  await modelServer.close();
  await localServer.close();
  await fake.close();
});
beforeEach(() => {
  fake.setMode('ok');
  fake.setAnswer(fakeVisionAnswer);
});

async function paidClient(server: TestServer, credits = 10): Promise<{ client: TestClient; userId: number }> {
  const { client, account } = await registerClient(server);
  grantTo(server, account.username, credits);
  return { client, userId: findUserByUsername(server.db, account.username)!.id };
}

async function estimate(client: TestClient, fields: Parameters<typeof analyze>[1] = {}): Promise<Analysis> {
  const res = await analyze(client, fields);
  expect(res.status).toBe(201);
  return analyzeResponseSchema.parse(await res.json()).analysis;
}

async function history(client: TestClient): Promise<AnalysisListItem[]> {
  const res = await client.get('/api/analyses');
  expect(res.status).toBe(200);
  return analysisListSchema.parse(await res.json()).analyses;
}

async function stored(client: TestClient, id: number): Promise<Analysis> {
  const res = await client.get(`/api/analysis/${id}`);
  expect(res.status).toBe(200);
  return analysisSchema.parse((await res.json()).analysis);
}

describe("a model's messy answer is normalised before it is stored", () => {
  it('stores 14.5 in as 15 in, "English oak" as Oak with its density, and History loads', async () => {
    fake.setAnswer({ ...fakeVisionAnswer, species: 'English oak', dbhInches: 14.5, heightFeet: 44.6 });
    const { client } = await paidClient(modelServer);
    const analysis = await estimate(client);
    expect(analysis).toMatchObject({ species: 'Oak', diameter: 15, height: 45, woodDensity: 'High (about 1,050 kg/m³ green)' });
    expect(analysis.sources).toEqual({ species: 'model', height: 'model', diameter: 'model' });
    const [card] = await history(client);
    expect(card).toEqual(analysisListItemSchema.parse({ ...analysis, hasFeedback: false, web: null }));
    expect(await stored(client, analysis.id)).toEqual(analysis);
  });

  it('gives "Scots pine" the conifer density, form factor and crown', async () => {
    fake.setAnswer({ ...fakeVisionAnswer, species: 'Scots pine', dbhInches: 15, heightFeet: 60, crownSpreadFeet: null });
    const { client } = await paidClient(modelServer);
    const analysis = await estimate(client);
    expect(analysis).toMatchObject({ species: 'Scots pine', woodDensity: 'Medium (about 850 kg/m³ green)' });
    const site = { targets: 'fence_shed', powerLines: false, access: 'side_gate', dragDistance: 'medium', stumpGrinding: false, wasteRemoval: true } as const;
    const conifer = estimateTimes({ dbhIn: 15, heightFt: 60, greenDensityKgM3: 850, kind: 'conifer', site });
    const asBroadleaf = estimateTimes({ dbhIn: 15, heightFt: 60, greenDensityKgM3: 850, kind: 'broadleaf', site });
    // The green mass line names the conifer's (form factor 0.4, expansion 1.3), not a broadleaf's.
    expect(analysis.factors).toContain(conifer.factors[1]);
    expect(conifer.factors[1]).not.toBe(asBroadleaf.factors[1]);
  });

  it('ignores out-of-range sizes, says so, and assumes the other size from the one left', async () => {
    fake.setAnswer({ ...fakeVisionAnswer, dbhInches: -4, heightFeet: 2000 });
    const { client, userId } = await paidClient(modelServer);
    // The description gives a height: a model's nonsense is not a size, the customer's words are.
    const analysis = await estimate(client, { description: 'about 40 ft tall' });
    expect(analysis).toMatchObject({ diameter: null, height: 40 });
    expect(analysis.sources).toEqual({ species: 'model', height: 'description', diameter: 'assumed' });
    expect(analysis.factors).toContain('The AI model gave a trunk diameter of -4 in, outside 1-180 in; it was ignored');
    expect(analysis.factors).toContain('The AI model gave a height of 2000 ft, outside 3-230 ft; it was ignored');
    expect(analysis.factors.join('\n')).toMatch(/Trunk size not given: assumed about 15 in from the height/);
    expect([balanceOf(modelServer.db, userId), ledgerSum(modelServer.db, userId)]).toEqual([0, 0]);
    expect(await history(client)).toHaveLength(1);
  });

  it('asks for sizes, refunds and stores nothing when the model gives none and nobody else does', async () => {
    fake.setAnswer({ ...fakeVisionAnswer, dbhInches: null, heightFeet: null });
    const { client, userId } = await paidClient(modelServer);
    const res = await analyze(client, { description: 'oak in the back garden' });
    expect(res.status).toBe(200);
    expect(analyzeOutcomeSchema.parse(await res.json())).toEqual({
      outcome: 'needs_details',
      message: NEEDS_DETAILS_MESSAGE,
      missing: ['height', 'diameter'],
      reasons: ["The AI model could not judge the tree's size from this photo, and no height or trunk size was given"],
    });
    expect([balanceOf(modelServer.db, userId), ledgerSum(modelServer.db, userId)]).toEqual([10, 10]);
    expect(await history(client)).toEqual([]);
  });

  it('answers not-a-tree when the model says so, refunded', async () => {
    fake.setAnswer({ ...fakeVisionAnswer, isTree: false });
    const { client, userId } = await paidClient(modelServer);
    const res = await analyze(client, { description: 'oak, 40 ft' });
    const body = analyzeOutcomeSchema.parse(await res.json());
    expect(body).toMatchObject({ outcome: 'needs_details', message: NOT_A_TREE_MESSAGE, missing: ['tree_photo'] });
    expect([balanceOf(modelServer.db, userId), ledgerSum(modelServer.db, userId)]).toEqual([10, 10]);
  });

  it('believes a model that sees a tree where the pixel check saw none', async () => {
    const { client } = await paidClient(modelServer);
    const analysis = await estimate(client, { image: await solidBlue() });
    expect(analysis.factors.join('\n')).toMatch(/is this a tree\?/);
  });

  it('loads History whatever an older version stored', async () => {
    const { client, userId } = await paidClient(modelServer);
    const { id } = await estimate(client);
    modelServer.db
      .update(treeAnalyses)
      .set({
        diameter: 14.5,
        height: -3,
        confidence: 5,
        cuttingTimeMin: 12.4,
        factors: ['ok', 7] as unknown as string[],
        siteDetails: { targets: 'castle' },
        valueSources: { species: 'guess' } as never,
      })
      .where(eq(treeAnalyses.id, id))
      .run();
    const [card] = await history(client);
    expect(card).toMatchObject({ id, cuttingTimeMin: 12 });
    expect(await stored(client, id)).toMatchObject({ id, diameter: 15, height: null, confidence: 0.05, cuttingTimeMin: 12, factors: ['ok'], siteDetails: null, sources: null });
    expect(userId).toBeGreaterThan(0);
  });
});

describe("the user's tree details", () => {
  const measurement = DOOR_MEASUREMENT;

  it("override a model's reading, typed over measured over a band, and the sources say so", async () => {
    const { client } = await paidClient(modelServer, 30);
    const typed = await estimate(client, { treeDetails: { species: 'Scots pine', height: { value: 20, unit: 'm' }, diameter: { value: 60, unit: 'cm' } } satisfies TreeDetails });
    expect(typed).toMatchObject({ species: 'Scots pine', height: 66, diameter: 24, sources: { species: 'user', height: 'user', diameter: 'user' } });
    expect(typed.factors).toContain('Height 66 ft as you entered it; the AI model read 45 ft from the photo');
    expect(typed.factors).toContain('Species Scots pine as you chose it; the AI model thought Oak');

    const measured = await estimate(client, { treeDetails: { measurement, height: { band: 'much_taller' } } satisfies TreeDetails });
    expect(measured).toMatchObject({ height: 39, diameter: 20, sources: { species: 'model', height: 'measured', diameter: 'measured' } });
    expect(measured.measurement).toEqual(measurement);

    const banded = await estimate(client, { treeDetails: { height: { band: 'about_two_storey' }, diameter: { band: 'up_to_plate' } } satisfies TreeDetails });
    expect(banded).toMatchObject({ height: 20, diameter: 7, sources: { height: 'band', diameter: 'band' } });
    expect(banded.measurement).toBeNull();
  });

  it('go to the model as data', async () => {
    const { client } = await paidClient(modelServer);
    fake.requests.length = 0;
    await estimate(client, { treeDetails: { species: 'Silver birch', diameter: { value: 10, unit: 'in' } } });
    const request = fake.requests[0] as { messages: { role: string; content: { text?: string }[] }[] };
    const userText = request.messages.find((m) => m.role === 'user')?.content[0]?.text;
    expect(userText).toContain('<tree_details>\n{"species":"Silver birch","heightFeet":null,"dbhInches":{"value":10,"given":"user"}}\n</tree_details>');
  });

  it('make a local estimate, typed over the description', async () => {
    const { client } = await paidClient(localServer);
    const analysis = await estimate(client, {
      description: 'oak, 30 inch trunk, 60 ft, next to the garage',
      treeDetails: { height: { value: 40, unit: 'ft' } },
    });
    expect(analysis).toMatchObject({ species: 'Oak', height: 40, diameter: 30, sources: { species: 'description', height: 'user', diameter: 'description' } });
  });

  it('are refused with 400 and the reason when they cannot be used, and nothing is charged', async () => {
    const { client, userId } = await paidClient(localServer);
    const cases: [unknown, RegExp][] = [
      ['{not json', /^Tree details must be valid JSON$/],
      [{ height: { value: 40, unit: 'yards' } }, /^Tree details are not valid \(height/],
      [{ diameter: { value: -3, unit: 'in' } }, /^Tree details are not valid \(diameter/],
      [{ height: { value: 140, unit: 'm' } }, /^Tree details are not valid \(height/],
      [{ diameter: { value: 0.4, unit: 'in' } }, /A trunk diameter of 0.4 in is not a tree we can quote for/],
      [{ measurement: { ...measurement, reference: { ...measurement.reference, bottom: { x: 100, y: 1310 } } } }, /reference is too small/],
      [{ measurement: { ...measurement, tree: { top: { x: 500, y: 800 }, base: { x: 500, y: 4000 } } } }, /outside the photo/],
    ];
    for (const [treeDetails, message] of cases) {
      const res = await analyze(client, { description: 'oak, 20 ft', treeDetails });
      expect(res.status, String(message)).toBe(400);
      const body = errorBodySchema.parse(await res.json());
      expect(body.code).toBe('VALIDATION_ERROR');
      expect(body.message).toMatch(message);
      expect(body.details?.treeDetails?.length).toBeGreaterThan(0);
    }
    expect([balanceOf(localServer.db, userId), ledgerSum(localServer.db, userId)]).toEqual([10, 10]);
  });
});

describe('abstention with the local provider', () => {
  it('answers a blank blue photo with no details with needs_details, balance unchanged, nothing stored', async () => {
    const { client, userId } = await paidClient(localServer);
    const res = await analyze(client, { image: await solidBlue() });
    expect(res.status).toBe(200);
    const body = analyzeOutcomeSchema.parse(await res.json());
    expect(body).toMatchObject({ outcome: 'needs_details', message: NOT_A_TREE_MESSAGE, missing: ['tree_photo', 'height', 'diameter'] });
    expect(body.outcome === 'needs_details' && body.reasons.join('\n')).toMatch(/Little vegetation in frame: is this a tree\?/);
    expect([balanceOf(localServer.db, userId), ledgerSum(localServer.db, userId)]).toEqual([10, 10]);
    expect(await history(client)).toEqual([]);
  });

  it('asks for a tree photo even with sizes given, and for sizes with a tree photo', async () => {
    const { client } = await paidClient(localServer);
    const blue = analyzeOutcomeSchema.parse(await (await analyze(client, { image: await solidBlue(), description: 'oak, 40 ft' })).json());
    expect(blue).toMatchObject({ outcome: 'needs_details', missing: ['tree_photo'] });
    const noSize = analyzeOutcomeSchema.parse(await (await analyze(client, { treeDetails: { species: 'Oak' } })).json());
    expect(noSize).toMatchObject({ outcome: 'needs_details', message: NEEDS_DETAILS_MESSAGE, missing: ['height', 'diameter'] });
  });

  it('refuses a user who cannot pay before the upload is read, so before any details are judged', async () => {
    const { client } = await registerClient(localServer);
    const res = await analyze(client, { description: 'a tree' });
    expect(res.status).toBe(402);
    expect((await res.json()).code).toBe('INSUFFICIENT_TOKENS');
  });

  it('quotes with one size given, the other assumed and said so', async () => {
    const { client } = await paidClient(localServer);
    const analysis = await estimate(client, { treeDetails: { diameter: { band: 'thicker_than_plate' } } });
    expect(analysis).toMatchObject({ diameter: 15, height: null, sources: { species: null, height: 'assumed', diameter: 'band' } });
  });
});

describe('local confidence reflects what the user gave', () => {
  const allSite = { targets: 'building', powerLines: false, access: 'open', dragDistance: 'short', stumpGrinding: true, wasteRemoval: true };

  it('reaches 0.5 with a species, both sizes and all six site answers, and gives less for less', async () => {
    const { client } = await paidClient(localServer, 40);
    const full = await estimate(client, { treeDetails: { species: 'Beech', height: { value: 12, unit: 'm' }, diameter: { value: 40, unit: 'cm' } }, siteDetails: allSite });
    expect(full.confidence).toBe(0.5);
    const noSite = await estimate(client, { treeDetails: { species: 'Beech', height: { value: 12, unit: 'm' }, diameter: { value: 40, unit: 'cm' } } });
    expect(noSite.confidence).toBe(0.4);
    const bands = await estimate(client, { treeDetails: { height: { band: 'about_two_storey' }, diameter: { band: 'up_to_plate' } }, siteDetails: allSite });
    expect(bands.confidence).toBe(0.3);
    const oneSize = await estimate(client, { treeDetails: { height: { value: 30, unit: 'ft' } } });
    expect(oneSize.confidence).toBe(0.2);
    // Low confidence keeps "Site visit recommended".
    expect(oneSize.siteVisitReason).toMatch(/low confidence \(20%\)/);
    expect(full.siteVisitReason).toBeNull();
  });
});

describe('hazards named in the details', () => {
  it('lengthen the time, warn, and recommend a site visit', async () => {
    const { client } = await paidClient(localServer, 20);
    const site = { targets: 'nothing', powerLines: false, access: 'open', dragDistance: 'short', stumpGrinding: false, wasteRemoval: true };
    const healthy = await estimate(client, { description: 'ash, 16 inch trunk, 40 ft', siteDetails: site });
    const diseased = await estimate(client, { description: 'ash with ash dieback, 16 inch trunk, 40 ft', siteDetails: site });
    expect(diseased.cuttingTimeMax).toBeGreaterThan(healthy.cuttingTimeMax);
    expect(diseased.prepTimeMax).toBeGreaterThan(healthy.prepTimeMax);
    expect(diseased.factors[0]).toBe(
      'Your details mention ash dieback: dead or decayed wood cannot be climbed or rigged in the normal way, so cutting x1.5, set-up x1.3',
    );
    expect(diseased.safetyWarnings.join('\n')).toMatch(/do not climb or rig from it/);
    expect(diseased.siteVisitReason).toMatch(/dead, dying or decayed wood needs an on-site assessment/i);
    expect(healthy.siteVisitReason).toBeNull();
  });

  it('warn of the road as well as the building the time model was given', async () => {
    const { client } = await paidClient(localServer);
    // No power lines, said so: unanswered they would be priced as near (core/site-assumptions.ts).
    const analysis = await estimate(client, { description: 'conifer 100 ft tall 50 inch diameter next to house and road', siteDetails: { powerLines: false } });
    expect(analysis).toMatchObject({ height: 100, diameter: 50, species: 'Conifer', method: 'climb_dismantle' });
    expect(analysis.woodDensity).toMatch(/, assumed$/);
    expect(analysis.safetyWarnings.join('\n')).toMatch(/Road or footpath in falling distance/);
    expect(analysis.siteVisitReason).toMatch(/a large tree near a building/i);
  });
});
