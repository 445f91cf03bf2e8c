import { statSync, readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settingsResponseSchema } from '../../core/settings';
import { DEFAULT_QUOTE_TERMS } from '../../core/quote-settings';
import { logosDir } from '../settings/logo';
import { registerClient, startTestServer, type TestClient, type TestServer } from '../../testing/harness';
import { logoForm, testLogoPng, TEST_PROFILE as PROFILE } from '../../testing/logo';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());


async function settingsOf(client: TestClient) {
  const res = await client.get('/api/system-settings');
  expect(res.status).toBe(200);
  return settingsResponseSchema.parse(await res.json());
}

/** A new account's pricing rules: a crew of two, nothing beyond the hours. */
const NO_EXTRAS = {
  crewSize: 2,
  minimumCharge: '0.00',
  travel: '0.00',
  wastePerTonne: '0.00',
  stumpGrinding: '0.00',
  accessPlatform: '0.00',
  trafficManagement: '0.00',
} as const;

/** Getting paid as a new account has it (docs/product.md, Getting paid). */
const GETTING_PAID_DEFAULTS = {
  bankDetails: null,
  paymentTermsDays: 7,
  depositRule: null,
  invoicePrefix: 'INV-',
  nextInvoiceNumber: 1,
  invoiceReminderDays: [3, 7],
  salesAccountCode: '200',
  lateInterest: null,
} as const;

describe('the company profile', () => {
  it('starts empty with 30 days validity, beside aiInstructions and hourlyRate', async () => {
    const { client } = await registerClient(server);
    expect(await settingsOf(client)).toEqual({
      aiInstructions: '',
      hourlyRate: '0.00',
      companyProfile: { tradingName: '', phone: '', email: '', address: '', vatNumber: '', quoteValidityDays: 30, logoUrl: null },
      shareJobTimes: true,
      units: 'metric',
      pricing: { ...NO_EXTRAS, vatMode: 'none' },
      quoteRounding: '5',
      quoteTerms: DEFAULT_QUOTE_TERMS,
      quoteReminderDays: 5,
      nestingSeason: { from: '03-01', to: '08-31' },
      ...GETTING_PAID_DEFAULTS,
    });
  });

  it('is saved on its own, answered with the VAT number as HMRC prints it, and leaves the AI settings alone', async () => {
    const { client } = await registerClient(server);
    await client.request('PATCH', '/api/system-settings', { aiInstructions: 'Two-person crew', hourlyRate: '45.5' });
    const res = await client.request('PATCH', '/api/system-settings', { companyProfile: PROFILE });
    expect(res.status).toBe(200);
    const saved = settingsResponseSchema.parse(await res.json());
    expect(saved).toEqual({
      aiInstructions: 'Two-person crew',
      hourlyRate: '45.50',
      companyProfile: { ...PROFILE, vatNumber: 'GB 123 4567 89', logoUrl: null },
      shareJobTimes: true,
      units: 'metric',
      // With a VAT number and no pricing rules saved yet, VAT is charged and shown included.
      pricing: { ...NO_EXTRAS, vatMode: 'inc' },
      quoteRounding: '5',
      quoteTerms: DEFAULT_QUOTE_TERMS,
      quoteReminderDays: 5,
      nestingSeason: { from: '03-01', to: '08-31' },
      ...GETTING_PAID_DEFAULTS,
    });
    expect(await settingsOf(client)).toEqual(saved);
  });

  it('is kept when the AI settings are saved or reset to their defaults (the PATCH body)', async () => {
    const { client } = await registerClient(server);
    await client.request('PATCH', '/api/system-settings', { companyProfile: PROFILE });
    const res = await client.request('PATCH', '/api/system-settings', { aiInstructions: '', hourlyRate: '0' });
    expect(res.status).toBe(200);
    expect((await settingsOf(client)).companyProfile).toMatchObject({ tradingName: PROFILE.tradingName, quoteValidityDays: 14 });
  });

  it('can be cleared again, VAT number included', async () => {
    const { client } = await registerClient(server);
    await client.request('PATCH', '/api/system-settings', { companyProfile: PROFILE });
    const cleared = { tradingName: '', phone: '', email: '', address: '', vatNumber: '', quoteValidityDays: 30 };
    await client.request('PATCH', '/api/system-settings', { companyProfile: cleared });
    expect((await settingsOf(client)).companyProfile).toEqual({ ...cleared, logoUrl: null });
  });
});

