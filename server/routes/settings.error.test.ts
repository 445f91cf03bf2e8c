import { request as httpRequest } from 'node:http';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settingsResponseSchema } from '../../core/settings';
import { MAX_LOGO_BYTES, PHONE_MESSAGE, VALIDITY_MESSAGE, VAT_NUMBER_MESSAGE } from '../../core/company-profile';
import { errorBodySchema } from '../../core/errors';
import { DEFAULT_QUOTE_TERMS, MAX_QUOTE_TERMS_CHARS, QUOTE_ROUNDING_MESSAGE, QUOTE_TERMS_MESSAGE } from '../../core/quote-settings';
import { registerClient, startTestServer, type TestClient, type TestServer } from '../../testing/harness';
import { logoForm, testLogoPng } from '../../testing/logo';

let server: TestServer;
let client: TestClient;
beforeAll(async () => {
  server = await startTestServer();
  client = (await registerClient(server)).client;
});
afterAll(() => server.close());

const PROFILE = { tradingName: 'Birch Brothers', phone: '01632 960 456', email: 'hello@birch.example', address: '1 High Street', vatNumber: '', quoteValidityDays: 30 };

async function refused(res: Response, status: number, code: string) {
  expect(res.status).toBe(status);
  const body = errorBodySchema.parse(await res.json());
  expect(body.code).toBe(code);
  return body;
}

describe('PATCH /api/system-settings validation', () => {
  it('names each bad company field under its path, and saves nothing', async () => {
    const res = await client.request('PATCH', '/api/system-settings', {
      hourlyRate: '55',
      companyProfile: { ...PROFILE, vatNumber: 'GB 123', phone: 'ring the office', email: 'hello@', quoteValidityDays: 0 },
    });
    const body = await refused(res, 400, 'VALIDATION_ERROR');
    expect(body.details).toMatchObject({
      'companyProfile.vatNumber': [VAT_NUMBER_MESSAGE],
      'companyProfile.phone': [PHONE_MESSAGE],
      'companyProfile.email': [expect.stringContaining('valid e-mail')],
      'companyProfile.quoteValidityDays': [VALIDITY_MESSAGE],
    });
    // The summary is the first problem in the form's order.
    expect(body.message).toBe(PHONE_MESSAGE);
    const now = settingsResponseSchema.parse(await (await client.get('/api/system-settings')).json());
    expect(now.hourlyRate).toBe('0.00');
    expect(now.companyProfile.tradingName).toBe('');
  });

  it('refuses validity outside 1 to 365 days and a missing profile field', async () => {
    for (const quoteValidityDays of [366, 2.5, '30']) {
      const body = await refused(await client.request('PATCH', '/api/system-settings', { companyProfile: { ...PROFILE, quoteValidityDays } }), 400, 'VALIDATION_ERROR');
      expect(body.details).toEqual({ 'companyProfile.quoteValidityDays': [VALIDITY_MESSAGE] });
    }
    const { tradingName: _left, ...withoutName } = PROFILE;
    const body = await refused(await client.request('PATCH', '/api/system-settings', { companyProfile: withoutName }), 400, 'VALIDATION_ERROR');
    expect(Object.keys(body.details ?? {})).toEqual(['companyProfile.tradingName']);
  });

  it('refuses a PATCH with nothing to save, and bad JSON', async () => {
    await refused(await client.request('PATCH', '/api/system-settings', {}), 400, 'VALIDATION_ERROR');
    await refused(await client.request('PATCH', '/api/system-settings', '{"companyProfile":'), 400, 'VALIDATION_ERROR');
  });

  it('takes shareJobTimes only as true or false, and saves nothing else of a refused PATCH', async () => {
    for (const shareJobTimes of ['false', 0, null]) {
      const body = await refused(await client.request('PATCH', '/api/system-settings', { hourlyRate: '20', shareJobTimes }), 400, 'VALIDATION_ERROR');
      expect(Object.keys(body.details ?? {})).toEqual(['shareJobTimes']);
    }
    const now = settingsResponseSchema.parse(await (await client.get('/api/system-settings')).json());
    expect(now).toMatchObject({ hourlyRate: '0.00', shareJobTimes: true });
  });

  it('refuses a rounding other than "1", "5" or "10" and terms past 4,000 characters, naming the field and saving nothing', async () => {
    for (const quoteRounding of ['2', '5.00', '£5', '500', 5, null]) {
      const res = await client.request('PATCH', '/api/system-settings', { hourlyRate: '20', quoteRounding });
      const body = await refused(res, 400, 'VALIDATION_ERROR');
      expect(body.details, JSON.stringify(quoteRounding)).toEqual({ quoteRounding: [QUOTE_ROUNDING_MESSAGE] });
    }
    for (const quoteTerms of ['x'.repeat(MAX_QUOTE_TERMS_CHARS + 1), 42, ['1. Cash']]) {
      const res = await client.request('PATCH', '/api/system-settings', { quoteRounding: '10', quoteTerms });
      const body = await refused(res, 400, 'VALIDATION_ERROR');
      expect(Object.keys(body.details ?? {})).toEqual(['quoteTerms']);
    }
    const tooLong = await refused(await client.request('PATCH', '/api/system-settings', { quoteTerms: 'x'.repeat(MAX_QUOTE_TERMS_CHARS + 1) }), 400, 'VALIDATION_ERROR');
    expect(tooLong.message).toBe(QUOTE_TERMS_MESSAGE);
    const now = settingsResponseSchema.parse(await (await client.get('/api/system-settings')).json());
    expect(now).toMatchObject({ hourlyRate: '0.00', quoteRounding: '5', quoteTerms: DEFAULT_QUOTE_TERMS });
  });

  it('keeps the hourly rate check per field', async () => {
    const body = await refused(await client.request('PATCH', '/api/system-settings', { aiInstructions: '', hourlyRate: '-1' }), 400, 'VALIDATION_ERROR');
    expect(body.details).toHaveProperty('hourlyRate');
  });
});

