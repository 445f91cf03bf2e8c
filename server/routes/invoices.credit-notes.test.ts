import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invoiceSummaryResponseSchema } from '../../core/invoice-summary';
import { publicInvoiceResponseSchema, type Invoice } from '../../core/invoices';
import { ukToday } from '../../core/job-booking';
import { formatDay } from '../invoices/invoice-pdf';
import { invoiceOf } from '../../testing/invoices';
import { registerClient, startTestServer, type TestClient, type TestServer } from '../../testing/harness';
import { addressedTo, mailSettled, outboxMessages } from '../../testing/mail';
import { acceptQuote, ownerWithProfile, sentLinesJob } from '../../testing/quote-links';

/*
 * Figures that add up and credit notes as documents (docs/product.md, Getting paid: refunds and
 * credit notes), over HTTP on the real app: the month's "Paid" is money in less money refunded;
 * the customer's page reads down paid, refunded, credited, owed with every payment, refund and
 * credit note dated; each credit note has a PDF (the owner's, and the customer's under their
 * link) and goes to the customer by e-mail, as a refund does with what went back.
 */
let server: TestServer;
let owner: TestClient;
const RULES = { crewSize: 2, minimumCharge: '0', travel: '0', wastePerTonne: '0', stumpGrinding: '0', accessPlatform: '0', trafficManagement: '0' };
const BANK = { accountName: 'Oak & Ash Tree Care Ltd', sortCode: '20-00-00', accountNumber: '55779911' };
const PROFILE = { tradingName: 'Oak & Ash Tree Care', phone: '01242 555010', email: 'office@oakash.example', address: '2 Mill Lane\nCheltenham GL52 3AA', vatNumber: 'GB123456789', quoteValidityDays: 30 };

beforeAll(async () => {
  server = await startTestServer();
  owner = (await ownerWithProfile(server, PROFILE)).client;
  expect((await owner.request('PATCH', '/api/system-settings', { pricing: { ...RULES, vatMode: 'inc' }, bankDetails: BANK })).status).toBe(200);
});
afterAll(async () => {
  // The credit notes' and refunds' e-mails (their PDFs made in the background) finish before the server goes.
  await mailSettled(server);
  await server.close();
});

let customers = 0;
/** An issued final invoice of `price` (with VAT) sent to a new customer; its link's token from the e-mail. */
async function sentInvoice(price: string): Promise<{ invoice: Invoice; token: string; email: string }> {
  customers += 1;
  const email = `cn${customers}@example.com`;
  const { job, token: quoteToken } = await sentLinesJob(server, owner, { name: 'Zoë Ó Briain', email, siteAddress: '11 Montpellier Walk\nCheltenham GL50 1QA' }, [
    { description: 'Crown reduce the copper beech', price },
  ]);
  expect((await acceptQuote(server, quoteToken)).status).toBe(200);
  const draft = await invoiceOf(await owner.post(`/api/jobs/${job.id}/invoices`, { kind: 'final' }), 201);
  const invoice = await invoiceOf(await owner.post(`/api/invoices/${draft.id}/issue`));
  await invoiceOf(await owner.post(`/api/invoices/${invoice.id}/send`, {}));
  await mailSettled(server);
  const token = mailsTo(email)
    .map((m) => /\/invoice\/([A-Za-z0-9_-]{43})/.exec(m.text)?.[1])
    .find(Boolean);
  if (!token) throw new Error('no invoice link');
  return { invoice, token, email };
}

const mailsTo = (email: string) => outboxMessages(server.dataDir).filter((m) => addressedTo(m.text, email));

async function pdfText(res: Response): Promise<string> {
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/pdf');
  const { text } = await extractText(await getDocumentProxy(new Uint8Array(await res.arrayBuffer())), { mergePages: true });
  return text.replace(/\s+/g, ' ');
}

