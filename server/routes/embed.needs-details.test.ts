import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { EmbedAnalyzeOutcome } from '../../core/embed-api';
import { embedAnalyzeResponseSchema } from '../../core/embed-api';
import { needsDetailsSchema, NEEDS_DETAILS_MESSAGE, NOT_A_TREE_MESSAGE } from '../../core/tree-details';
import { findUserByUsername } from '../accounts/users';
import { embedAnalysesToday } from '../analysis/embed-usage';
import { balanceOf, ledgerSum } from '../credits/ledger';
import { grantTo } from '../../testing/analysis';
import { createBusinessFor, looseEmbedLimits, visitorAnalyze } from '../../testing/business';
import { fakeVisionAnswer, startFakeOpenAI, type FakeOpenAI } from '../../testing/fake-openai';
import { registerClient, startTestServer, type TestServer } from '../../testing/harness';
import { solidBlue } from '../../testing/images';

/*
 * A visitor on a business's site who gives nothing to quote from gets what is missing, and the
 * business's owner pays nothing: neither credits nor one of the day's slots. A visitor who says
 * "Not sure" of the size (the widget says so for a size left blank where the photo cannot be
 * read) is not asked again: a typical garden tree is priced, a visit recommended
 * (docs/analysis.md, Not sure and unanswered).
 */
let fake: FakeOpenAI;
let local: TestServer;
let model: TestServer;

beforeAll(async () => {
  fake = await startFakeOpenAI();
  local = await startTestServer({}, { rateLimits: looseEmbedLimits() });
  model = await startTestServer({ OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'sk-test-key' }, { rateLimits: looseEmbedLimits() });
});
afterAll(async () => {
  await local.close();
  await model.close();
  await fake.close();
});
beforeEach(() => fake.setAnswer(fakeVisionAnswer));

async function ownerWithBusiness(server: TestServer) {
  const { client, account } = await registerClient(server);
  grantTo(server, account.username, 10);
  const business = await createBusinessFor(client, { dailyCap: 1 });
  const ownerId = findUserByUsername(server.db, account.username)!.id;
  const state = () => ({
    balance: balanceOf(server.db, ownerId),
    ledger: ledgerSum(server.db, ownerId),
    slotsUsed: embedAnalysesToday(server.db, server.clock, business.id),
  });
  return { business, state };
}

describe('embed: needs details', () => {
  it('with the local provider, takes neither credits nor a slot', async () => {
    const { business, state } = await ownerWithBusiness(local);
    const res = await visitorAnalyze(local, business.slug, { description: '' });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    const body = (await res.json()) as EmbedAnalyzeOutcome;
    expect(needsDetailsSchema.parse(body)).toMatchObject({ message: NEEDS_DETAILS_MESSAGE, missing: ['height', 'diameter'] });
    expect(state()).toEqual({ balance: 10, ledger: 10, slotsUsed: 0 });

    const blue = await visitorAnalyze(local, business.slug, { image: await solidBlue() });
    expect(needsDetailsSchema.parse(await blue.json())).toMatchObject({ message: NOT_A_TREE_MESSAGE, missing: ['tree_photo'] });
    expect(state()).toEqual({ balance: 10, ledger: 10, slotsUsed: 0 });

    // The day's one slot is still there for a visitor who says what the tree is.
    expect((await visitorAnalyze(local, business.slug)).status).toBe(201);
    expect(state()).toEqual({ balance: 0, ledger: 0, slotsUsed: 1 });
  });

  it('with "Not sure" for both sizes, prices a typical garden tree instead of asking again', async () => {
    const { business, state } = await ownerWithBusiness(local);
    const res = await visitorAnalyze(local, business.slug, { description: '', treeDetails: { heightUnknown: true, diameterUnknown: true } });
    expect(res.status).toBe(201);
    const body = embedAnalyzeResponseSchema.parse(await res.json());
    expect(body.analysis.siteVisitReason).toMatch(/height and trunk size were not known, so the price covers a typical garden tree/);
    expect(body.analysis.assumptions.slice(0, 2)).toEqual([
      expect.stringMatching(/^We did not know the tree's height, so we priced a typical garden tree, 6 to 15 m/),
      expect.stringMatching(/^We did not know how thick the trunk is, so we priced a typical garden tree, 20 to 50 cm/),
    ]);
    expect(state()).toEqual({ balance: 0, ledger: 0, slotsUsed: 1 });
  });

  it('with a model that gives no size, gives back the credits and the slot; with "Not sure", prices the typical range', async () => {
    fake.setAnswer({ ...fakeVisionAnswer, dbhInches: null, heightFeet: null });
    const { business, state } = await ownerWithBusiness(model);
    const res = await visitorAnalyze(model, business.slug, { description: 'an oak' });
    expect(res.status).toBe(200);
    expect(needsDetailsSchema.parse(await res.json())).toMatchObject({ missing: ['height', 'diameter'] });
    expect(state()).toEqual({ balance: 10, ledger: 10, slotsUsed: 0 });

    const notSure = await visitorAnalyze(model, business.slug, { description: 'an oak', treeDetails: { heightUnknown: true } });
    expect(notSure.status).toBe(201);
    expect(embedAnalyzeResponseSchema.parse(await notSure.json()).analysis.assumptions[0]).toMatch(/^We did not know the tree's height/);
    expect(state()).toEqual({ balance: 0, ledger: 0, slotsUsed: 1 });
  });
});
