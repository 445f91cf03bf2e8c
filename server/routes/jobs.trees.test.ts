import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { jobs } from '../../db/schema';
import { grantTo } from '../../testing/analysis';
import { registerClient, startTestServer, type TestClient, type TestServer } from '../../testing/harness';
import { analysisIdOf, jobOf } from '../../testing/jobs';

/*
 * More trees for a job from History (docs/product.md, Jobs and quotes): POST /api/jobs/{id}/trees
 * adds the account's analyses after the job's items, each at its estimate rounded by the rule;
 * a tree already in the job is not added twice; another account's analysis or job is a 404 that
 * changes nothing; an accepted job is locked.
 */
let server: TestServer;
let owner: TestClient;

beforeAll(async () => {
  server = await startTestServer();
  const registered = await registerClient(server);
  owner = registered.client;
  grantTo(server, registered.account.username, 100);
  const settings = await owner.request('PATCH', '/api/system-settings', { aiInstructions: '', hourlyRate: '90' });
  expect(settings.status).toBe(200);
});
afterAll(() => server.close());

describe('adding trees to a job', () => {
  it('adds a second tree after a typed line, priced from its estimate; the same tree twice is added once', async () => {
    const oak = await analysisIdOf(owner, 'oak, 16 inch trunk, 40 ft tall');
    const birch = await analysisIdOf(owner, 'birch, 8 inch trunk, 25 ft tall');
    const made = await jobOf(await owner.post('/api/jobs', { analysisIds: [oak], customer: { name: 'Jo Rowan' } }), 201);
    await jobOf(await owner.post(`/api/jobs/${made.id}/lines`, { description: 'Grind the old stump', price: '80', optional: false }), 201);

    const added = await jobOf(await owner.post(`/api/jobs/${made.id}/trees`, { analysisIds: [birch, oak, birch] }));
    expect(added.items.map((item) => [item.kind, item.analysisId])).toEqual([
      ['tree', oak],
      ['line', null],
      ['tree', birch],
    ]);
    const tree = added.items[2]!;
    expect(tree.description).toMatch(/^Remove the birch/i);
    expect(Math.round(Number(tree.price) * 100) % 500).toBe(0);
    const sum = added.items.reduce((s, item) => s + Math.round(Number(item.price) * 100), 0);
    expect(added.totals.gross).toBe((sum / 100).toFixed(2));

    // Sent again (a double click): nothing more.
    const again = await jobOf(await owner.post(`/api/jobs/${made.id}/trees`, { analysisIds: [birch] }));
    expect(again.items).toHaveLength(3);
  });

  it("refuses another account's analysis, and another account's job, with a 404 that adds nothing", async () => {
    const { client: other, account } = await registerClient(server);
    grantTo(server, account.username, 10);
    const theirs = await analysisIdOf(other, 'ash, 10 inch trunk, 30 ft tall');
    const mine = await analysisIdOf(owner, 'ash, 10 inch trunk, 30 ft tall');
    const job = await jobOf(await owner.post('/api/jobs', { analysisIds: [mine], customer: { name: 'Sam Ash' } }), 201);

    const stolen = await owner.post(`/api/jobs/${job.id}/trees`, { analysisIds: [mine, theirs] });
    expect(stolen.status).toBe(404);
    expect(await stolen.json()).toEqual({ message: 'Analysis not found', code: 'NOT_FOUND' });
    expect((await other.post(`/api/jobs/${job.id}/trees`, { analysisIds: [theirs] })).status).toBe(404);
    expect((await jobOf(await owner.get(`/api/jobs/${job.id}`))).items).toHaveLength(1);
  });

  it('asks for at least one analysis, and keeps an accepted job as it was (409)', async () => {
    const tree = await analysisIdOf(owner, 'pine, 12 inch trunk, 35 ft tall');
    const job = await jobOf(await owner.post('/api/jobs', { analysisIds: [], customer: { name: 'Kit Pine' } }), 201);
    const empty = await owner.post(`/api/jobs/${job.id}/trees`, { analysisIds: [] });
    expect(empty.status).toBe(400);
    expect(((await empty.json()) as { message: string }).message).toMatch(/Choose at least one analysis/);

    server.db.update(jobs).set({ status: 'accepted' }).where(eq(jobs.id, job.id)).run();
    expect((await owner.post(`/api/jobs/${job.id}/trees`, { analysisIds: [tree] })).status).toBe(409);
    expect((await jobOf(await owner.get(`/api/jobs/${job.id}`))).items).toHaveLength(0);
  });
});