const pay = async (invoice: Invoice, amount: string) =>
  invoiceOf(await owner.post(`/api/invoices/${invoice.id}/payments`, { amount, paidOn: invoice.issuedOn, method: 'bank_transfer' }), 201);
const summary = async () => invoiceSummaryResponseSchema.parse(await (await owner.get('/api/invoices/summary')).json()).summary;

describe('the month’s figures', () => {
  it('"Paid" this month is the money in less the money refunded: £1,164 in and £50 back reads £1,114', async () => {
    const before = await summary();
    const { invoice } = await sentInvoice('1164');
    await pay(invoice, '500');
    const paid = await pay(invoice, '664');
    const second = paid.payments.find((p) => p.amount === '664.00')!;
    const refunded = await invoiceOf(await owner.post(`/api/invoices/${invoice.id}/payments/${second.id}/refund`, { amount: '50', reason: 'Stump left in' }));
    expect(refunded).toMatchObject({ paid: '1114.00', credited: '50.00', owed: '0.00' });
    const after = await summary();
    const moved = (field: 'invoiced' | 'paid') => Math.round((Number(after.thisMonth[field]) - Number(before.thisMonth[field])) * 100);
    expect(moved('paid')).toBe(111_400);
    // The refund's credit note lowers "Invoiced" once, and "Paid" once: both sides moved by the same £1,114.
    expect(moved('invoiced')).toBe(111_400);
    expect(after.owed).toBe(before.owed);
  });
});

describe('the customer’s invoice page', () => {
  it('lists each payment, refund and credit note with its day, and the sums read down to what is owed', async () => {
    const { invoice, token } = await sentInvoice('480');
    await invoiceOf(await owner.post(`/api/invoices/${invoice.id}/credit-notes`, { amount: '60', reason: 'Hedge not cut after all' }), 201);
    const paid = await pay(invoice, '300');
    server.clock.advance(24 * 3600_000);
    const after = await invoiceOf(await owner.post(`/api/invoices/${invoice.id}/payments/${paid.payments[0]!.id}/refund`, { amount: '50', reason: 'Logs left on site' }));
    expect(after).toMatchObject({ paid: '250.00', credited: '110.00', owed: '120.00' });

    const [credit, refundNote] = after.creditNotes;
    const [first, second] = [invoice.issuedOn!, ukToday(server.clock.now())];
    expect(second > first).toBe(true);

    const copy = publicInvoiceResponseSchema.parse(await (await fetch(`${server.url}/api/invoice-links/${token}`)).json()).invoice;
    expect(copy).toMatchObject({ paid: '300.00', refunded: '50.00', credited: '110.00', owed: '120.00' });
    expect(copy.refunds).toEqual([{ amount: '50.00', refundedOn: second, creditNoteNumber: refundNote!.number }]);
    expect(copy.creditNotes.map(({ number, issuedOn, gross }) => ({ number, issuedOn, gross }))).toEqual([
      { number: credit!.number, issuedOn: first, gross: '60.00' },
      { number: refundNote!.number, issuedOn: second, gross: '50.00' },
    ]);

    const page = await (await fetch(`${server.url}/invoice/${token}`)).text();
    const totals = [...page.matchAll(/<div(?: class="strong")?><dt>([^<]+)<\/dt><dd>([^<]+)<\/dd><\/div>/g)].map((m) => `${m[1]} ${m[2]}`);
    expect(totals).toEqual(['Total without VAT £400.00', 'VAT at 20% £80.00', 'Total with VAT £480.00', 'Credited -£110.00', 'Paid -£300.00', 'Refunded to you +£50.00', 'To pay £120.00']);
    const history = [...page.matchAll(/<li class="item"><div class="line"><p>([^<]+)<\/p><p class="price">([^<]+)<\/p>/g)].map((m) => `${m[1]} ${m[2]}`).slice(1);
    expect(history).toEqual([
      `${formatDay(first)}: Payment received £300.00`,
      `${formatDay(first)}: Credit note ${credit!.number} £60.00`,
      `${formatDay(second)}: Refunded to you £50.00`,
      `${formatDay(second)}: Credit note ${refundNote!.number} £50.00`,
    ]);
    expect(page).toContain('<h2 id="paid">Payments, refunds and credit notes</h2>');
    expect(page).toContain('Hedge not cut after all');
    expect(page).toContain(`With credit note ${refundNote!.number}.`);

    // Each credit note's PDF under the customer's link; one of another invoice is not found there.
    for (const note of copy.creditNotes) {
      const href = `/invoice/${token}/credit-notes/${note.id}/credit-note.pdf`;
      expect(page).toContain(`href="${href}"`);
      const res = await fetch(`${server.url}${href}`);
      expect(res.headers.get('content-disposition')).toBe(`attachment; filename="credit-note-${note.number}.pdf"`);
      expect(await pdfText(res)).toContain(`Credit note no. ${note.number}`);
      const viaApi = await fetch(`${server.url}/api/invoice-links/${token}/credit-notes/${note.id}/credit-note.pdf`);
      expect(viaApi.headers.get('cache-control')).toBe('private, no-store');
      expect(await pdfText(viaApi)).toContain(invoice.number!);
    }
    const other = await sentInvoice('90');
    const theirs = await invoiceOf(await owner.post(`/api/invoices/${other.invoice.id}/credit-notes`, { reason: 'Not done' }), 201);
    for (const id of [String(theirs.creditNotes[0]!.id), '0', '99999999999999999999']) {
      expect((await fetch(`${server.url}/invoice/${token}/credit-notes/${id}/credit-note.pdf`)).status, id).toBe(404);
      expect((await fetch(`${server.url}/api/invoice-links/${token}/credit-notes/${id}/credit-note.pdf`)).status, id).toBe(404);
    }
    expect((await fetch(`${server.url}/invoice/${'A'.repeat(43)}/credit-notes/${copy.creditNotes[0]!.id}/credit-note.pdf`)).status).toBe(404);
  });
});