describe('the logo', () => {
  it('is re-encoded to a PNG inside 600 x 200, stored 0600 under DATA_DIR/logos and served to its owner', async () => {
    const { client } = await registerClient(server);
    const res = await client.upload('/api/system-settings/logo', logoForm(await testLogoPng()));
    expect(res.status).toBe(200);
    const { companyProfile } = settingsResponseSchema.parse(await res.json());
    expect(companyProfile.logoUrl).toMatch(/^\/api\/system-settings\/logo\?v=[0-9a-f]{8}$/);

    const logo = await client.get(companyProfile.logoUrl!);
    expect(logo.status).toBe(200);
    expect(logo.headers.get('content-type')).toBe('image/png');
    expect(logo.headers.get('cache-control')).toBe('private, max-age=86400');
    const meta = await sharp(Buffer.from(await logo.arrayBuffer())).metadata();
    expect(meta).toMatchObject({ format: 'png', width: 600, height: 200 });

    const files = readdirSync(logosDir(server.dataDir));
    const mine = files.find((f) => f.startsWith(companyProfile.logoUrl!.slice(-8)))!;
    expect(mine).toMatch(/^[0-9a-f-]{36}\.png$/);
    expect(statSync(join(logosDir(server.dataDir), mine)).mode & 0o777).toBe(0o600);
  });

  it('takes JPEG and WebP by their bytes, never enlarges a small one, and replacing it removes the old file', async () => {
    const { client } = await registerClient(server);
    const png = await testLogoPng();
    const first = settingsResponseSchema.parse(await (await client.upload('/api/system-settings/logo', logoForm(await sharp(png).jpeg().toBuffer(), 'image/jpeg', 'logo.jpg'))).json());
    const firstFile = join(logosDir(server.dataDir), readdirSync(logosDir(server.dataDir)).find((f) => f.startsWith(first.companyProfile.logoUrl!.slice(-8)))!);
    expect(existsSync(firstFile)).toBe(true);

    // A small WebP sent with a misleading name and type: typed by content, kept at its size.
    const small = await sharp(png).resize(150, 50).webp().toBuffer();
    const second = await client.upload('/api/system-settings/logo', logoForm(small, 'application/octet-stream', 'logo.bin'));
    expect(second.status).toBe(200);
    const { companyProfile } = settingsResponseSchema.parse(await second.json());
    expect(companyProfile.logoUrl).not.toBe(first.companyProfile.logoUrl);
    expect(existsSync(firstFile)).toBe(false);
    const meta = await sharp(Buffer.from(await (await client.get(companyProfile.logoUrl!)).arrayBuffer())).metadata();
    expect(meta).toMatchObject({ format: 'png', width: 150, height: 50 });
  });

  it('is removed with DELETE: no URL, no file, and the route answers 404', async () => {
    const { client } = await registerClient(server);
    const up = settingsResponseSchema.parse(await (await client.upload('/api/system-settings/logo', logoForm(await testLogoPng()))).json());
    const version = up.companyProfile.logoUrl!.slice(-8);
    const res = await client.request('DELETE', '/api/system-settings/logo');
    expect(res.status).toBe(200);
    expect(settingsResponseSchema.parse(await res.json()).companyProfile.logoUrl).toBeNull();
    expect(readdirSync(logosDir(server.dataDir)).some((f) => f.startsWith(version))).toBe(false);
    const gone = await client.get('/api/system-settings/logo');
    expect(gone.status).toBe(404);
    expect((await gone.json()).code).toBe('NOT_FOUND');
    // Deleting again is harmless.
    expect((await client.request('DELETE', '/api/system-settings/logo')).status).toBe(200);
  });
});

