import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LEAD_MAIL_WINDOW_MS, sendHeldLeadUpdates } from '../businesses/lead-mail';
import { funnelResponseSchema, leadListSchema, LEAD_TREES_MESSAGES, type Lead } from '../../core/business';
import { ESTIMATE_NOT_FOUND, LEAD_MAX_TREES, LEAD_THANKS } from '../../core/embed';
import { errorBodySchema } from '../../core/errors';
import { formatLeadTotal } from '../../core/lead-total';
import { headlineRange } from '../../core/price';
import { RateLimits } from '../http/rate-limit';
import { grantTo } from '../../testing/analysis';
import { createBusinessFor, visitorAnalyze, visitorLead } from '../../testing/business';
import { registerClient, startTestServer, type TestClient, type TestServer } from '../../testing/harness';
import { jobOf } from '../../testing/jobs';
import { leadMailFor, mailSettled, outboxCount } from '../../testing/mail';
import { cpuMsWhile } from '../../testing/cpu-time';

/*
 * Several trees, one request (docs/product.md, Embed widget): a visitor prices one tree after
 * another and sends one quote request carrying them all, each proven by its own token. The
 * owner reads every tree and the total in Business Admin and the e-mail, a job made from the
 * request holds every tree, and the funnel counts trees beside requests. All over HTTP against
 * the real server.
 */
let server: TestServer;
let owner: TestClient;
let ownerEmail: string;
beforeAll(async () => {
  server = await startTestServer(
    {},
    {
      rateLimits: new RateLimits({
        embedAnalysesPerAddress: { points: 1000, windowSeconds: 60 },
        embedAnalysesPerBusiness: { points: 1000, windowSeconds: 60 },
        leadsPerAddress: { points: 1000, windowSeconds: 60 },
      }),
    },
  );
  const registered = await registerClient(server, { firstName: 'Ash' });
  owner = registered.client;
  ownerEmail = registered.account.email;
  grantTo(server, registered.account.username, 1000);
});
afterAll(() => server.close());

type Tree = { analysisId: number; leadToken: string };

/** A visitor's estimate of one tree, with the token the widget keeps. */
async function estimate(slug: string, description = 'redbud, 6 inch trunk, 15 ft tall'): Promise<Tree> {
  const res = await visitorAnalyze(server, slug, { description });
  expect(res.status, await res.clone().text()).toBe(201);
  const body = (await res.json()) as { analysis: { id: number }; leadToken: string };
  return { analysisId: body.analysis.id, leadToken: body.leadToken };
}

async function ownerLeads(businessId: number): Promise<Lead[]> {
  const res = await owner.get(`/api/businesses/${businessId}/leads`);
  expect(res.status).toBe(200);
  return leadListSchema.parse(await res.json()).leads;
}

async function today(businessId: number) {
  const res = await owner.get(`/api/businesses/${businessId}/funnel?days=1`);
  expect(res.status).toBe(200);
  return funnelResponseSchema.parse(await res.json()).days[0]!;
}

let visitors = 0;
/** A request with `trees` (and whatever else), from a visitor with a name of their own. */
function request(slug: string, body: Record<string, unknown>) {
  visitors += 1;
  const name = `Visitor ${visitors}`;
  return { name, res: visitorLead(server, slug, { name, phone: '07700 900123', ...body }) };
}

const treeIds = (lead: Lead) => lead.trees.map((tree) => tree.analysisId);

