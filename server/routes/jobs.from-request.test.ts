import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leadListSchema } from '../../core/business';
import { grantTo } from '../../testing/analysis';
import { createBusinessFor, looseEmbedLimits, visitorAnalyze, visitorLead } from '../../testing/business';
import { registerClient, startTestServer, type TestClient, type TestServer } from '../../testing/harness';
import { jobOf } from '../../testing/jobs';

/*
 * A job made from a homeowner's request (docs/product.md, Jobs and quotes): each tree's item is named by its
 * kind, or "Tree 2 (kind not sure)", with the size band the visitor chose (not its middle), and
 * carries the extras they asked for. Over HTTP against the real server.
 */
let server: TestServer;
let owner: TestClient;
beforeAll(async () => {
  server = await startTestServer({}, { rateLimits: looseEmbedLimits() });
  const registered = await registerClient(server, { firstName: 'Ash' });
  owner = registered.client;
  grantTo(server, registered.account.username, 1000);
});
afterAll(() => server.close());

async function estimate(slug: string, fields: Parameters<typeof visitorAnalyze>[2]) {
  const res = await visitorAnalyze(server, slug, fields);
  expect(res.status, await res.clone().text()).toBe(201);
  const body = (await res.json()) as { analysis: { id: number }; leadToken: string };
  return { analysisId: body.analysis.id, leadToken: body.leadToken };
}

describe('a job made from a quote request', () => {
  it('names each tree by its kind or its place with the band chosen, and carries the stump grinding and the wood asked for', async () => {
    const business = await createBusinessFor(owner);
    const oak = await estimate(business.slug, {
      description: '',
      treeDetails: { species: 'Oak', height: { band: 'taller_than_house' }, diameter: { band: 'thicker_than_plate' } },
      siteDetails: { stumpGrinding: true, wasteRemoval: false },
    });
    const unknown = await estimate(business.slug, { description: '', treeDetails: { height: { band: 'taller_than_house' }, diameterUnknown: true }, siteDetails: { stumpGrinding: true } });
    expect((await visitorLead(server, business.slug, { name: 'Jo', phone: '07700 900123', trees: [oak, unknown] })).status).toBe(201);
    const [lead] = leadListSchema.parse(await (await owner.get(`/api/businesses/${business.id}/leads`)).json()).leads;
    const job = await jobOf(await owner.post('/api/jobs', { leadId: lead!.id }), 201);
    const words = job.items.map((item) => item.description);
    expect(words[0]).toMatch(/^Oak, 8 to 15 m tall, trunk 27 to 50 cm: remove the tree\./);
    expect(words[0]).toContain('Grind out the stump.');
    expect(words[0]).toContain('Leave the wood on site.');
    expect(words[1]).toMatch(/^Tree 2 \(kind not sure\), 8 to 15 m tall: remove the tree\./);
    expect(words[1]).toContain('Grind out the stump.');
    // The band's middle (11.6 m, 38 ft) is never shown back as if the visitor had said it.
    expect(words.join(' ')).not.toMatch(/11\.\d m|38 ft/);
    expect(words.join(' ')).not.toContain('Tree 1');
  });
});
