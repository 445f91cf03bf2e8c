import { readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settingsResponseSchema } from '../../core/settings';
import { DEFAULT_QUOTE_TERMS } from '../../core/quote-settings';
import { logosDir } from '../settings/logo';
import { registerClient, startTestServer, TestClient, type TestServer } from '../../testing/harness';
import { logoForm, testLogoPng } from '../../testing/logo';

let server: TestServer;
let owner: TestClient;
let other: TestClient;
let ownerLogoUrl: string;
beforeAll(async () => {
  server = await startTestServer();
  owner = (await registerClient(server)).client;
  other = (await registerClient(server)).client;
  await owner.request('PATCH', '/api/system-settings', {
    companyProfile: { tradingName: 'Owner Trees', phone: '', email: '', address: '', vatNumber: 'GB123456789', quoteValidityDays: 10 },
  });
  const res = await owner.upload('/api/system-settings/logo', logoForm(await testLogoPng()));
  ownerLogoUrl = settingsResponseSchema.parse(await res.json()).companyProfile.logoUrl!;
});
afterAll(() => server.close());

describe("another user's company profile and logo", () => {
  it('are never shown: the profile is empty and the logo is a 404, even at the owner\'s URL', async () => {
    const mine = settingsResponseSchema.parse(await (await other.get('/api/system-settings')).json());
    expect(mine.companyProfile).toMatchObject({ tradingName: '', vatNumber: '', quoteValidityDays: 30, logoUrl: null });
    for (const path of [ownerLogoUrl, '/api/system-settings/logo']) {
      const res = await other.get(path);
      expect(res.status, path).toBe(404);
      expect((await res.json()).code).toBe('NOT_FOUND');
    }
    expect((await owner.get(ownerLogoUrl)).status).toBe(200);
  });

  it("are not removed by the other user's DELETE", async () => {
    const before = readdirSync(logosDir(server.dataDir));
    expect((await other.request('DELETE', '/api/system-settings/logo')).status).toBe(200);
    expect(readdirSync(logosDir(server.dataDir))).toEqual(before);
    expect((await owner.get(ownerLogoUrl)).status).toBe(200);
  });
});

describe("another user's quote rounding and terms", () => {
  it('are neither shown nor changed by their PATCH', async () => {
    expect((await owner.request('PATCH', '/api/system-settings', { quoteRounding: '10', quoteTerms: 'Owner terms: cash only.' })).status).toBe(200);
    const mine = settingsResponseSchema.parse(await (await other.get('/api/system-settings')).json());
    expect(mine).toMatchObject({ quoteRounding: '5', quoteTerms: DEFAULT_QUOTE_TERMS });
    expect((await other.request('PATCH', '/api/system-settings', { quoteRounding: '1', quoteTerms: '' })).status).toBe(200);
    const theirs = settingsResponseSchema.parse(await (await owner.get('/api/system-settings')).json());
    expect(theirs).toMatchObject({ quoteRounding: '10', quoteTerms: 'Owner terms: cash only.' });
  });

  it('are refused signed out and cross-site', async () => {
    const crossSite = { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' };
    expect((await owner.request('PATCH', '/api/system-settings', { quoteTerms: 'Pay us twice.' }, crossSite)).status).toBe(403);
    expect((await new TestClient(server).request('PATCH', '/api/system-settings', { quoteRounding: '1' })).status).toBe(401);
    expect(settingsResponseSchema.parse(await (await owner.get('/api/system-settings')).json()).quoteTerms).toBe('Owner terms: cash only.');
  });
});

describe('signed out and cross-site', () => {
  it('refuses every settings and logo route when signed out', async () => {
    const anon = new TestClient(server);
    expect((await anon.get('/api/system-settings/logo')).status).toBe(401);
    expect((await anon.request('PATCH', '/api/system-settings', { companyProfile: {} })).status).toBe(401);
    expect((await anon.upload('/api/system-settings/logo', logoForm(await testLogoPng()))).status).toBe(401);
    expect((await anon.request('DELETE', '/api/system-settings/logo')).status).toBe(401);
  });

  it('refuses a cross-site logo upload or removal carrying the cookie', async () => {
    const crossSite = { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' };
    expect((await owner.upload('/api/system-settings/logo', logoForm(await testLogoPng()), crossSite)).status).toBe(403);
    expect((await owner.request('DELETE', '/api/system-settings/logo', undefined, crossSite)).status).toBe(403);
    expect((await owner.get(ownerLogoUrl)).status).toBe(200);
  });

  it("refuses a cross-site or signed-out change to sharing job times; one user never changes another's", async () => {
    const crossSite = { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' };
    expect((await owner.request('PATCH', '/api/system-settings', { shareJobTimes: false }, crossSite)).status).toBe(403);
    expect((await new TestClient(server).request('PATCH', '/api/system-settings', { shareJobTimes: false })).status).toBe(401);
    expect((await other.request('PATCH', '/api/system-settings', { shareJobTimes: false })).status).toBe(200);
    const mine = settingsResponseSchema.parse(await (await owner.get('/api/system-settings')).json());
    expect(mine.shareJobTimes).toBe(true);
    expect((await other.request('PATCH', '/api/system-settings', { shareJobTimes: true })).status).toBe(200);
  });
});
