import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeResponseSchema } from '../../core/analysis';
import { analysisForm, analyze, grantTo } from '../../testing/analysis';
import { registerClient, startTestServer, TestClient, type TestServer } from '../../testing/harness';

let server: TestServer;
let ownerId: number;
let owner: TestClient;
let other: TestClient;
beforeAll(async () => {
  server = await startTestServer();
  const a = await registerClient(server);
  owner = a.client;
  grantTo(server, a.account.username, 10);
  ownerId = analyzeResponseSchema.parse(await (await analyze(owner, { description: 'oak, 12 inch trunk, 30 ft' })).json()).analysis.id;
  other = (await registerClient(server)).client;
});
afterAll(() => server.close());

describe("another user's analysis is a 404", () => {
  it('for reading, its image, its report and feedback', async () => {
    for (const path of [`/api/analysis/${ownerId}`, `/api/analysis/${ownerId}/image`, `/api/analysis/${ownerId}/report.pdf`]) {
      const res = await other.get(path);
      expect(res.status, path).toBe(404);
      expect((await res.json()).code).toBe('NOT_FOUND');
    }
    const fb = await other.request('PATCH', `/api/analysis/${ownerId}/feedback`, { actualCuttingTime: 5 });
    expect(fb.status).toBe(404);
    const mine = await owner.get(`/api/analysis/${ownerId}`);
    expect((await mine.json()).analysis.actualCuttingTime).toBeNull();
    expect((await other.get('/api/analyses')).status).toBe(200);
    expect((await (await other.get('/api/analyses')).json()).analyses).toEqual([]);
  });

  it('for ids that do not exist or are not numbers', async () => {
    for (const id of ['999999', 'abc', '-1', '1.5']) expect((await owner.get(`/api/analysis/${id}`)).status).toBe(404);
  });
});

describe('signed out and cross-site', () => {
  it('refuses analysis, history and settings when signed out', async () => {
    const anon = new TestClient(server);
    expect((await analyze(anon)).status).toBe(401);
    expect((await anon.get('/api/analyses')).status).toBe(401);
    expect((await anon.get(`/api/analysis/${ownerId}/image`)).status).toBe(401);
    expect((await anon.get('/api/system-settings')).status).toBe(401);
  });

  it('never runs a cross-site upload carrying the cookie as the signed-in user', async () => {
    const before = await (await owner.get('/api/user-tokens')).json();
    const res = await owner.upload('/api/analyze-tree', analysisForm({ description: 'oak, 16 inch trunk, 40 ft tall' }), { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' });
    // A visitor's call that names no business.
    expect(res.status).toBe(400);
    expect((await res.json()).message).toMatch(/businessSlug/);
    expect(await (await owner.get('/api/user-tokens')).json()).toEqual(before);
  });
});

describe('settings belong to each user', () => {
  it("keeps one user's instructions and rate from another", async () => {
    const res = await owner.request('PATCH', '/api/system-settings', { aiInstructions: 'Owner rules', hourlyRate: '80.00' });
    expect(await res.json()).toMatchObject({ aiInstructions: 'Owner rules', hourlyRate: '80.00' });
    expect(await (await other.get('/api/system-settings')).json()).toMatchObject({ aiInstructions: '', hourlyRate: '0.00' });
  });

  it('validates the rate: decimal text, 2 places, not negative; empty means 0', async () => {
    for (const hourlyRate of ['-1', '12.345', 'abc']) {
      expect((await other.request('PATCH', '/api/system-settings', { aiInstructions: '', hourlyRate })).status).toBe(400);
    }
    expect(await (await other.request('PATCH', '/api/system-settings', { aiInstructions: '', hourlyRate: '' })).json()).toMatchObject({
      hourlyRate: '0.00',
    });
  });
});
