import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QUICKBOOKS_COLUMNS, XERO_COLUMNS } from '../../core/invoice-export';
import type { Invoice } from '../../core/invoices';
import { invoiceOf } from '../../testing/invoices';
import { mailSettled } from '../../testing/mail';
import { startTestServer, type TestClient, type TestServer } from '../../testing/harness';
import { acceptQuote, ownerWithProfile, sentLinesJob } from '../../testing/quote-links';

/*
 * The accountant's exports parsed back (docs/product.md, Getting paid): Xero's and QuickBooks
 * Online's invoice import files hold every invoice and credit note of the period, their totals
 * to the penny, and no cell a spreadsheet would run.
 */
let server: TestServer;
let owner: TestClient;
const RULES = { crewSize: 2, minimumCharge: '0', travel: '0', wastePerTonne: '0', stumpGrinding: '0', accessPlatform: '0', trafficManagement: '0' };
const invoices: Invoice[] = [];


beforeAll(async () => {
  server = await startTestServer();
  owner = (
    await ownerWithProfile(server, { tradingName: 'Oak & Ash', phone: '01242 555010', email: 'office@oakash.example', address: '2 Mill Lane, Cheltenham', vatNumber: 'GB123456789', quoteValidityDays: 30 })
  ).client;
  await owner.request('PATCH', '/api/system-settings', { pricing: { ...RULES, vatMode: 'inc' }, salesAccountCode: '4000' });
  // A deposit and a final invoice of one job; a customer whose name would be a formula.
  const { job, token } = await sentLinesJob(server, owner, { name: 'Alex Customer', email: 'alex@example.com' }, [
    { description: 'Fell the ash', price: '599.99' },
    { description: '=HYPERLINK("http://evil.example","Grind the stump")', price: '100' },
  ]);
  expect((await acceptQuote(server, token)).status).toBe(200);
  const deposit = await invoiceOf(await owner.post(`/api/jobs/${job.id}/invoices`, { kind: 'deposit', percent: 10 }), 201);
  invoices.push(await invoiceOf(await owner.post(`/api/invoices/${deposit.id}/issue`)));
  const final = await invoiceOf(await owner.post(`/api/jobs/${job.id}/invoices`, { kind: 'final' }), 201);
  invoices.push(await invoiceOf(await owner.post(`/api/invoices/${final.id}/issue`)));
  const second = await sentLinesJob(server, owner, { name: '@Robin Formula', email: 'robin@example.com' }, [{ description: 'Crown lift', price: '240' }]);
  expect((await acceptQuote(server, second.token)).status).toBe(200);
  const other = await invoiceOf(await owner.post(`/api/jobs/${second.job.id}/invoices`, { kind: 'final' }), 201);
  invoices.push(await invoiceOf(await owner.post(`/api/invoices/${other.id}/issue`)));
  invoices[2] = await invoiceOf(await owner.post(`/api/invoices/${other.id}/credit-notes`, { amount: '60', reason: '+ one branch left' }), 201);
});
// The e-mails its payments, refunds and credit notes send (their PDFs made in the background) finish before the server goes.
afterAll(async () => {
  await mailSettled(server);
  await server.close();
});

async function exported(format: string, from = '2026-06-01', to = '2026-06-30'): Promise<Record<string, string>[]> {
  const res = await owner.get(`/api/invoices/export.csv?format=${format}&from=${from}&to=${to}`);
  expect(res.status, await res.clone().text()).toBe(200);
  expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
  return parse(await res.text(), { columns: true, skip_empty_lines: true }) as Record<string, string>[];
}

const pence = (text: string) => Math.round(Number(text) * 100);

describe('the accountant’s exports', () => {
  it('Xero: one row per line, the number on each, DD/MM/YYYY, the sales account and VAT type, totals to the penny', async () => {
    const rows = await exported('xero');
    expect(Object.keys(rows[0]!)).toEqual([...XERO_COLUMNS]);
    for (const invoice of invoices) {
      const mine = rows.filter((r) => r['*InvoiceNumber'] === invoice.number);
      expect(mine).toHaveLength(invoice.lines.length);
      const net = mine.reduce((sum, r) => sum + pence(r['*UnitAmount']!) * Number(r['*Quantity']), 0);
      const vat = mine.reduce((sum, r) => sum + pence(r.TaxAmount!), 0);
      expect({ net, vat }).toEqual({ net: pence(invoice.totals.net), vat: pence(invoice.totals.vat) });
      expect(mine.every((r) => r['*InvoiceDate'] === '01/06/2026' && r['*AccountCode'] === '4000' && r['*TaxType'] === '20% (VAT on Income)')).toBe(true);
    }
    const credit = rows.filter((r) => r['*InvoiceNumber'] === 'CN-0001');
    expect(credit).toHaveLength(1);
    expect(credit[0]).toMatchObject({ '*Quantity': '-1', '*UnitAmount': '50.00', TaxAmount: '-10.00', Reference: `Credit for ${invoices[2]!.number}` });
  });

  it('QuickBooks Online: invoice number, customer, dates, item amount and tax code; the credit note negative', async () => {
    const rows = await exported('quickbooks');
    expect(Object.keys(rows[0]!)).toEqual([...QUICKBOOKS_COLUMNS]);
    for (const invoice of invoices) {
      const mine = rows.filter((r) => r.InvoiceNo === invoice.number);
      expect(mine.reduce((sum, r) => sum + pence(r.ItemAmount!) + pence(r.ItemTaxAmount!), 0)).toBe(pence(invoice.totals.gross));
      expect(mine.every((r) => r.ItemTaxCode === '20.0% S' && /^\d{2}\/\d{2}\/\d{4}$/.test(r.DueDate ?? ''))).toBe(true);
    }
    const credit = rows.filter((r) => r.InvoiceNo === 'CN-0001');
    expect(pence(credit[0]!.ItemAmount!) + pence(credit[0]!.ItemTaxAmount!)).toBe(-6000);
  });

  it('no typed cell starts with a formula character; the amounts stay numbers', async () => {
    for (const format of ['xero', 'quickbooks']) {
      const rows = await exported(format);
      const text = rows.flatMap((r) => [r['*ContactName'], r['*Description'], r.Customer, r.ItemDescription]).filter((v): v is string => v !== undefined);
      expect(text.some((cell) => cell.startsWith("'=HYPERLINK"))).toBe(true);
      expect(text.some((cell) => cell === "'@Robin Formula")).toBe(true);
      expect(text.every((cell) => !/^[=+\-@\t\r]/.test(cell))).toBe(true);
    }
    const rows = await exported('xero');
    expect(rows.find((r) => r['*Description']?.startsWith("'+ one branch") || r['*Description']?.startsWith('Credit: + one branch'))).toBeDefined();
  });

  it('only the period asked; a bad format or period is a 400; nothing from another account', async () => {
    expect(await exported('xero', '2026-07-01', '2026-07-31')).toEqual([]);
    for (const query of ['format=sage&from=2026-06-01&to=2026-06-30', 'format=xero&from=2026-06-31&to=2026-07-01', 'format=xero&from=2026-07-01&to=2026-06-01', 'format=xero']) {
      expect((await owner.get(`/api/invoices/export.csv?${query}`)).status, query).toBe(400);
    }
    const { client: stranger } = await ownerWithProfile(server);
    const res = await stranger.get('/api/invoices/export.csv?format=xero&from=2026-06-01&to=2026-06-30');
    expect(parse(await res.text(), { columns: true })).toEqual([]);
  });
});
