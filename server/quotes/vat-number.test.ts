import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settingsResponseSchema } from '../../core/settings';
import { RateLimits } from '../http/rate-limit';
import { grantTo } from '../../testing/analysis';
import { registerClient, startTestServer, type TestClient, type TestServer } from '../../testing/harness';
import { analysisIdOf, jobOf } from '../../testing/jobs';
import { addressedTo, mailSettled, outboxMessages } from '../../testing/mail';
import { pdfText } from '../../testing/quote';

/*
 * One VAT number format wherever the customer or the surgeon reads it (core/company-profile.ts
 * vatNumberLine): typed as "gb 123456789", it reads "VAT registration no. GB 123 4567 89" on the
 * customer's page, the quote PDFs (the link's, the job's, the one-tree report), the acceptance
 * e-mail and in Settings. A walk through the product found "GB123456789" on the page beside "GB 123 4567 89" on the PDF.
 */
let server: TestServer;
let owner: TestClient;
const CUSTOMER = 'vat.customer@example.com';
const PRINTED = 'VAT registration no. GB 123 4567 89';

beforeAll(async () => {
  server = await startTestServer({}, { rateLimits: new RateLimits({ quoteLinksPerAddress: { points: 10_000, windowSeconds: 600 } }) });
  const registered = await registerClient(server);
  owner = registered.client;
  grantTo(server, registered.account.username, 100);
  const profile = await owner.request('PATCH', '/api/system-settings', {
    companyProfile: { tradingName: 'Birch Brothers', phone: '01632 960000', email: 'office@birch.example', address: '1 Yard Lane\nLeeds', vatNumber: 'gb 123456789', quoteValidityDays: 30 },
  });
  expect(profile.status, await profile.clone().text()).toBe(200);
});
afterAll(() => server.close());

const pdfOf = async (res: Response) => {
  expect(res.status, res.url).toBe(200);
  return (await pdfText(Buffer.from(await res.arrayBuffer()))).text;
};

describe('the VAT number', () => {
  it('reads the same on the page, the PDFs, the acceptance e-mail and in Settings', async () => {
    const settings = settingsResponseSchema.parse(await (await owner.get('/api/system-settings')).json());
    expect(settings.companyProfile.vatNumber).toBe('GB 123 4567 89');

    const analysisId = await analysisIdOf(owner);
    const made = await jobOf(await owner.post('/api/jobs', { analysisIds: [analysisId], customer: { name: 'Jo Ash', email: CUSTOMER } }), 201);
    await jobOf(await owner.request('PATCH', `/api/jobs/${made.id}`, { items: made.items.map((item) => ({ id: item.id, price: '600' })) }));
    const job = await jobOf(await owner.post(`/api/jobs/${made.id}/send`, {}));
    await mailSettled(server);
    const token = outboxMessages(server.dataDir)
      .map((mail) => mail.text)
      .find((text) => addressedTo(text, CUSTOMER) && text.includes(job.reference))
      ?.match(/\/quote\/([A-Za-z0-9_-]{43})/)?.[1];
    expect(token).toBeDefined();

    const page = await (await fetch(`${server.url}/quote/${token}`)).text();
    expect(page).toContain(`<p>${PRINTED}</p>`);
    expect(page).not.toContain('GB123456789');

    expect(await pdfOf(await fetch(`${server.url}/api/quotes/${token}/quote.pdf`))).toContain(PRINTED);
    expect(await pdfOf(await owner.get(`/api/jobs/${job.id}/quote.pdf`))).toContain(PRINTED);
    expect(await pdfOf(await owner.get(`/api/analysis/${analysisId}/report.pdf`))).toContain(PRINTED);

    const before = outboxMessages(server.dataDir).length;
    const accepted = await fetch(`${server.url}/api/quotes/${token}/accept`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: server.origin },
      body: JSON.stringify({ name: 'Jo Ash', acceptTerms: true }),
    });
    expect(accepted.status, await accepted.clone().text()).toBe(200);
    await mailSettled(server);
    const confirmation = outboxMessages(server.dataDir)
      .slice(before)
      .map((mail) => mail.text)
      .find((text) => addressedTo(text, CUSTOMER) && text.includes(`you accepted quote ${job.reference}`));
    expect(confirmation).toContain(PRINTED);
    expect(confirmation).not.toContain('GB123456789');
    // An analysis and four PDFs (three read here, one attached): 20 s is seen beside a browser test run.
  });
});
