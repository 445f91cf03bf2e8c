import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analysisListSchema, type AnalysisListItem } from '../../core/analysis';
import { historyPageQuery } from '../analysis/history';
import { analyze, grantTo } from '../../testing/analysis';
import { createBusinessFor, looseEmbedLimits, visitorAnalyze, visitorLead } from '../../testing/business';
import { registerClient, startTestServer, type TestClient, type TestServer } from '../../testing/harness';

/*
 * docs/product.md, Screens (History): a visitor's estimate on the owner's website is in the
 * owner's History as a web estimate of that business, with the visitor's name once they asked
 * for a quote and the species as they answered it ("Not sure" when they named none), all in the
 * one query of GET /api/analyses.
 */
let server: TestServer;
let owner: TestClient;
beforeAll(async () => {
  server = await startTestServer({}, { rateLimits: looseEmbedLimits() });
  const registered = await registerClient(server);
  owner = registered.client;
  grantTo(server, registered.account.username, 100);
});
afterAll(() => server.close());

const ORIGIN = { origin: 'https://customer-site.example' };

async function visitorEstimate(slug: string, treeDetails: Record<string, unknown>) {
  const res = await visitorAnalyze(server, slug, { description: '', treeDetails }, ORIGIN);
  expect(res.status, await res.clone().text()).toBe(201);
  const body = (await res.json()) as { analysis: { id: number }; leadToken: string };
  return { id: body.analysis.id, leadToken: body.leadToken };
}

async function history(): Promise<AnalysisListItem[]> {
  const res = await owner.get('/api/analyses');
  expect(res.status).toBe(200);
  return analysisListSchema.parse(await res.json()).analyses;
}

describe('web estimates in History', () => {
  it('name the business, the species as the visitor answered it, and the lead once one exists', async () => {
    const business = await createBusinessFor(owner, { name: 'Rowan Tree Care' });
    const sizes = { height: { band: 'much_taller' }, diameter: { band: 'too_wide_to_hug' } };
    const named = await visitorEstimate(business.slug, { species: 'English oak', ...sizes });
    const unsure = await visitorEstimate(business.slug, sizes);

    let list = await history();
    expect(list.find((a) => a.id === named.id)).toMatchObject({
      source: 'embed',
      web: { businessName: 'Rowan Tree Care', leadName: null, speciesAnswer: 'Oak' },
    });
    expect(list.find((a) => a.id === unsure.id)?.web).toEqual({ businessName: 'Rowan Tree Care', leadName: null, speciesAnswer: 'Not sure' });

    const lead = await visitorLead(server, business.slug, { analysisId: unsure.id, leadToken: unsure.leadToken, name: 'Jo Rowan', email: 'jo@example.com' }, ORIGIN);
    expect(lead.status, await lead.clone().text()).toBe(201);
    list = await history();
    expect(list.find((a) => a.id === unsure.id)?.web).toEqual({ businessName: 'Rowan Tree Care', leadName: 'Jo Rowan', speciesAnswer: 'Not sure' });
    // The other estimate has no lead, and nobody else's lead is read into it.
    expect(list.find((a) => a.id === named.id)?.web?.leadName).toBeNull();
  });

  it("are null on the user's own analyses", async () => {
    const res = await analyze(owner, { description: 'birch, 10 inch trunk, 30 ft tall' });
    expect(res.status, await res.clone().text()).toBe(201);
    const { analysis } = (await res.json()) as { analysis: { id: number } };
    const own = (await history()).find((a) => a.id === analysis.id);
    expect(own).toMatchObject({ source: 'dashboard', web: null });
  });

  it('reads the lead and business by their indexes in the one History query, with no scan', () => {
    const { sql, params } = historyPageQuery(server.db).toSQL();
    const plan = (server.db.$client.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params.map(() => 1)) as { detail: string }[])
      .map((r) => r.detail)
      .join('\n');
    expect(plan).toMatch(/SEARCH leads USING (COVERING )?INDEX leads_analysis_unique \(analysis_id=\?\)/);
    expect(plan).toMatch(/SEARCH businesses USING INTEGER PRIMARY KEY/);
    expect(plan).not.toMatch(/SCAN|TEMP B-TREE/);
  });
});
