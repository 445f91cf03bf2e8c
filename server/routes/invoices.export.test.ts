import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QUICKBOOKS_COLUMNS, QUICKBOOKS_CREDIT_NOTE_COLUMNS, XERO_COLUMNS } from '../../core/invoice-export';
import type { Invoice } from '../../core/invoices';
import { invoiceOf } from '../../testing/invoices';
import { mailSettled } from '../../testing/mail';
import { startTestServer, type TestClient, type TestServer } from '../../testing/harness';
import { acceptQuote, ownerWithProfile, sentLinesJob } from '../../testing/quote-links';

/*
 * The accountant's exports parsed back (docs/product.md, Getting paid; docs/payments.md, The
 * accountant's files): Xero's sales invoice import holds every invoice and credit note of the
 * period (a credit note as Xero takes one: a negative total), QuickBooks Online's invoice import
 * its invoices and its credit note import the credit notes, every template column in the
 * template's order, totals to the penny, and no cell a spreadsheet would run.
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
  const { job, token } = await sentLinesJob(server, owner, { name: 'Alex Customer', email: 'alex@example.com', siteAddress: 'Flat 2, 14 Mill Lane, Cheltenham GL50 1QA' }, [
    { description: 'Fell the ash', price: '599.99' },
    { description: '=HYPERLINK("http://evil.example","Grind the stump")', price: '100' },
  ]);
  expect((await acceptQuote(server, token)).status).toBe(200);
  const deposit = await invoiceOf(await owner.post(`/api/jobs/${job.id}/invoices`, { kind: 'deposit', percent: 10 }), 201);
  invoices.push(await invoiceOf(await owner.post(`/api/invoices/${deposit.id}/issue`)));
  const final = await invoiceOf(await owner.post(`/api/jobs/${job.id}/invoices`, { kind: 'final' }), 201);
  invoices.push(await invoiceOf(await owner.post(`/api/invoices/${final.id}/issue`)));
  const second = await sentLinesJob(server, owner, { name: '@Robin Formula', email: 'robin@example.com', siteAddress: '=1+1, Leeds LS6 2AB' }, [{ description: 'Crown lift', price: '240' }]);
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

async function exportedText(format: string, from = '2026-06-01', to = '2026-06-30'): Promise<string> {
  const res = await owner.get(`/api/invoices/export.csv?format=${format}&from=${from}&to=${to}`);
  expect(res.status, await res.clone().text()).toBe(200);
  expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
  return res.text();
}

async function exported(format: string, from = '2026-06-01', to = '2026-06-30'): Promise<Record<string, string>[]> {
  return parse(await exportedText(format, from, to), { columns: true, skip_empty_lines: true }) as Record<string, string>[];
}

/** The header row as written, in its order. */
const headerOf = async (format: string) => (parse(await exportedText(format), { to: 1 }) as string[][])[0];

const pence = (text: string) => Math.round(Number(text) * 100);

