import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accuracySchema, type Accuracy } from '../../core/accuracy';
import { analyzeResponseSchema, type Analysis, type FeedbackInput } from '../../core/analysis';
import { treeAnalyses } from '../../db/schema';
import { measureAccuracy, type ReportedJob } from '../analysis/accuracy';
import { analyze, grantTo } from '../../testing/analysis';
import { registerClient, startTestServer, type TestClient, type TestServer } from '../../testing/harness';

/*
 * GET /api/accuracy over HTTP, on analyses made and reported through the
 * real routes. Only analyses with an actual time count, in the order they were made, and each
 * is calibrated from the ones before it.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

const DAY = 86_400_000;

async function paidClient(): Promise<TestClient> {
  const { client, account } = await registerClient(server);
  grantTo(server, account.username, 100);
  return client;
}

async function estimate(client: TestClient, description: string): Promise<Analysis> {
  // No power lines: a question left out is priced as power lines near, which rules out a straight fell.
  const res = await analyze(client, { description, siteDetails: { powerLines: false } });
  expect(res.status).toBe(201);
  server.clock.advance(DAY);
  return analyzeResponseSchema.parse(await res.json()).analysis;
}

async function sendFeedback(client: TestClient, id: number, body: FeedbackInput): Promise<void> {
  expect((await client.request('PATCH', `/api/analysis/${id}/feedback`, body)).status).toBe(200);
}

async function accuracy(client: TestClient): Promise<Accuracy> {
  const res = await client.get('/api/accuracy');
  expect(res.status).toBe(200);
  return accuracySchema.parse(await res.json());
}

const baseTimes = (id: number) => server.db.select().from(treeAnalyses).where(eq(treeAnalyses.id, id)).get()!.baseTimes!;
const percent = (estimate: number, actual: number) => Math.round((Math.abs(estimate - actual) / actual) * 1000) / 10;

describe('GET /api/accuracy', () => {
  it('says there is nothing to compare before any feedback', async () => {
    const client = await paidClient();
    await estimate(client, 'oak, 16 inch trunk, 40 ft tall, open field');
    const none = { cutting: null, prep: null, cleanup: null, total: null };
    expect(await accuracy(client)).toEqual({
      trees: 0,
      jobs: 0,
      limit: 500,
      original: none,
      calibratedTrees: 0,
      calibrated: none,
      originalOnCalibratedTrees: none,
      series: [],
    });
  });

  it('measures the jobs with actual times, in the order they were made, each calibrated from those before it', async () => {
    const client = await paidClient();
    const fell = await estimate(client, 'birch, 10 inch trunk, 30 ft tall, open field');
    const commentOnly = await estimate(client, 'oak, 16 inch trunk, 40 ft tall, open field');
    const dismantle = await estimate(client, 'oak, 30 inch trunk, 70 ft tall, right over the house roof');
    const last = await estimate(client, 'ash, 14 inch trunk, 35 ft tall, open field');
    await estimate(client, 'ash, 12 inch trunk, 30 ft tall, open field');

    // Reported out of order: the order counted is the order the analyses were made.
    const fellBase = baseTimes(fell.id);
    const dismantleBase = baseTimes(dismantle.id);
    const lastBase = baseTimes(last.id);
    const fellActual = { cutting: Math.round(fellBase.cutting * 1.5), prep: Math.round(fellBase.prep * 1.5), cleanup: Math.round(fellBase.cleanup * 1.5) };
    const dismantleActual = { cutting: Math.round(dismantleBase.cutting * 2) };
    const lastActual = { cutting: Math.round(lastBase.cutting * 1.2), cleanup: Math.round(lastBase.cleanup * 0.8) };
    await sendFeedback(client, last.id, { actualCuttingTime: lastActual.cutting, actualCleanupTime: lastActual.cleanup });
    await sendFeedback(client, dismantle.id, { actualCuttingTime: dismantleActual.cutting });
    await sendFeedback(client, commentOnly.id, { feedback: 'Went as quoted' });
    await sendFeedback(client, fell.id, { actualCuttingTime: fellActual.cutting, actualPrepTime: fellActual.prep, actualCleanupTime: fellActual.cleanup });

    const answer = await accuracy(client);
    // Each reported from History on its own: three trees, three jobs.
    expect(answer.trees).toBe(3);
    expect(answer.jobs).toBe(3);
    expect(answer.calibratedTrees).toBe(2);
    expect(answer.series.map((p) => p.analysisId)).toEqual([fell.id, dismantle.id, last.id]);
    expect(answer.series.map((p) => p.kind)).toEqual([fell.method, dismantle.method, last.method]);
    expect(new Set([fell.method, dismantle.method]).size, 'two kinds of job').toBe(2);
    expect(answer.series.map((p) => p.reportedAt)).toEqual([fell.createdAt, dismantle.createdAt, last.createdAt]);
    // The first job against the model's own estimate: all three components reported, 1.5x.
    const sum = (t: Record<string, number>) => Object.values(t).reduce((a, b) => a + b, 0);
    expect(answer.series[0]).toMatchObject({ originalError: percent(sum(fellBase), sum(fellActual)), calibratedError: null });
    // The dismantle reported cutting only, so its total is its cutting.
    expect(answer.series[1]!.originalError).toBe(percent(dismantleBase.cutting, dismantleActual.cutting));
    // Everything calibration has seen was slower than estimated, so each later estimate is longer than the model's.
    expect(answer.series[1]!.calibratedError!).toBeLessThan(answer.series[1]!.originalError!);
    expect(answer.original.prep).toBe(percent(fellBase.prep, fellActual.prep));

    const reported = (analysis: Analysis, base: ReportedJob['base'], actual: Partial<ReportedJob['actual']>): ReportedJob => ({
      analysisId: analysis.id,
      jobId: null,
      reportedAt: new Date(analysis.createdAt),
      kind: analysis.method as ReportedJob['kind'],
      base,
      actual: { cutting: actual.cutting ?? null, prep: actual.prep ?? null, cleanup: actual.cleanup ?? null },
    });
    expect(answer).toEqual(
      measureAccuracy([reported(fell, fellBase, fellActual), reported(dismantle, dismantleBase, dismantleActual), reported(last, lastBase, lastActual)]),
    );

    // A replaced time replaces the job's figures; it is still one job.
    await sendFeedback(client, dismantle.id, { actualCuttingTime: Math.round(dismantleBase.cutting) });
    const replaced = await accuracy(client);
    expect(replaced.trees).toBe(3);
    expect(replaced.series[1]!.originalError).toBe(percent(dismantleBase.cutting, Math.round(dismantleBase.cutting)));
    expect(replaced.series[1]!.originalError).toBeLessThan(1);
  });
});
