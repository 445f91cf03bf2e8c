import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Invoice } from '../../core/invoices';
import { invoiceOf } from '../../testing/invoices';
import { startTestServer, type TestClient, type TestServer } from '../../testing/harness';
import { acceptQuote, ownerWithProfile, sentLinesJob } from '../../testing/quote-links';

/*
 * The invoice PDF read back as text (docs/product.md, Getting paid): a VAT-registered surgeon's
 * carries every field HMRC VAT Notice 700/21 lists; a surgeon who is not registered prints no VAT
 * at all; both say how to pay, with the invoice number as the reference.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const RULES = { crewSize: 2, minimumCharge: '0', travel: '0', wastePerTonne: '0', stumpGrinding: '0', accessPlatform: '0', trafficManagement: '0' };
const BANK = { accountName: 'Oak & Ash Tree Care Ltd', sortCode: '20-00-00', accountNumber: '55779911' };


async function issuedFinal(owner: TestClient, email: string): Promise<Invoice> {
  const { job, token } = await sentLinesJob(server, owner, { name: 'Zoë Ó Briain', email, siteAddress: '11 Montpellier Walk\nCheltenham GL50 1QA' }, [
    { description: 'Fell the leaning ash in sections', price: '600' },
  ]);
  expect((await acceptQuote(server, token)).status).toBe(200);
  const draft = await invoiceOf(
    await owner.post(`/api/jobs/${job.id}/invoices`, { kind: 'final', lines: [{ description: 'Second stump ground', price: '60', note: 'Agreed on the day' }] }),
    201,
  );
  return invoiceOf(await owner.post(`/api/invoices/${draft.id}/issue`));
}

async function pdfText(owner: TestClient, invoice: Invoice): Promise<string> {
  const res = await owner.get(`/api/invoices/${invoice.id}/invoice.pdf`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/pdf');
  expect(res.headers.get('content-disposition')).toBe(`attachment; filename="invoice-${invoice.number}.pdf"`);
  const { text } = await extractText(await getDocumentProxy(new Uint8Array(await res.arrayBuffer())), { mergePages: true });
  return text.replace(/\s+/g, ' ');
}

describe('the invoice PDF', () => {
  it('a VAT-registered surgeon’s carries what HMRC lists: number, dates, tax point, both parties, each line, the rate and the totals', async () => {
    const { client: owner } = await ownerWithProfile(server, {
      tradingName: 'Oak & Ash Tree Care',
      phone: '01242 555010',
      email: 'office@oakash.example',
      address: '2 Mill Lane\nCheltenham GL52 3AA',
      vatNumber: 'GB123456789',
      quoteValidityDays: 30,
    });
    await owner.request('PATCH', '/api/system-settings', { pricing: { ...RULES, vatMode: 'inc' }, bankDetails: BANK });
    const invoice = await issuedFinal(owner, 'zoe@example.com');
    const text = await pdfText(owner, invoice);
    for (const field of [
      'VAT invoice',
      'INV-0001',
      'Issue date 1 June 2026',
      'Tax point 1 June 2026',
      'Due 8 June 2026',
      'Oak & Ash Tree Care',
      '2 Mill Lane, Cheltenham GL52 3AA',
      'VAT registration no. GB 123 4567 89',
      'Zoë Ó Briain',
      '11 Montpellier Walk',
      'Cheltenham GL50 1QA',
      'Fell the leaning ash in sections',
      'Second stump ground',
      'Agreed on the day',
      // Quantity 1, the unit price and net £500.00, VAT £100.00, £600.00 with VAT.
      '1 £500.00 £500.00 £100.00 £600.00',
      'VAT 20%',
      'Total without VAT £550.00',
      'VAT at 20% £110.00',
      'Total with VAT £660.00',
      'Sort code: 20-00-00',
      'Account number: 55779911',
      `Reference: ${invoice.number}`,
    ]) {
      expect(text, field).toContain(field);
    }
  });

  it('a surgeon who is not VAT registered prints no VAT anywhere, and the amount due', async () => {
    const { client: owner } = await ownerWithProfile(server, {
      tradingName: 'Birch Brothers',
      phone: '01632 960000',
      email: 'office@birch.example',
      address: '1 Yard Lane\nLeeds',
      vatNumber: '',
      quoteValidityDays: 30,
    });
    await owner.request('PATCH', '/api/system-settings', { pricing: { ...RULES, vatMode: 'none' }, bankDetails: BANK });
    const invoice = await issuedFinal(owner, 'zoe2@example.com');
    await owner.post(`/api/invoices/${invoice.id}/payments`, { amount: '100', paidOn: '2026-06-01', method: 'bank_transfer', reference: 'ZOE' });
    const text = await pdfText(owner, invoice);
    expect(text).toContain('Invoice INV-0001');
    expect(text).toContain('Total £660.00');
    expect(text).toContain('Paid -£100.00');
    expect(text).toContain('Amount due £560.00');
    expect(text).toContain('£100.00 received by bank transfer (ZOE)');
    expect(text).not.toMatch(/VAT/i);
  });

  it('a draft has no PDF yet (409), and another account’s is a 404', async () => {
    const { client: owner } = await ownerWithProfile(server);
    const { job, token } = await sentLinesJob(server, owner, { name: 'Sam', email: 'sam@example.com' }, [{ description: 'Fell', price: '100' }]);
    expect((await acceptQuote(server, token)).status).toBe(200);
    const draft = await invoiceOf(await owner.post(`/api/jobs/${job.id}/invoices`, { kind: 'final' }), 201);
    expect((await owner.get(`/api/invoices/${draft.id}/invoice.pdf`)).status).toBe(409);
    const { client: stranger } = await ownerWithProfile(server);
    expect((await stranger.get(`/api/invoices/${draft.id}/invoice.pdf`)).status).toBe(404);
  });
});