describe('several trees in one quote request', () => {
  it('one request with two trees is one lead holding both, in order, with their total; the e-mail lists both; the funnel counts 1 request, 2 trees', async () => {
    const business = await createBusinessFor(owner);
    const oak = await estimate(business.slug, 'oak, 16 inch trunk, 40 ft tall');
    const birch = await estimate(business.slug, 'birch, 8 inch trunk, 25 ft tall');
    const { name, res } = request(business.slug, { trees: [oak, birch], address: '12 Oak Lane, Headingley' });
    expect((await res).status).toBe(201);
    expect(await (await res).json()).toEqual({ message: LEAD_THANKS, outsideArea: false, reference: expect.stringMatching(/^R-\d{6}$/) });

    const leads = await ownerLeads(business.id);
    expect(leads).toHaveLength(1);
    const lead = leads[0]!;
    expect(treeIds(lead)).toEqual([oak.analysisId, birch.analysisId]);
    // The first tree is still the lead's own estimate, for readers that know one.
    expect(lead.analysisId).toBe(oak.analysisId);
    expect(lead.estimate).toEqual(lead.trees[0]!.estimate);
    expect(lead.trees.map((tree) => tree.estimate?.species)).toEqual(['Oak', 'Birch']);
    const prices = lead.trees.map((tree) => tree.estimate!.price!);
    const [first, second] = prices.map(headlineRange);
    expect(lead.total).toEqual({ minPence: first!.minPence + second!.minPence, maxPence: first!.maxPence + second!.maxPence });

    const mail = await leadMailFor(server, ownerEmail, name);
    expect(mail).toContain(`New quote request for ${business.name} from ${name}`);
    expect(mail).toContain('for a quote for 2 trees');
    const tree1 = mail.indexOf('Tree 1 of 2');
    const tree2 = mail.indexOf('Tree 2 of 2');
    expect(tree1).toBeGreaterThan(0);
    expect(tree2).toBeGreaterThan(tree1);
    expect(mail.slice(tree1, tree2)).toContain('Tree: Oak');
    expect(mail.slice(tree2)).toContain('Tree: Birch');
    expect(mail).toContain(`Total for 2 trees: ${formatLeadTotal(prices)}`);

    expect(await today(business.id)).toMatchObject({ estimates: 2, leads: 1, trees: 2 });

    // A job made from it holds both trees, and where the job is.
    const job = await jobOf(await owner.post('/api/jobs', { leadId: lead.id }), 201);
    expect(job.items.map((item) => item.analysisId)).toEqual([oak.analysisId, birch.analysisId]);
    expect(job.customer).toMatchObject({ name, siteAddress: '12 Oak Lane, Headingley, LS6 2AB' });
    expect((await ownerLeads(business.id))[0]!.jobId).toBe(job.id);
  });

  it('keeps the order the visitor sent, and the one-tree form beside trees is put first when it is not among them', async () => {
    const business = await createBusinessFor(owner);
    const [a, b, c] = [await estimate(business.slug), await estimate(business.slug), await estimate(business.slug)];
    expect((await request(business.slug, { trees: [b, a] }).res).status).toBe(201);
    const other = await createBusinessFor(owner);
    const [d, e] = [await estimate(other.slug), await estimate(other.slug)];
    expect((await request(other.slug, { ...d, trees: [e] }).res).status).toBe(201);
    expect((await ownerLeads(business.id)).map(treeIds)).toEqual([[b.analysisId, a.analysisId]]);
    expect((await ownerLeads(other.id)).map(treeIds)).toEqual([[d.analysisId, e.analysisId]]);
    // The same pair in both places is one tree; with another token it is refused.
    const f = await estimate(business.slug);
    expect((await request(business.slug, { ...c, trees: [f, c] }).res).status).toBe(201);
    expect((await ownerLeads(business.id)).map(treeIds)[0]).toEqual([f.analysisId, c.analysisId]);
    const g = await estimate(business.slug);
    const conflicting = await request(business.slug, { analysisId: g.analysisId, leadToken: c.leadToken, trees: [g] }).res;
    expect(conflicting.status).toBe(400);
    expect(errorBodySchema.parse(await conflicting.json()).details?.analysisId).toEqual([LEAD_TREES_MESSAGES.conflicting]);
  });

  it('one bad token among good ones, or another business\'s estimate, is the one 404, and nothing is stored or e-mailed', async () => {
    const business = await createBusinessFor(owner);
    const elsewhere = await createBusinessFor(owner);
    const good = [await estimate(business.slug), await estimate(business.slug)];
    const theirs = await estimate(elsewhere.slug);
    await mailSettled(server);
    const mails = outboxCount(server.dataDir);
    const attempts = [
      [good[0]!, { analysisId: good[1]!.analysisId, leadToken: good[0]!.leadToken }],
      [good[0]!, { analysisId: good[1]!.analysisId, leadToken: 'x'.repeat(43) }],
      [good[0]!, { analysisId: 999_999_999, leadToken: good[1]!.leadToken }],
      [good[0]!, good[1]!, theirs],
      [theirs, good[0]!],
    ];
    for (const trees of attempts) {
      const res = await request(business.slug, { trees }).res;
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ message: ESTIMATE_NOT_FOUND, code: 'NOT_FOUND' });
    }
    await mailSettled(server);
    expect(outboxCount(server.dataDir)).toBe(mails);
    expect(await ownerLeads(business.id)).toEqual([]);
    expect(await today(business.id)).toMatchObject({ leads: 0, trees: 0 });
    // The good ones can still be sent, by their visitor.
    expect((await request(business.slug, { trees: good }).res).status).toBe(201);
    expect((await ownerLeads(business.id)).map(treeIds)).toEqual([good.map((tree) => tree.analysisId)]);
  });

  it(`refuses more than ${LEAD_MAX_TREES} trees, the same estimate twice and malformed trees with a 400 naming trees; nothing is stored`, async () => {
    const business = await createBusinessFor(owner);
    const trees: Tree[] = [];
    for (let i = 0; i < LEAD_MAX_TREES + 1; i += 1) trees.push(await estimate(business.slug));
    const cases: [unknown, string, string][] = [
      [trees, 'trees', LEAD_TREES_MESSAGES.tooMany],
      [[trees[0], trees[1], trees[0]], 'trees', LEAD_TREES_MESSAGES.twice],
      [[], 'trees', LEAD_TREES_MESSAGES.none],
      [[{ analysisId: trees[0]!.analysisId }], 'trees.leadToken', 'leadToken is required: send the leadToken of the estimate answer'],
      [[{ ...trees[0], leadToken: 'x'.repeat(201) }], 'trees.leadToken', 'leadToken is required: send the leadToken of the estimate answer'],
      [[{ analysisId: -1, leadToken: 'x' }], 'trees.analysisId', 'analysisId is required'],
    ];
    for (const [sent, field, message] of cases) {
      const res = await request(business.slug, { trees: sent }).res;
      expect(res.status, field).toBe(400);
      expect(errorBodySchema.parse(await res.json()).details?.[field], field).toEqual([message]);
    }
    // Ten and the one-tree form make eleven, too many as well.
    const eleven = await request(business.slug, { ...trees[10], trees: trees.slice(0, 10) }).res;
    expect(eleven.status).toBe(400);
    expect(errorBodySchema.parse(await eleven.json()).details?.trees).toEqual([LEAD_TREES_MESSAGES.tooMany]);
    // An attacker's shape: ten thousand trees are refused at once, unread past the cap.
    const flood = Array.from({ length: 10_000 }, (_, i) => ({ analysisId: i + 1, leadToken: 'x'.repeat(43) }));
    // CPU time (client and server are this process; testing/cpu-time.ts), not the wall clock.
    const { value: floodStatus, cpuMs } = await cpuMsWhile(async () => (await request(business.slug, { trees: flood }).res).status);
    expect([400, 413]).toContain(floodStatus);
    expect(cpuMs).toBeLessThan(2_000);
    expect(await ownerLeads(business.id)).toEqual([]);
    // Exactly ten is a request.
    expect((await request(business.slug, { trees: trees.slice(0, LEAD_MAX_TREES) }).res).status).toBe(201);
    expect((await ownerLeads(business.id))[0]!.trees).toHaveLength(LEAD_MAX_TREES);
  });

  it('sending again with another tree updates the same lead; a tree sent in a new request moves to it', async () => {
    const business = await createBusinessFor(owner);
    const [a, b] = [await estimate(business.slug), await estimate(business.slug)];
    const first = request(business.slug, { ...a, note: 'Just the one' });
    expect((await first.res).status).toBe(201);
    const [lead] = await ownerLeads(business.id);
    expect(treeIds(lead!)).toEqual([a.analysisId]);

    // "Add another tree", then the request again: the same lead, both trees, the new details.
    const again = request(business.slug, { trees: [a, b], note: 'And the birch' });
    expect((await again.res).status).toBe(200);
    const leads = await ownerLeads(business.id);
    expect(leads).toHaveLength(1);
    expect(leads[0]).toMatchObject({ id: lead!.id, name: again.name, note: 'And the birch' });
    expect(treeIds(leads[0]!)).toEqual([a.analysisId, b.analysisId]);
    // The owner is told of the update when ten minutes have passed since the first e-mail (server/businesses/lead-mail.ts).
    server.clock.advance(LEAD_MAIL_WINDOW_MS);
    expect(sendHeldLeadUpdates(server)).toBe(1);
    const mail = await leadMailFor(server, ownerEmail, again.name);
    expect(mail).toContain(`Updated quote request for ${business.name}`);
    expect(mail).toContain('Tree 2 of 2');
    // One request, and each tree counted once.
    expect(await today(business.id)).toMatchObject({ leads: 1, trees: 2 });

    // Two requests, then one naming trees of both: one lead holds them, the other is gone.
    const [c, d] = [await estimate(business.slug), await estimate(business.slug)];
    expect((await request(business.slug, { trees: [c] }).res).status).toBe(201);
    expect((await request(business.slug, { trees: [d] }).res).status).toBe(201);
    expect(await ownerLeads(business.id)).toHaveLength(3);
    const merged = request(business.slug, { trees: [c, d] });
    expect((await merged.res).status).toBe(200);
    const after = await ownerLeads(business.id);
    expect(after.map(treeIds)).toEqual([[c.analysisId, d.analysisId], [a.analysisId, b.analysisId]]);
    expect(await today(business.id)).toMatchObject({ leads: 3, trees: 4 });

    // A tree taken out of a lead of several: the rest close up, the next one becomes the first.
    expect((await request(business.slug, { trees: [d] }).res).status).toBe(200);
    expect((await ownerLeads(business.id)).map(treeIds)).toEqual([[d.analysisId], [a.analysisId, b.analysisId]]);
    const e = await estimate(business.slug);
    expect((await request(business.slug, { trees: [e, a] }).res).status).toBe(200);
    const last = await ownerLeads(business.id);
    expect(last.map(treeIds)).toEqual([[d.analysisId], [e.analysisId, a.analysisId]]);
    expect(last[1]!.analysisId).toBe(e.analysisId);
  });

  it('the one-tree form still works: one lead, one tree, its price as the total', async () => {
    const business = await createBusinessFor(owner);
    const tree = await estimate(business.slug);
    const { name, res } = request(business.slug, tree);
    expect((await res).status).toBe(201);
    const [lead] = await ownerLeads(business.id);
    expect(lead).toMatchObject({ name, analysisId: tree.analysisId });
    expect(treeIds(lead!)).toEqual([tree.analysisId]);
    expect(lead!.total).toEqual(headlineRange(lead!.estimate!.price!));
    const mail = await leadMailFor(server, ownerEmail, name);
    expect(mail).not.toContain('Tree 1 of');
    expect(mail).toContain('The estimate they saw');
    expect(await today(business.id)).toMatchObject({ leads: 1, trees: 1 });
  });

  it('reads every tree of every lead in a number of queries that does not grow with the leads', async () => {
    const queriesFor = async (businessId: number) => {
      const sqlite = server.db.$client;
      const prepare = sqlite.prepare;
      let count = 0;
      sqlite.prepare = function (this: typeof sqlite, ...args: Parameters<typeof prepare>) {
        count += 1;
        return prepare.apply(this, args);
      } as typeof prepare;
      try {
        await ownerLeads(businessId);
      } finally {
        sqlite.prepare = prepare;
      }
      expect(count).toBeGreaterThan(0);
      return count;
    };
    const small = await createBusinessFor(owner);
    expect((await request(small.slug, { trees: [await estimate(small.slug)] }).res).status).toBe(201);
    const large = await createBusinessFor(owner);
    for (let i = 0; i < 6; i += 1) {
      expect((await request(large.slug, { trees: [await estimate(large.slug), await estimate(large.slug)] }).res).status).toBe(201);
    }
    expect(await ownerLeads(large.id)).toHaveLength(6);
    expect(await queriesFor(large.id)).toBe(await queriesFor(small.id));
  });
});