describe('a credit note’s PDF', () => {
  it('carries its number and date, the invoice it credits, the reason, the net, the VAT rate and VAT, the total, and the supplier’s VAT details', async () => {
    const { invoice } = await sentInvoice('600');
    const credited = await invoiceOf(await owner.post(`/api/invoices/${invoice.id}/credit-notes`, { amount: '120', reason: 'Second stump not ground' }), 201);
    const note = credited.creditNotes[0]!;
    const res = await owner.get(`/api/invoices/${invoice.id}/credit-notes/${note.id}/credit-note.pdf`);
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="credit-note-${note.number}.pdf"`);
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    const text = await pdfText(res);
    for (const field of [
      'Credit note',
      `Credit note no. ${note.number}`,
      `Date of issue ${formatDay(note.issuedOn)}`,
      `Credits invoice ${invoice.number}`,
      `Invoice dated ${formatDay(invoice.issuedOn!)}`,
      'Oak & Ash Tree Care',
      '2 Mill Lane, Cheltenham GL52 3AA',
      'VAT registration no. GB 123 4567 89',
      'Zoë Ó Briain',
      '11 Montpellier Walk',
      'Second stump not ground',
      // £120 with VAT at 20%: £100 net and £20 VAT.
      'Credited without VAT £100.00',
      'VAT credited at 20% £20.00',
      'Total credited £120.00',
      `takes £120.00 off VAT invoice ${invoice.number}`,
    ]) {
      expect(text, field).toContain(field);
    }
    // The invoice's own PDF names the credit note with the VAT it credits.
    expect(await pdfText(await owner.get(`/api/invoices/${invoice.id}/invoice.pdf`))).toContain(`credit note ${note.number} for £120.00 (£100.00 and VAT £20.00)`);
  });

  it('is the owner’s alone: another account’s is a 404, signed out a 401, another invoice’s credit note a 404', async () => {
    const { invoice } = await sentInvoice('200');
    const note = (await invoiceOf(await owner.post(`/api/invoices/${invoice.id}/credit-notes`, { reason: 'Cancelled' }), 201)).creditNotes[0]!;
    const path = `/api/invoices/${invoice.id}/credit-notes/${note.id}/credit-note.pdf`;
    expect((await owner.get(path)).status).toBe(200);
    const stranger = (await registerClient(server)).client;
    const refused = await stranger.get(path);
    expect(refused.status).toBe(404);
    expect(await refused.text()).not.toContain('PDF');
    expect((await fetch(`${server.url}${path}`)).status).toBe(401);
    const other = await sentInvoice('90');
    expect((await owner.get(`/api/invoices/${other.invoice.id}/credit-notes/${note.id}/credit-note.pdf`)).status).toBe(404);
    expect((await owner.get(`/api/invoices/${invoice.id}/credit-notes/${'9'.repeat(30)}/credit-note.pdf`)).status).toBe(404);
  });

  it('a business that charges no VAT prints none on its credit note', async () => {
    const plain = (await ownerWithProfile(server, { ...PROFILE, tradingName: 'Birch Brothers', vatNumber: '' })).client;
    expect((await plain.request('PATCH', '/api/system-settings', { pricing: { ...RULES, vatMode: 'none' } })).status).toBe(200);
    const { job, token } = await sentLinesJob(server, plain, { name: 'Sam Plain', email: 'sam.plain@example.com' }, [{ description: 'Fell the sycamore', price: '300' }]);
    expect((await acceptQuote(server, token)).status).toBe(200);
    const draft = await invoiceOf(await plain.post(`/api/jobs/${job.id}/invoices`, { kind: 'final' }), 201);
    const invoice = await invoiceOf(await plain.post(`/api/invoices/${draft.id}/issue`));
    const note = (await invoiceOf(await plain.post(`/api/invoices/${invoice.id}/credit-notes`, { amount: '40', reason: 'Brash left' }), 201)).creditNotes[0]!;
    const text = await pdfText(await plain.get(`/api/invoices/${invoice.id}/credit-notes/${note.id}/credit-note.pdf`));
    expect(text).toContain('Total credited £40.00');
    expect(text).not.toMatch(/VAT/);
  });
});

describe('what the customer is sent', () => {
  it('a credit note is e-mailed with its PDF; a refund says what went back and where, with its credit note', async () => {
    const { invoice, email } = await sentInvoice('360');
    const before = mailsTo(email).length;
    await invoiceOf(await owner.post(`/api/invoices/${invoice.id}/credit-notes`, { amount: '60', reason: 'Hedge not cut after all.' }), 201);
    await mailSettled(server);
    const [creditMail] = mailsTo(email).slice(before);
    expect(creditMail!.text).toContain(`has issued credit note CN-`);
    expect(creditMail!.text).toContain(`for £60.00 against VAT invoice ${invoice.number}. Reason: Hedge not cut after all.`);
    expect(creditMail!.text).toContain('£300.00 is still to pay');
    expect(creditMail!.raw).toMatch(/filename=credit-note-CN-\d{4}\.pdf/);
    expect(creditMail!.text).toMatch(/\/invoice\/[A-Za-z0-9_-]{43}/);

    const paid = await pay(invoice, '300');
    await invoiceOf(await owner.post(`/api/invoices/${invoice.id}/payments/${paid.payments[0]!.id}/refund`, { amount: '25', reason: 'Logs left on site' }));
    await mailSettled(server);
    const refundMail = mailsTo(email).find((m) => m.text.includes('has refunded £25.00'));
    expect(refundMail!.text).toContain(`has refunded £25.00 to you, for VAT invoice ${invoice.number}. Reason: Logs left on site.`);
    expect(refundMail!.text).toContain('Nothing is owed on');
    expect(refundMail!.raw).toMatch(/filename=credit-note-CN-\d{4}\.pdf/);
  });
});