describe('the accountant’s exports', () => {
  it('every template column, in the template’s order, in each file', async () => {
    expect(await headerOf('xero')).toEqual([...XERO_COLUMNS]);
    expect(await headerOf('quickbooks')).toEqual([...QUICKBOOKS_COLUMNS]);
    expect(await headerOf('quickbooks-credit-notes')).toEqual([...QUICKBOOKS_CREDIT_NOTE_COLUMNS]);
    // Xero's sales invoice template as it downloads (SalesInvoiceTemplate.csv), addresses and all.
    expect((await headerOf('xero'))?.slice(0, 11)).toEqual([
      '*ContactName', 'EmailAddress', 'POAddressLine1', 'POAddressLine2', 'POAddressLine3', 'POAddressLine4', 'POCity', 'PORegion', 'POPostalCode', 'POCountry', '*InvoiceNumber',
    ]);
    expect(await headerOf('quickbooks')).toContain('Terms');
  });

  it('Xero: one row per line, the number on each, the address, DD/MM/YYYY, the sales account and VAT type, totals to the penny', async () => {
    const rows = await exported('xero');
    for (const invoice of invoices) {
      const mine = rows.filter((r) => r['*InvoiceNumber'] === invoice.number);
      expect(mine).toHaveLength(invoice.lines.length);
      const net = mine.reduce((sum, r) => sum + pence(r['*UnitAmount']!) * Number(r['*Quantity']), 0);
      const vat = mine.reduce((sum, r) => sum + pence(r.TaxAmount!), 0);
      expect({ net, vat }).toEqual({ net: pence(invoice.totals.net), vat: pence(invoice.totals.vat) });
      expect(mine.every((r) => r['*InvoiceDate'] === '01/06/2026' && r['*AccountCode'] === '4000' && r['*TaxType'] === '20% (VAT on Income)' && r.Currency === 'GBP')).toBe(true);
    }
    expect(rows.find((r) => r['*InvoiceNumber'] === invoices[0]!.number)).toMatchObject({
      POAddressLine1: 'Flat 2',
      POAddressLine2: '14 Mill Lane',
      POCity: 'Cheltenham',
      POPostalCode: 'GL50 1QA',
      EmailAddress: 'alex@example.com',
    });
  });

  it('Xero: a credit note in its own rows of the same file, as Xero takes one (negative quantity, the VAT credited), for the invoice it credits', async () => {
    const rows = await exported('xero');
    const credit = rows.filter((r) => r['*InvoiceNumber'] === 'CN-0001');
    expect(credit).toHaveLength(1);
    expect(credit[0]).toMatchObject({ '*ContactName': "'@Robin Formula", '*Quantity': '-1', '*UnitAmount': '50.00', TaxAmount: '-10.00', Reference: `Credit for ${invoices[2]!.number}`, '*TaxType': '20% (VAT on Income)' });
    // Its total is negative, which is what makes Xero's import a credit note: −£60.00 with the VAT.
    expect(pence(credit[0]!['*UnitAmount']!) * Number(credit[0]!['*Quantity']) + pence(credit[0]!.TaxAmount!)).toBe(-6000);
  });

  it('QuickBooks Online: the invoices with their terms, totals to the penny; no credit note written as a negative invoice', async () => {
    const rows = await exported('quickbooks');
    for (const invoice of invoices) {
      const mine = rows.filter((r) => r.InvoiceNo === invoice.number);
      expect(mine.reduce((sum, r) => sum + pence(r.ItemAmount!) + pence(r.ItemTaxAmount!), 0)).toBe(pence(invoice.totals.gross));
      expect(mine.every((r) => r.ItemTaxCode === '20.0% S' && r.Terms === 'Net 7' && /^\d{2}\/\d{2}\/\d{4}$/.test(r.DueDate ?? ''))).toBe(true);
    }
    expect(rows.filter((r) => r.InvoiceNo === 'CN-0001')).toEqual([]);
    // Each invoice's total is what it charged (a final invoice's deposit line is its only negative line).
    const numbers = [...new Set(rows.map((r) => r.InvoiceNo))];
    expect(numbers.sort()).toEqual(invoices.map((invoice) => invoice.number).sort());
    for (const number of numbers) expect(rows.filter((r) => r.InvoiceNo === number).reduce((sum, r) => sum + pence(r.ItemAmount!), 0)).toBeGreaterThan(0);
  });

  it('QuickBooks Online: the credit notes in a file of their own for its credit note import, amounts as credited', async () => {
    const rows = await exported('quickbooks-credit-notes');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ CreditNoteNo: 'CN-0001', Customer: "'@Robin Formula", CreditNoteDate: '01/06/2026', Memo: `Credit note for ${invoices[2]!.number}`, ItemTaxCode: '20.0% S' });
    expect(pence(rows[0]!.ItemAmount!) + pence(rows[0]!.ItemTaxAmount!)).toBe(6000);
    // What the files say was invoiced less credited is what the invoices say.
    const invoiced = (await exported('quickbooks')).reduce((sum, r) => sum + pence(r.ItemAmount!) + pence(r.ItemTaxAmount!), 0);
    const credited = rows.reduce((sum, r) => sum + pence(r.ItemAmount!) + pence(r.ItemTaxAmount!), 0);
    const xero = (await exported('xero')).reduce((sum, r) => sum + pence(r['*UnitAmount']!) * Number(r['*Quantity']) + pence(r.TaxAmount!), 0);
    const gross = invoices.reduce((sum, invoice) => sum + pence(invoice.totals.gross), 0);
    expect({ quickbooks: invoiced - credited, xero }).toEqual({ quickbooks: gross - 6000, xero: gross - 6000 });
  });

  it('no cell of any file starts with a formula character, but the product’s amounts, which stay numbers', async () => {
    const numbers = new Set(['*Quantity', '*UnitAmount', 'TaxAmount', 'ItemQuantity', 'ItemRate', 'ItemAmount', 'ItemTaxAmount']);
    for (const format of ['xero', 'quickbooks', 'quickbooks-credit-notes']) {
      const rows = await exported(format);
      const cells = rows.flatMap((r) => Object.entries(r).filter(([column]) => !numbers.has(column)).map(([, value]) => value));
      expect(cells.every((cell) => !/^[=+\-@\t\r]/.test(cell)), format).toBe(true);
      expect(rows.flatMap((r) => Object.entries(r).filter(([column]) => numbers.has(column)).map(([, value]) => value)).every((v) => /^-?\d+(\.\d{2})?$/.test(v)), format).toBe(true);
    }
    const xero = await exported('xero');
    expect(xero.some((r) => r['*Description'] === "'=HYPERLINK(\"http://evil.example\",\"Grind the stump\")")).toBe(true);
    expect(xero.filter((r) => r['*ContactName'] === "'@Robin Formula").map((r) => [r.POAddressLine1, r.POCity, r.POPostalCode])).toContainEqual(["'=1+1", 'Leeds', 'LS6 2AB']);
    expect((await exported('quickbooks')).some((r) => r.ItemDescription?.startsWith("'=HYPERLINK"))).toBe(true);
  });

  it('an attacker’s invoice prefix is refused: letters, digits and "-", never starting with "-"', async () => {
    for (const invoicePrefix of ['-2+3', '=cmd|', '@SUM', 'INV/', 'IN V']) {
      const res = await owner.request('PATCH', '/api/system-settings', { invoicePrefix });
      expect(res.status, invoicePrefix).toBe(400);
      expect(((await res.json()) as { message: string }).message).toMatch(/letters, digits and "-"/);
    }
    expect((await owner.request('PATCH', '/api/system-settings', { invoicePrefix: 'OAK-2026-' })).status).toBe(200);
    await owner.request('PATCH', '/api/system-settings', { invoicePrefix: 'INV-' });
  });

  it('only the period asked; a bad format is a 400; nothing from another account', async () => {
    expect(await exported('xero', '2026-07-01', '2026-07-31')).toEqual([]);
    for (const query of ['format=sage&from=2026-06-01&to=2026-06-30', 'format=xero&from=2026-07-01&to=2026-06-01', 'format=xero']) {
      expect((await owner.get(`/api/invoices/export.csv?${query}`)).status, query).toBe(400);
    }
    const { client: stranger } = await ownerWithProfile(server);
    const res = await stranger.get('/api/invoices/export.csv?format=xero&from=2026-06-01&to=2026-06-30');
    expect(parse(await res.text(), { columns: true })).toEqual([]);
  });

  it('malformed dates are a 400 with a sentence, never a 500', async () => {
    const bad = ['2026-13-01', '2026-02-30', '2026-06-31', '2026-00-10', 'garbage', '2026-6-1', '99999-01-01', '2026-06-01T00:00', '%00', ''];
    for (const day of bad) {
      for (const query of [`from=${encodeURIComponent(day)}&to=2026-06-30`, `from=2026-06-01&to=${encodeURIComponent(day)}`]) {
        const res = await owner.get(`/api/invoices/export.csv?format=xero&${query}`);
        expect(res.status, query).toBe(400);
        const body = (await res.json()) as { code: string; message: string };
        expect(body.code, query).toBe('VALIDATION_ERROR');
        expect(body.message, query).toMatch(/^(Dates are YYYY-MM-DD|That date does not exist)/);
      }
    }
  });
});
