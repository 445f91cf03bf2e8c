import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analysisSchema, analyzeResponseSchema, type Analysis } from '../../core/analysis';
import { settingsResponseSchema } from '../../core/settings';
import { publicBusinessSchema } from '../../core/business';
import { errorBodySchema } from '../../core/errors';
import { analyze, grantTo } from '../../testing/analysis';
import { createBusinessFor, visitorAnalyze } from '../../testing/business';
import { registerClient, startTestServer, type TestClient, type TestServer } from '../../testing/harness';

/*
 * Units kept, over HTTP: an account's and a business's units are saved and answered (metric
 * unless changed), and an analysis says which units its sizes are shown in (those typed, else
 * the preference) with the sizes as typed, so 22 m and 90 cm come back as 22 m and 90 cm.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

async function paidClient(): Promise<TestClient> {
  const { client, account } = await registerClient(server);
  grantTo(server, account.username, 50);
  return client;
}

async function settingsOf(client: TestClient) {
  const res = await client.get('/api/system-settings');
  expect(res.status).toBe(200);
  return settingsResponseSchema.parse(await res.json());
}

async function estimate(client: TestClient, treeDetails: unknown): Promise<Analysis> {
  const res = await analyze(client, { treeDetails });
  expect(res.status).toBe(201);
  return analyzeResponseSchema.parse(await res.json()).analysis;
}

describe('the account preference', () => {
  it('is metric for a new account, and is saved and answered when changed', async () => {
    const { client } = await registerClient(server);
    expect((await settingsOf(client)).units).toBe('metric');

    const saved = await client.request('PATCH', '/api/system-settings', { units: 'imperial' });
    expect(saved.status).toBe(200);
    expect(settingsResponseSchema.parse(await saved.json()).units).toBe('imperial');
    expect((await settingsOf(client)).units).toBe('imperial');

    // Saving another part leaves the units alone.
    await client.request('PATCH', '/api/system-settings', { hourlyRate: '40' });
    expect((await settingsOf(client)).units).toBe('imperial');
  });

  it('refuses units it does not know, under their field, and keeps the saved ones', async () => {
    const { client } = await registerClient(server);
    const res = await client.request('PATCH', '/api/system-settings', { units: 'furlongs' });
    expect(res.status).toBe(400);
    const body = errorBodySchema.parse(await res.json());
    expect(body.code).toBe('VALIDATION_ERROR');
    expect(body.details).toMatchObject({ units: [expect.stringContaining('metric')] });
    expect((await settingsOf(client)).units).toBe('metric');
  });
});

describe('an analysis', () => {
  it('entered as 22 m and 90 cm is answered in metric with the sizes as typed, whatever the preference', async () => {
    const client = await paidClient();
    await client.request('PATCH', '/api/system-settings', { units: 'imperial' });
    const analysis = await estimate(client, { height: { value: 22, unit: 'm' }, diameter: { value: 90, unit: 'cm' } });
    // The API keeps feet and inches; the units and the sizes as typed ride beside them.
    expect(analysis).toMatchObject({
      height: 72,
      diameter: 35,
      units: 'metric',
      enteredSizes: { height: { value: 22, unit: 'm' }, diameter: { value: 90, unit: 'cm' } },
    });
    const again = await client.get(`/api/analysis/${analysis.id}`);
    expect(analysisSchema.parse((await again.json()).analysis)).toMatchObject({ units: 'metric', enteredSizes: analysis.enteredSizes });
  });

  it('with no size typed is shown in the account preference', async () => {
    const metric = await paidClient();
    const bands = { height: { band: 'taller_than_house' }, diameter: { band: 'thicker_than_plate' } };
    expect(await estimate(metric, bands)).toMatchObject({ units: 'metric', enteredSizes: null });

    const imperial = await paidClient();
    await imperial.request('PATCH', '/api/system-settings', { units: 'imperial' });
    expect(await estimate(imperial, bands)).toMatchObject({ units: 'imperial', enteredSizes: null });
    expect(await estimate(imperial, { height: { value: 40, unit: 'ft' }, diameter: { value: 14, unit: 'in' } })).toMatchObject({
      units: 'imperial',
      enteredSizes: { height: { value: 40, unit: 'ft' }, diameter: { value: 14, unit: 'in' } },
    });
  });
});

describe('a business', () => {
  it('asks and answers in its own units: the public business says them and its visitors’ analyses keep them', async () => {
    const owner = await paidClient();
    await owner.request('PATCH', '/api/system-settings', { units: 'imperial' });
    const business = await createBusinessFor(owner);
    expect(business.units).toBe('metric');
    const publicBusiness = publicBusinessSchema.parse(await (await fetch(`${server.url}/api/businesses/${business.slug}`)).json());
    expect(publicBusiness.units).toBe('metric');

    const res = await visitorAnalyze(server, business.slug, { treeDetails: { height: { band: 'about_two_storey' }, diameter: { band: 'up_to_plate' } } });
    expect(res.status).toBe(201);
    const { analysis } = (await res.json()) as { analysis: { id: number } };
    const stored = analysisSchema.parse((await (await owner.get(`/api/analysis/${analysis.id}`)).json()).analysis);
    expect(stored.units).toBe('metric');
  });
});
