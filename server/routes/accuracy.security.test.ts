import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accuracySchema } from '../../core/accuracy';
import { analyzeResponseSchema } from '../../core/analysis';
import { errorBodySchema } from '../../core/errors';
import { analyze, grantTo } from '../../testing/analysis';
import { registerClient, startTestServer, TestClient, type TestServer } from '../../testing/harness';

/* An account's accuracy counts its own jobs only, and needs a session. */
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

async function reportedJob(client: TestClient, actualCuttingTime: number): Promise<number> {
  const res = await analyze(client, { description: 'oak, 16 inch trunk, 40 ft tall, open field' });
  expect(res.status).toBe(201);
  const { id } = analyzeResponseSchema.parse(await res.json()).analysis;
  expect((await client.request('PATCH', `/api/analysis/${id}/feedback`, { actualCuttingTime })).status).toBe(200);
  server.clock.advance(3_600_000);
  return id;
}

describe("another account's jobs", () => {
  it('are never counted, whoever reported more or later', async () => {
    const owner = await registerClient(server);
    const other = await registerClient(server);
    grantTo(server, owner.account.username, 50);
    grantTo(server, other.account.username, 50);
    const mine = [await reportedJob(owner.client, 60)];
    const theirs = [await reportedJob(other.client, 5), await reportedJob(other.client, 900)];
    mine.push(await reportedJob(owner.client, 70));
    theirs.push(await reportedJob(other.client, 1));

    const ownAnswer = accuracySchema.parse(await (await owner.client.get('/api/accuracy')).json());
    expect(ownAnswer.trees).toBe(2);
    expect(ownAnswer.series.map((p) => p.analysisId)).toEqual(mine);
    const theirAnswer = accuracySchema.parse(await (await other.client.get('/api/accuracy')).json());
    expect(theirAnswer.series.map((p) => p.analysisId)).toEqual(theirs);

    // The other account's wild times did not calibrate the owner's second job: the same job
    // measured for an account alone gives the same figure.
    const alone = await registerClient(server);
    grantTo(server, alone.account.username, 50);
    await reportedJob(alone.client, 60);
    await reportedJob(alone.client, 70);
    const aloneAnswer = accuracySchema.parse(await (await alone.client.get('/api/accuracy')).json());
    expect(aloneAnswer.series.map((p) => p.calibratedError)).toEqual(ownAnswer.series.map((p) => p.calibratedError));
  });
});

describe('signed out', () => {
  it('is a 401 with the usual error body', async () => {
    const res = await new TestClient(server).get('/api/accuracy');
    expect(res.status).toBe(401);
    expect(errorBodySchema.parse(await res.json()).code).toBe('UNAUTHORIZED');
  });
});
