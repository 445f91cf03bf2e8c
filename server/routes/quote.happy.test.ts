import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeResponseSchema } from '../../core/analysis';
import { quoteRecipientResponseSchema } from '../../core/quote';
import { analyze, grantTo } from '../../testing/analysis';
import { createBusinessFor, visitorAnalyze, visitorLead } from '../../testing/business';
import { registerClient, startTestServer, type TestServer } from '../../testing/harness';
import { logoForm, testLogoPng, TEST_PROFILE as PROFILE } from '../../testing/logo';

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
    expect(customer.text).toMatch(/Total ex VAT £[\d,]+\.\d\d - £[\d,]+\.\d\d VAT at 20% £[\d,]+\.\d\d - £[\d,]+\.\d\d Total inc VAT/);
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

describe('a quote prepared for someone', () => {
  it('prints the customer name and site address given in the query, and nothing when they are empty', async () => {
    const { client, account } = await registerClient(server);
    grantTo(server, account.username, 10);
    await client.request('PATCH', '/api/system-settings', { aiInstructions: '', hourlyRate: '40', companyProfile: PROFILE });
    const res = await analyze(client, { description: 'oak, 16 inch trunk, 40 ft tall' });
    const { analysis } = analyzeResponseSchema.parse(await res.json());

    const query = new URLSearchParams({ customerName: '  Mrs   J. Smith ', siteAddress: '12 Acacia Avenue\nHebden Bridge\nHX7 8AB' });
    const pdf = await client.get(`/api/analysis/${analysis.id}/report.pdf?${query}`);
    expect(pdf.status).toBe(200);
    const quote = await pdfText(pdf);
    expect(quote.totalPages).toBe(1);
    expect(quote.text).toContain('Prepared for Mrs J. Smith');
    expect(quote.text).toContain('Site address 12 Acacia Avenue, Hebden Bridge, HX7 8AB');

    // The internal copy carries the same header.
    const internal = await pdfText(await client.get(`/api/analysis/${analysis.id}/report.pdf?copy=internal&${query}`));
    expect(internal.text).toContain('Prepared for Mrs J. Smith');

    const blank = await pdfText(await client.get(`/api/analysis/${analysis.id}/report.pdf?customerName=%20&siteAddress=`));
    expect(blank.text).not.toContain('Prepared for');
    expect(blank.text).not.toContain('Site address');

    // A dashboard analysis has no lead: the fields start empty.
    const recipient = await client.get(`/api/analysis/${analysis.id}/quote-recipient`);
    expect(quoteRecipientResponseSchema.parse(await recipient.json())).toEqual({ customerName: null, siteAddress: null });
  });

  it("brands a website lead's quote with the business it came through and starts the fields with the lead's name", async () => {
    const { client, account } = await registerClient(server);
    grantTo(server, account.username, 10);
    await client.request('PATCH', '/api/system-settings', { aiInstructions: '', hourlyRate: '40', companyProfile: PROFILE });
    const business = await createBusinessFor(client, { name: 'Birch Brothers Arboriculture' });
    const visited = await visitorAnalyze(server, business.slug, {}, { origin: 'https://birch-brothers.example' });
    expect(visited.status, await visited.clone().text()).toBe(201);
    const { analysis, leadToken } = (await visited.json()) as { analysis: { id: number }; leadToken: string };
    const lead = await visitorLead(server, business.slug, { analysisId: analysis.id, leadToken, name: 'Sam Visitor', email: 'sam@example.com' });
    expect(lead.status).toBe(201);

    const recipient = await client.get(`/api/analysis/${analysis.id}/quote-recipient`);
    expect(recipient.status).toBe(200);
    expect(quoteRecipientResponseSchema.parse(await recipient.json())).toEqual({ customerName: 'Sam Visitor', siteAddress: null });

    const quote = await pdfText(await client.get(`/api/analysis/${analysis.id}/report.pdf?customerName=Sam%20Visitor`));
    expect(quote.text).toContain('Birch Brothers Arboriculture A trading name of Oak & Ash Tree Care Ltd');
    expect(quote.text).toContain('Tel 01632 960 123');
    expect(quote.text).toContain('To accept this quote, contact Birch Brothers Arboriculture on 01632 960 123');
    expect(quote.text).toContain('Prepared for Sam Visitor');
  });
});

async function pdfText(res: Response) {
  const { totalPages, text } = await extractText(await getDocumentProxy(new Uint8Array(await res.arrayBuffer())), { mergePages: true });
  return { totalPages, text: text.replace(/\s+/g, ' ') };
}
