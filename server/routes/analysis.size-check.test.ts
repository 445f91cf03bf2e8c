import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analysisSchema, analyzeOutcomeSchema, analyzeResponseSchema } from '../../core/analysis';
import { OPERATOR_WORDS } from '../../core/embed';
import type { EmbedAnalyzeOutcome } from '../../core/embed-api';
import { CHECK_SIZES_MESSAGE, needsDetailsSchema } from '../../core/tree-details';
import { findUserByUsername } from '../accounts/users';
import { embedAnalysesToday } from '../analysis/embed-usage';
import { balanceOf, ledgerSum } from '../credits/ledger';
import { analyze, grantTo, photo, REDBUD_TINY_REFERENCE } from '../../testing/analysis';
import { createBusinessFor, looseEmbedLimits, visitorAnalyze } from '../../testing/business';
import { fakeVisionAnswer, startFakeOpenAI, type FakeOpenAI } from '../../testing/fake-openai';
import { registerClient, startTestServer, type TestServer } from '../../testing/harness';

/*
 * Size checks over HTTP, with the case a tester measured on a phone: the redbud photo measured by
 * "a person" tapped on something small by a pavilion gave a 35.5 m tree with a trunk 296 cm
 * across, and it was priced at 50% confidence with no warning. Now the answer asks to check the
 * sizes, charging nothing; sent again as confirmed, the estimate carries the warnings and half the
 * confidence.
 */
let local: TestServer;
let model: TestServer;
let fake: FakeOpenAI;

beforeAll(async () => {
  fake = await startFakeOpenAI();
  local = await startTestServer({}, { rateLimits: looseEmbedLimits() });
  model = await startTestServer({ OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'sk-test-key', OPENAI_MODEL: 'tree-vision' });
});
afterAll(async () => {
  await local.close();
  await model.close();
  await fake.close();
});

const REDBUD = photo('redbud-small-tree.jpg');
const measuredRedbud = { species: 'Redbud', measurement: REDBUD_TINY_REFERENCE };

async function paidClient(server: TestServer, credits = 20) {
  const { client, account } = await registerClient(server);
  grantTo(server, account.username, credits);
  const userId = findUserByUsername(server.db, account.username)!.id;
  return { client, money: () => [balanceOf(server.db, userId), ledgerSum(server.db, userId)] };
}

describe('sizes that look unlikely', () => {
  it('are sent back to be checked with nothing charged, then priced once confirmed, with the warnings and half the confidence', async () => {
    const { client, money } = await paidClient(local);

    const asked = await analyze(client, { image: REDBUD, treeDetails: measuredRedbud });
    expect(asked.status).toBe(200);
    const answer = needsDetailsSchema.parse(analyzeOutcomeSchema.parse(await asked.json()));
    expect(answer.message).toBe(CHECK_SIZES_MESSAGE);
    expect(answer.missing).toEqual(['check_sizes']);
    expect(answer.reasons).toEqual([
      'The height measured on the photo, about 35.4 m (116 ft), is far taller than a Redbud grows (at most about 12 m)',
      'The trunk measured on the photo, about 295 cm (116 in) across, is far wider than a Redbud grows (at most about 60 cm)',
      expect.stringMatching(/^The reference you measured by, a person \(1\.7 m\), is only 4% of the photo's height/),
    ]);
    expect(money()).toEqual([20, 20]);
    expect((await (await client.get('/api/analyses')).json()).analyses).toEqual([]);

    // The same sizes, believable: typed for a redbud of a usual size, for the confidence they earn.
    const usual = await analyze(client, { image: REDBUD, treeDetails: { species: 'Redbud', height: { value: 6, unit: 'm' }, diameter: { value: 30, unit: 'cm' } } });
    expect(usual.status).toBe(201);
    const believable = analyzeResponseSchema.parse(await usual.json()).analysis;
    expect(believable.sizeWarnings).toEqual([]);
    expect(money()).toEqual([10, 10]);

    const confirmed = await analyze(client, { image: REDBUD, treeDetails: { ...measuredRedbud, sizesConfirmed: true } });
    expect(confirmed.status).toBe(201);
    const body = analyzeResponseSchema.parse(await confirmed.json());
    expect(body.analysis.sizeWarnings).toEqual(answer.reasons);
    expect(body.analysis).toMatchObject({ height: 116, diameter: 116 });
    expect(body.confidence).toBe(Math.round(believable.confidence * 50) / 100);
    expect(body.analysis.siteVisitReason).toMatch(/low confidence/);
    expect(money()).toEqual([0, 0]);

    const stored = await client.get(`/api/analysis/${body.analysis.id}`);
    expect(analysisSchema.parse((await stored.json()).analysis).sizeWarnings).toEqual(answer.reasons);
  });

  it('corrected instead, are priced with no warning', async () => {
    const { client, money } = await paidClient(local, 10);
    const fair = { ...REDBUD_TINY_REFERENCE, reference: { ...REDBUD_TINY_REFERENCE.reference, top: { x: 470, y: 200 }, bottom: { x: 470, y: 343 } } };
    const res = await analyze(client, { image: REDBUD, treeDetails: { species: 'Redbud', measurement: fair } });
    expect(res.status).toBe(201);
    const { analysis } = analyzeResponseSchema.parse(await res.json());
    expect(analysis.sizeWarnings).toEqual([]);
    expect(money()).toEqual([0, 0]);
  });

  it("from a model's reading are checked too, and its credits given back", async () => {
    fake.setAnswer({ ...fakeVisionAnswer, species: 'English oak', dbhInches: 120, heightFeet: 25 });
    const { client, money } = await paidClient(model, 10);
    const res = await analyze(client);
    expect(res.status).toBe(200);
    const answer = needsDetailsSchema.parse(await res.json());
    expect(answer.missing).toEqual(['check_sizes']);
    expect(answer.reasons).toEqual([expect.stringMatching(/^A trunk about 305 cm \(120 in\) across on a tree about 7\.6 m \(25 ft\) tall is stouter than trees grow/)]);
    expect(money()).toEqual([10, 10]);
  });

  it("on a business's site ask the visitor, in their words, taking neither credits nor a slot", async () => {
    const { client, account } = await registerClient(local);
    grantTo(local, account.username, 10);
    const ownerId = findUserByUsername(local.db, account.username)!.id;
    const business = await createBusinessFor(client, { dailyCap: 1 });
    const state = () => [balanceOf(local.db, ownerId), embedAnalysesToday(local.db, local.clock, business.id)];

    const asked = await visitorAnalyze(local, business.slug, { image: REDBUD, description: '', treeDetails: measuredRedbud });
    expect(asked.status).toBe(200);
    const answer = needsDetailsSchema.parse(await asked.json());
    expect(answer.missing).toEqual(['check_sizes']);
    expect(answer.reasons).toHaveLength(3);
    for (const text of [answer.message, ...answer.reasons]) expect(text).not.toMatch(OPERATOR_WORDS);
    expect(state()).toEqual([10, 0]);

    const confirmed = await visitorAnalyze(local, business.slug, { image: REDBUD, description: '', treeDetails: { ...measuredRedbud, sizesConfirmed: true } });
    expect(confirmed.status).toBe(201);
    const estimate = (await confirmed.json()) as EmbedAnalyzeOutcome;
    if (estimate.outcome !== 'estimate') throw new Error('expected an estimate');
    expect(estimate.analysis.sizeWarnings).toEqual(answer.reasons);
    expect(state()).toEqual([0, 1]);
  });
});