describe('sharing job times', () => {
  it('is on by default, turned off and on by a PATCH of its own, leaving every other setting alone', async () => {
    const { client } = await registerClient(server);
    await client.request('PATCH', '/api/system-settings', { aiInstructions: 'Two-person crew', hourlyRate: '45', companyProfile: PROFILE });
    const before = await settingsOf(client);
    expect(before.shareJobTimes).toBe(true);
    const off = await client.request('PATCH', '/api/system-settings', { shareJobTimes: false });
    expect(off.status).toBe(200);
    expect(settingsResponseSchema.parse(await off.json())).toEqual({ ...before, shareJobTimes: false });
    expect(await settingsOf(client)).toEqual({ ...before, shareJobTimes: false });
    // Saving the AI settings or the profile does not turn it back on.
    await client.request('PATCH', '/api/system-settings', { aiInstructions: '', hourlyRate: '0' });
    await client.request('PATCH', '/api/system-settings', { companyProfile: PROFILE });
    expect((await settingsOf(client)).shareJobTimes).toBe(false);
    const on = await client.request('PATCH', '/api/system-settings', { shareJobTimes: true });
    expect(settingsResponseSchema.parse(await on.json()).shareJobTimes).toBe(true);
  });
});

describe('quote rounding and terms', () => {
  // One account for the three (registrations from one address are rate-limited), in order.
  let client: TestClient;
  beforeAll(async () => {
    client = (await registerClient(server)).client;
  });

  it('start at £5 and the standard terms, and each is saved by a PATCH of its own, leaving every other setting alone', async () => {
    await client.request('PATCH', '/api/system-settings', { aiInstructions: 'Two-person crew', hourlyRate: '45', companyProfile: PROFILE });
    const before = await settingsOf(client);
    expect(before).toMatchObject({ quoteRounding: '5', quoteTerms: DEFAULT_QUOTE_TERMS });

    const rounded = await client.request('PATCH', '/api/system-settings', { quoteRounding: '10' });
    expect(rounded.status).toBe(200);
    expect(settingsResponseSchema.parse(await rounded.json())).toEqual({ ...before, quoteRounding: '10' });

    const terms = '1. Payment on the day, by card or bank transfer.\n2. We leave the logs stacked by the gate.';
    const termed = await client.request('PATCH', '/api/system-settings', { quoteTerms: `  ${terms.replace('\n', '\r\n')}\n\n` });
    expect(termed.status).toBe(200);
    expect(settingsResponseSchema.parse(await termed.json())).toEqual({ ...before, quoteRounding: '10', quoteTerms: terms });
    expect(await settingsOf(client)).toEqual({ ...before, quoteRounding: '10', quoteTerms: terms });

    // Saving the other parts keeps both.
    await client.request('PATCH', '/api/system-settings', { aiInstructions: '', hourlyRate: '0', companyProfile: PROFILE, units: 'imperial' });
    expect(await settingsOf(client)).toMatchObject({ quoteRounding: '10', quoteTerms: terms });

    const pounds = await client.request('PATCH', '/api/system-settings', { quoteRounding: '1' });
    expect(settingsResponseSchema.parse(await pounds.json()).quoteRounding).toBe('1');
  });

  it('are saved with the pricing rules in one PATCH, as the Pricing section sends them', async () => {
    const pricing = { ...NO_EXTRAS, crewSize: 3, travel: '25', vatMode: 'inc' };
    const res = await client.request('PATCH', '/api/system-settings', { pricing, quoteRounding: '1' });
    expect(res.status).toBe(200);
    expect(settingsResponseSchema.parse(await res.json())).toMatchObject({ pricing: { crewSize: 3, travel: '25.00', vatMode: 'inc' }, quoteRounding: '1' });
  });

  it('go back to the standard terms with an empty text or null', async () => {
    for (const reset of ['', '   \n ', null]) {
      await client.request('PATCH', '/api/system-settings', { quoteTerms: 'Cash on the day.' });
      expect((await settingsOf(client)).quoteTerms).toBe('Cash on the day.');
      const res = await client.request('PATCH', '/api/system-settings', { quoteTerms: reset });
      expect(res.status, JSON.stringify(reset)).toBe(200);
      expect(settingsResponseSchema.parse(await res.json()).quoteTerms).toBe(DEFAULT_QUOTE_TERMS);
    }
  });
});
