import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeResponseSchema } from '../../core/analysis';
import { analyze, grantTo } from '../testing/analysis';
import { registerClient, startTestServer, type TestServer } from '../testing/harness';
import { logoForm, testLogoPng, TEST_PROFILE as PROFILE } from '../testing/logo';

/** GET /api/analysis/{id}/report.pdf: the quote from the real app, with the user's company profile. */
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());


describe('the quote PDF over HTTP', () => {
  it("prints the profile, the quote number, the validity from the server's clock and VAT; internal notes only on ?copy=internal", async () => {
    const { client, account } = await registerClient(server);
    grantTo(server, account.username, 10);
    await client.request('PATCH', '/api/system-settings', { aiInstructions: '', hourlyRate: '40', companyProfile: PROFILE });
    await client.upload('/api/system-settings/logo', logoForm(await testLogoPng()));
    const res = await analyze(client, { description: 'oak, 16 inch trunk, 40 ft tall', siteDetails: { targets: 'building', access: 'side_gate' } });
    expect(res.status).toBe(201);
    const { analysis } = analyzeResponseSchema.parse(await res.json());
    const reference = `TA-${String(analysis.id).padStart(6, '0')}`;

    const pdf = await client.get(`/api/analysis/${analysis.id}/report.pdf`);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(pdf.headers.get('content-disposition')).toBe(`attachment; filename="quote-${reference}.pdf"`);
    const customer = await pdfText(pdf);
    expect(customer.totalPages).toBe(1);
    expect(customer.text).toContain('Oak & Ash Tree Care Ltd');
    expect(customer.text).toContain(`Quote no. ${reference}`);
    // The test clock reads 1 June 2026; the profile gives 14 days.
    expect(customer.text).toContain('Date 1 June 2026');
    expect(customer.text).toContain('Valid until 15 June 2026');
    expect(customer.text).toContain('VAT registration no. GB 123 4567 89');
    expect(customer.text).toMatch(/Price ex VAT £[\d,]+\.\d\d - £[\d,]+\.\d\d VAT at 20% £[\d,]+\.\d\d - £[\d,]+\.\d\d Total inc VAT/);
    for (const word of ['Not answered', 'Calibrat', 'provider', 'Provider', 'onfidence', 'Internal notes']) expect(customer.text, word).not.toContain(word);

    const internalRes = await client.get(`/api/analysis/${analysis.id}/report.pdf?copy=internal`);
    expect(internalRes.headers.get('content-disposition')).toBe(`attachment; filename="quote-${reference}-internal.pdf"`);
    const internal = await pdfText(internalRes);
    expect(internal.totalPages).toBe(2);
    expect(internal.text).toContain('Internal notes - not for the customer');
    expect(internal.text).toContain('Not answered, assumed');
    expect(internal.text).toContain('Provider Local estimate');
    expect(internal.text).toMatch(/Confidence \d+%/);

    const bad = await client.get(`/api/analysis/${analysis.id}/report.pdf?copy=everyone`);
    expect(bad.status).toBe(400);
    expect((await bad.json()).code).toBe('VALIDATION_ERROR');
  });
});

async function pdfText(res: Response) {
  const { totalPages, text } = await extractText(await getDocumentProxy(new Uint8Array(await res.arrayBuffer())), { mergePages: true });
  return { totalPages, text: text.replace(/\s+/g, ' ') };
}
