import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeResponseSchema } from '../../core/analysis';
import { jobResponseSchema, type Job } from '../../core/jobs';
import { formatGbp, parsePence } from '../../core/money';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyze, grantTo } from '../../testing/analysis';
import { registerClient, startTestServer, type TestClient, type TestServer } from '../../testing/harness';
import { logoForm, testLogoPng, TEST_PROFILE } from '../../testing/logo';
import { addressedTo, decodeQuotedPrintable, mailSettled } from '../../testing/mail';
import { pdfText } from '../../testing/quote';

/*
 * GET /api/jobs/{id}/quote.pdf (docs/analysis.md, Quotes): the job's quote from the real app, for
 * its owner only; the customer's copy by default, the surgeon's with ?copy=internal.
 */
let server: TestServer;
let owner: TestClient;
let job: Job;

beforeAll(async () => {
  server = await startTestServer();
  const registered = await registerClient(server);
  owner = registered.client;
  grantTo(server, registered.account.username, 10);
  // A VAT-registered profile: its jobs show prices including VAT, valid for its 14 days.
  expect((await owner.request('PATCH', '/api/system-settings', { aiInstructions: '', hourlyRate: '40', companyProfile: TEST_PROFILE })).status).toBe(200);
  await owner.upload('/api/system-settings/logo', logoForm(await testLogoPng()));
  const res = await analyze(owner, { description: 'oak, 16 inch trunk, 40 ft tall' });
  expect(res.status, await res.clone().text()).toBe(201);
  const { analysis } = analyzeResponseSchema.parse(await res.json());
  const made = await owner.post('/api/jobs', { analysisIds: [analysis.id], customer: { name: 'Łukasz Wójcik', siteAddress: 'ул. Тверская, 7\nМосква' } });
  expect(made.status, await made.clone().text()).toBe(201);
  const line = await owner.post(`/api/jobs/${jobResponseSchema.parse(await made.json()).job.id}/lines`, { description: 'Κλάδεμα: reduce the beech hedge by 1 m', price: '175', optional: true });
  expect(line.status, await line.clone().text()).toBe(201);
  job = jobResponseSchema.parse(await line.json()).job;
});
afterAll(() => server.close());

describe('the job quote PDF over HTTP', () => {
  it("downloads the customer's copy for the owner, names as typed, the totals the job says", async () => {
    const res = await owner.get(`/api/jobs/${job.id}/quote.pdf`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="quote-${job.reference}.pdf"`);
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const { text } = await pdfText(bytes);
    expect(text).toContain('Oak & Ash Tree Care Ltd');
    expect(text).toContain(`Quote no. ${job.reference}`);
    // The test clock reads 1 June 2026; the profile gives 14 days.
    expect(text).toContain('Date 1 June 2026 Valid until 15 June 2026');
    expect(text).toContain('Prepared for Łukasz Wójcik');
    expect(text).toContain('Site address ул. Тверская, 7 Москва');
    expect(text).toContain('Κλάδεμα: reduce the beech hedge by 1 m Optional £175.00');
    expect(job.vatMode).toBe('inc');
    expect(text).toContain(`Total including VAT ${formatGbp(parsePence(job.totals.gross)!)} Includes VAT at 20% ${formatGbp(parsePence(job.totals.vat)!)}`);
    for (const word of ['onfidence', 'Internal', 'arborist', 'Wood density']) expect(text, word).not.toContain(word);
  });

  it('gives the internal copy with ?copy=internal, and refuses any other copy', async () => {
    const res = await owner.get(`/api/jobs/${job.id}/quote.pdf?copy=internal`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="quote-${job.reference}-internal.pdf"`);
    const { text } = await pdfText(Buffer.from(await res.arrayBuffer()));
    expect(text).toContain('Internal copy: not for the customer');
    expect(text).toMatch(/Confidence \d+%/);

    const bad = await owner.get(`/api/jobs/${job.id}/quote.pdf?copy=everyone`);
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { code: string }).code).toBe('VALIDATION_ERROR');
  });

  it("is a 404 for another account and a 401 for nobody, whichever copy", async () => {
    const { client: other } = await registerClient(server);
    for (const path of [`/api/jobs/${job.id}/quote.pdf`, `/api/jobs/${job.id}/quote.pdf?copy=internal`]) {
      const res = await other.get(path);
      expect(res.status, path).toBe(404);
      expect(res.headers.get('content-type')).not.toBe('application/pdf');
      const anonymous = await fetch(server.url + path);
      expect(anonymous.status, path).toBe(401);
    }
  });

  it('for an accepted job is the version accepted: the optional items chosen in the totals, and who accepted when', async () => {
    const made = jobResponseSchema.parse(await (await owner.post('/api/jobs', { customer: { name: 'Łukasz Wójcik', email: 'lukasz@example.com' } })).json()).job;
    await owner.post(`/api/jobs/${made.id}/lines`, { description: 'Fell the leylandii and grind the stump', price: '600' });
    const withHedge = jobResponseSchema.parse(await (await owner.post(`/api/jobs/${made.id}/lines`, { description: 'Reduce the beech hedge by 1 m', price: '175', optional: true })).json()).job;
    const hedge = withHedge.items.find((i) => i.optional)!;
    expect((await owner.post(`/api/jobs/${made.id}/send`, {})).status).toBe(200);
    await mailSettled(server);
    const outbox = join(server.dataDir, 'outbox');
    const mails = readdirSync(outbox).map((file) => decodeQuotedPrintable(readFileSync(join(outbox, file), 'utf8')));
    const token = mails.find((m) => addressedTo(m, 'lukasz@example.com') && m.includes(made.reference))?.match(/\/quote\/([A-Za-z0-9_-]{43})/)?.[1];
    expect(token).toBeDefined();
    const accepted = await fetch(`${server.url}/api/quotes/${token}/accept`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: server.origin },
      body: JSON.stringify({ name: 'Łukasz Wójcik', acceptTerms: true, optionalItemIds: [hedge.id], startWithinCancellationPeriod: false }),
    });
    expect(accepted.status, await accepted.clone().text()).toBe(200);

    const { text } = await pdfText(Buffer.from(await (await owner.get(`/api/jobs/${made.id}/quote.pdf`)).arrayBuffer()));
    // £600 + £175 including VAT: £775.00, of which VAT is 1/6, £129.17.
    expect(text).toContain('Reduce the beech hedge by 1 m Optional: chosen £175.00');
    expect(text).toContain('Optional items chosen £175.00 Total including VAT £775.00 Includes VAT at 20% £129.17');
    expect(text).toContain('Accepted by Łukasz Wójcik on 1 June 2026');
  });
});