describe('POST /api/system-settings/logo refusals', () => {
  it('refuses a file that is not an image by its bytes, whatever its name and type say', async () => {
    const text = Buffer.from('<html><script>alert(1)</script></html>');
    await refused(await client.upload('/api/system-settings/logo', logoForm(text, 'image/png', 'logo.png')), 415, 'UNSUPPORTED_MEDIA_TYPE');
    const gif = Buffer.from('GIF89a\x01\x00\x01\x00\x80\x00\x00\xff\xff\xff\x00\x00\x00!\xf9\x04\x01\x00\x00\x00\x00,\x00\x00\x00\x00\x01\x00\x01\x00\x00\x02\x02D\x01\x00;', 'latin1');
    await refused(await client.upload('/api/system-settings/logo', logoForm(gif, 'image/gif', 'logo.gif')), 415, 'UNSUPPORTED_MEDIA_TYPE');
  });

  it('refuses an image file over 2 MB with 413', async () => {
    // A real PNG header, padded past the limit: refused on size before any decoding.
    const big = Buffer.concat([await testLogoPng(), Buffer.alloc(MAX_LOGO_BYTES)]);
    const body = await refused(await client.upload('/api/system-settings/logo', logoForm(big)), 413, 'PAYLOAD_TOO_LARGE');
    expect(body.message).toBe('Logo is too large. The maximum file size is 2 MB.');
  });

  it('refuses a streamed body past the limit that declares no length', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(`${server.url}/api/system-settings/logo`, {
        method: 'POST',
        headers: {
          cookie: client.cookieHeader(),
          origin: server.origin,
          'sec-fetch-site': 'same-origin',
          'content-type': 'multipart/form-data; boundary=x',
          'transfer-encoding': 'chunked',
        },
      });
      req.on('response', (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.write('--x\r\nContent-Disposition: form-data; name="logo"; filename="logo.png"\r\n\r\n');
      const chunk = Buffer.alloc(256 * 1024, 0x61);
      let sent = 0;
      const pump = () => {
        while (sent < MAX_LOGO_BYTES + 512 * 1024) {
          sent += chunk.length;
          if (!req.write(chunk)) return void req.once('drain', pump);
        }
        req.end();
      };
      pump();
    });
    expect(status).toBe(413);
  });

  it('refuses an image that cannot be decoded, no file, and a body that is not multipart', async () => {
    const broken = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(200, 7)]);
    await refused(await client.upload('/api/system-settings/logo', logoForm(broken)), 400, 'VALIDATION_ERROR');
    await refused(await client.upload('/api/system-settings/logo', new FormData()), 400, 'VALIDATION_ERROR');
    const png = await sharp({ create: { width: 10, height: 10, channels: 3, background: '#2e6b3a' } }).png().toBuffer();
    await refused(await client.request('POST', '/api/system-settings/logo', png.toString('latin1'), { 'content-type': 'image/png' }), 415, 'UNSUPPORTED_MEDIA_TYPE');
    expect(settingsResponseSchema.parse(await (await client.get('/api/system-settings')).json()).companyProfile.logoUrl).toBeNull();
  });
});
