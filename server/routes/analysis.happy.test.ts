import sharp from 'sharp';
import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analysisListSchema, analyzeOutcomeSchema, analyzeResponseSchema } from '../../core/analysis';
import { JOB_KIND_PLURALS, type JobKind } from '../../core/calibration';
import { NEEDS_DETAILS_MESSAGE } from '../../core/tree-details';
import { userTokensResponseSchema } from '../../core/credits';
import { findUserByUsername } from '../accounts/users';
import { balanceOf, ledgerSum } from '../credits/ledger';
import { analyze, grantTo } from '../../testing/analysis';
import { registerClient, startTestServer, type TestServer } from '../../testing/harness';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const ISSUE_EXAMPLE = 'oak, about 30 inch trunk, 60 ft, next to the garage, power line overhead';

describe('analysis with the local provider', () => {
  it('reads the description into species, sizes and site factors, charges 10 credits, and stays honest', async () => {
    const { client, account } = await registerClient(server);
    grantTo(server, account.username, 30);
    const res = await analyze(client, { description: ISSUE_EXAMPLE, siteDetails: { access: 'side_gate' } });
    expect(res.status).toBe(201);
    const { analysis, confidence } = analyzeResponseSchema.parse(await res.json());

    expect(analysis).toMatchObject({ species: 'Oak', diameter: 30, height: 60, method: 'climb_dismantle', provider: 'local' });
    expect(confidence).toBeLessThanOrEqual(0.5);
    expect(analysis.factors.join('\n')).toMatch(/Method: climb and dismantle/);
    expect(analysis.factors.join('\n')).toMatch(/photo was checked for quality only/);
    expect(analysis.safetyWarnings.join('\n')).toMatch(/Power lines near the tree/);
    expect(analysis.safetyWarnings.join('\n')).toMatch(/Tree Preservation Order/);
    expect(analysis.siteVisitReason).toMatch(/large tree near power lines/);
    expect(analysis.cuttingTimeMin).toBeGreaterThan(0);
    expect(analysis.cuttingTimeMax).toBeGreaterThanOrEqual(analysis.cuttingTimeMin);
    expect(analysis.cost).toBeNull();

    const tokens = userTokensResponseSchema.parse(await (await client.get('/api/user-tokens')).json());
    expect(tokens.tokensRemaining).toBe(20);
    expect(ledgerSum(server.db, findUserByUsername(server.db, account.username)!.id)).toBe(20);
  });

  it('asks for a size instead of guessing one, and charges nothing', async () => {
    const { client, account } = await registerClient(server);
    grantTo(server, account.username, 10);
    const res = await analyze(client, { description: 'a tree in the back garden' });
    expect(res.status).toBe(200);
    expect(analyzeOutcomeSchema.parse(await res.json())).toEqual({
      outcome: 'needs_details',
      message: NEEDS_DETAILS_MESSAGE,
      missing: ['height', 'diameter'],
      reasons: ['No height or trunk size was given. Without an AI vision model, sizes come from your details, not the photo'],
    });
    const id = findUserByUsername(server.db, account.username)!.id;
    expect([balanceOf(server.db, id), ledgerSum(server.db, id)]).toEqual([10, 10]);
    expect((analysisListSchema.parse(await (await client.get('/api/analyses')).json())).analyses).toEqual([]);
  });

  it('prices the job at the hourly rate of the time', async () => {
    const { client, account } = await registerClient(server);
    grantTo(server, account.username, 10);
    expect((await client.request('PATCH', '/api/system-settings', { aiInstructions: '', hourlyRate: '45.50' })).status).toBe(200);
    const body = analyzeResponseSchema.parse(await (await analyze(client, { description: 'birch, 10 inch trunk, 25 ft, open field' })).json());
    const a = body.analysis;
    const minMinutes = a.cuttingTimeMin + a.prepTimeMin + a.cleanupTimeMin;
    const maxMinutes = a.cuttingTimeMax + a.prepTimeMax + a.cleanupTimeMax;
    expect(a.hourlyRate).toBe('45.50');
    expect(body.cost).toEqual({
      min: (Math.round((minMinutes * 4550) / 60) / 100).toFixed(2),
      max: (Math.round((maxMinutes * 4550) / 60) / 100).toFixed(2),
    });
  });

  it('stores a re-encoded photo without EXIF, served only at its URL', async () => {
    const { client, account } = await registerClient(server);
    grantTo(server, account.username, 10);
    const withGps = await sharp({ create: { width: 900, height: 1200, channels: 3, background: { r: 40, g: 120, b: 40 } } })
      .jpeg()
      .withExif({ IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '51/1 30/1 0/1', GPSLongitudeRef: 'W', GPSLongitude: '0/1 7/1 0/1' } })
      .toBuffer();
    expect((await sharp(withGps).metadata()).exif).toBeDefined();
    const { analysis } = analyzeResponseSchema.parse(await (await analyze(client, { image: withGps, description: 'ash, 12 inch trunk, 30 ft' })).json());
    const image = await client.get(analysis.imageUrl);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/jpeg');
    const meta = await sharp(Buffer.from(await image.arrayBuffer())).metadata();
    expect(meta.exif).toBeUndefined();
    expect(meta.format).toBe('jpeg');
  });

  it('lists history, takes feedback, calibrates the next estimate, and reports it', async () => {
    const { client, account } = await registerClient(server);
    grantTo(server, account.username, 20);
    const first = analyzeResponseSchema.parse(await (await analyze(client, { description: ISSUE_EXAMPLE })).json()).analysis;
    expect(first.calibratedFromJobs).toBeNull();

    const fb = await client.request('PATCH', `/api/analysis/${first.id}/feedback`, {
      actualCuttingTime: first.cuttingTimeMax * 2,
      actualPrepTime: first.prepTimeMax,
      feedback: 'Took longer: heavy rigging',
    });
    expect(fb.status).toBe(200);

    const second = analyzeResponseSchema.parse(await (await analyze(client, { description: ISSUE_EXAMPLE })).json()).analysis;
    expect(second.calibratedFromJobs).toBe(1);
    // The same tree is the same kind of job, so the results name it.
    expect(second.method).toBe(first.method);
    const calibratedFrom = `Calibrated from 1 of your ${JOB_KIND_PLURALS[second.method as JobKind]}`;
    expect(second.calibratedFrom).toBe(calibratedFrom);
    expect(second.cuttingTimeMin).toBeGreaterThan(first.cuttingTimeMin);

    const list = analysisListSchema.parse(await (await client.get('/api/analyses')).json());
    expect(list.analyses.map((a) => a.id)).toEqual([second.id, first.id]);
    expect(list.analyses.map((a) => a.hasFeedback)).toEqual([false, true]);
    expect(list.nextCursor).toBeNull();
    const withFeedback = (await (await client.get(`/api/analysis/${first.id}`)).json()).analysis;
    expect(withFeedback).toMatchObject({ actualCuttingTime: first.cuttingTimeMax * 2, feedback: 'Took longer: heavy rigging' });

    // Calibration is an internal note: it is on the contractor's copy, not the customer's.
    const pdf = await client.get(`/api/analysis/${second.id}/report.pdf?copy=internal`);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    const bytes = new Uint8Array(await pdf.arrayBuffer());
    const { text } = await extractText(await getDocumentProxy(bytes), { mergePages: true });
    expect(text).toContain('Oak');
    expect(text).toContain(`TA-${String(second.id).padStart(6, '0')}`);
    expect(text).toContain(calibratedFrom);
  });
});
