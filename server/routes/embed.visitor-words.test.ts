import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import * as contactPreference from '../../core/contact-preference';
import {
  EMBED_RETRY_MESSAGE,
  OPERATOR_WORDS,
  VISITOR_LIMIT_KEPT,
  VISITOR_LIMIT_OVER,
  VISITOR_LIMIT_STILL_HERE,
  visitorLimitMessage,
} from '../../core/embed';
import { SURVEYOR_WORDS } from '../../core/homeowner-guide';
import { RateLimits } from '../http/rate-limit';
import { grantTo } from '../../testing/analysis';
import { createBusinessFor, looseEmbedLimits, visitorAnalyze } from '../../testing/business';
import { fakeVisionAnswer, startFakeOpenAI, type FakeOpenAI } from '../../testing/fake-openai';
import { registerClient, startTestServer, type TestServer } from '../../testing/harness';
import { solidBlue } from '../../testing/images';

/*
 * Visitor words only: whatever happens, an answer to a business's visitor
 * never mentions models, providers, credits or configuration: with the local provider or a
 * model, an estimate, a needs-details answer (no size, not a tree) or a failure on our side.
 * The owner's own copy keeps saying what the model read.
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
beforeEach(() => {
  fake.setMode('ok');
  fake.setAnswer(fakeVisionAnswer);
});

/** Every string in a JSON answer. */
function texts(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(texts);
  if (value && typeof value === 'object') return Object.values(value).flatMap(texts);
  return [];
}

async function slugOn(server: TestServer) {
  const { client, account } = await registerClient(server);
  grantTo(server, account.username, 100);
  return (await createBusinessFor(client)).slug;
}

async function visitorTexts(server: TestServer, fields: Parameters<typeof visitorAnalyze>[2] = {}) {
  const res = await visitorAnalyze(server, await slugOn(server), fields);
  const body = await res.json();
  const words = texts(body);
  expect(words.filter((text) => OPERATOR_WORDS.test(text)), JSON.stringify(body)).toEqual([]);
  // What the estimator shows of an estimate (its guide) is in a homeowner's words, never the trade's working.
  if (body.outcome === 'estimate') expect(texts(body.analysis.guide).filter((text) => SURVEYOR_WORDS.test(text)), JSON.stringify(body.analysis.guide)).toEqual([]);
  return { status: res.status, body };
}

describe('what a visitor reads', () => {
  it('with no model: an estimate, and the sizes it needs', async () => {
    expect((await visitorTexts(local)).status).toBe(201);
    const { status, body } = await visitorTexts(local, { description: '' });
    expect(status).toBe(200);
    expect(body.reasons).toContain("We need the tree's size: choose roughly how tall it is and how thick its trunk is");
  });

  it('with no model and every answer given: what the price includes and why to see the site', async () => {
    const { status, body } = await visitorTexts(local, {
      description: '',
      treeDetails: { height: { band: 'much_taller' }, diameter: { band: 'too_wide_to_hug' } },
      siteDetails: { targets: 'building', powerLines: true, access: 'through_house', dragDistance: 'long', stumpGrinding: true, wasteRemoval: false },
    });
    expect(status).toBe(201);
    expect(body.analysis.included.length).toBeGreaterThan(0);
    expect(body.analysis.siteVisitReason).toEqual(expect.any(String));
    // The next step in the visitor's words: a building it could hit, power lines, access through the house, its size.
    expect(body.analysis.guide.nextStep).toEqual({
      visit: true,
      heading: "We'll confirm the price when we see the tree",
      reasons: ['It could hit a building if it fell', 'There are power lines near it', 'Everything has to be carried through the house', 'It is a large tree'],
    });
    // A conservation area asks six weeks' notice to the council, not its agreement (TCPA 1990 s.211).
    const protectedTrees = body.analysis.guide.goodToKnow.join(' ');
    expect(protectedTrees).toContain("in a conservation area, the council must be given six weeks' notice before it");
    expect(protectedTrees).not.toMatch(/conservation area\), the council must agree/);
  });

  it("the estimator's own words for the results and the quote request", () => {
    // Written in widget/views (estimate-cards.tsx, results-view.tsx, lead-form.tsx) and core/contact-preference.ts.
    const widgetWords = ['What the price includes', 'Not included:', 'How the price is made up', 'Add another tree', 'Get my price', 'Request a quote', '(optional)'];
    const words = [...widgetWords, ...texts(contactPreference)];
    expect(words.filter((text) => OPERATOR_WORDS.test(text))).toEqual([]);
    expect(words).toContain('Call me');
  });

  it('with a model: an estimate where the visitor overruled its sizes, and a photo that is not a tree', async () => {
    const overruled = await visitorTexts(model, { description: '', treeDetails: { height: { value: 30, unit: 'ft' } } });
    expect(overruled.status).toBe(201);
    expect(overruled.body.analysis.factors.join(' ')).toMatch(/the photo suggested 45 ft/);
    fake.setAnswer({ ...fakeVisionAnswer, isTree: false });
    const notATree = await visitorTexts(model, { image: await solidBlue(), description: '' });
    expect(notATree.status).toBe(200);
    expect(notATree.body.reasons).toContain('We could not see a tree in this photo');
  });

  it("a visitor's own limit: the wait, and what is kept", async () => {
    // Written in core/embed.ts, shown by widget/views/visitor-limit-view.tsx.
    const widgetWords = [VISITOR_LIMIT_KEPT, VISITOR_LIMIT_OVER, VISITOR_LIMIT_STILL_HERE, 'Try Again'];
    const waits = [3600, 3000, 61, 60, 1].map(visitorLimitMessage);
    expect([...widgetWords, ...waits].filter((text) => OPERATOR_WORDS.test(text))).toEqual([]);
    // And the server's real answer, from an address that has used up its one analysis.
    const limited = await startTestServer({}, { rateLimits: new RateLimits({ embedAnalysesPerAddress: { points: 1, windowSeconds: 3600 } }) });
    try {
      const slug = await slugOn(limited);
      expect((await visitorAnalyze(limited, slug)).status).toBe(201);
      const refused = await visitorAnalyze(limited, slug);
      expect(refused.status).toBe(429);
      const body = await refused.json();
      expect(body.code).toBe('VISITOR_LIMIT');
      expect(body.message).toMatch(/^You have made several estimates; please try again in \d+ minutes?$/);
      expect(texts(body).filter((text) => OPERATOR_WORDS.test(text)), JSON.stringify(body)).toEqual([]);
    } finally {
      await limited.close();
    }
  });

  it.each(['error500', 'refusal', 'garbage'] as const)('with a model that fails (%s): what to do next, nothing of what broke', async (mode) => {
    fake.setMode(mode);
    const { status, body } = await visitorTexts(model);
    expect(status).toBe(502);
    expect(body.message).toBe(EMBED_RETRY_MESSAGE);
  });
});
