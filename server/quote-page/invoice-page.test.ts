import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INVOICE_LINK_MESSAGES, type Invoice } from '../../core/invoices';
import { invoiceOf } from '../../testing/invoices';
import { startTestServer, type TestClient, type TestServer } from '../../testing/harness';
import { addressedTo, mailSettled, outboxMessages } from '../../testing/mail';
import { acceptQuote, ownerWithProfile, sentLinesJob } from '../../testing/quote-links';
import { BROWSER_NAVIGATION, navigate } from '../../testing/navigate';

/*
 * The customer's invoice page over HTTP (docs/product.md, Getting paid): what is owed and how to
 * pay in plain HTML (no JavaScript needed), the quote page's headers and policy, small, and the
 * plain refusals for a link that opens nothing.
 */
let server: TestServer;
let owner: TestClient;
const CUSTOMER = 'jo.page@example.com';
const BANK = { accountName: 'Birch Brothers Ltd', sortCode: '40-11-62', accountNumber: '71234567' };

beforeAll(async () => {
  server = await startTestServer();
  owner = (await ownerWithProfile(server)).client;
  expect((await owner.request('PATCH', '/api/system-settings', { bankDetails: BANK })).status).toBe(200);
});
afterAll(() => server.close());


/** Every message in the outbox, decoded, oldest first. */
const outbox = (): string[] => outboxMessages(server.dataDir).map((message) => message.text);

/** An issued invoice sent to the customer; the link's token from the e-mail. */
async function sentInvoice(): Promise<{ invoice: Invoice; token: string; quoteToken: string }> {
  const { job, token: quoteToken } = await sentLinesJob(server, owner, { name: 'Jo <Page>', email: CUSTOMER, siteAddress: '3 Elm Road\nBath BA1 1AA' }, [
    { description: 'Fell the <b>ash</b> & grind', price: '480' },
  ]);
  expect((await acceptQuote(server, quoteToken)).status).toBe(200);
  const draft = await invoiceOf(await owner.post(`/api/jobs/${job.id}/invoices`, { kind: 'final' }), 201);
  const invoice = await invoiceOf(await owner.post(`/api/invoices/${draft.id}/issue`));
  const before = outbox().length;
  await invoiceOf(await owner.post(`/api/invoices/${invoice.id}/send`, {}));
  await mailSettled(server);
  const mail = outbox()
    .slice(before)
    .find((m) => addressedTo(m, CUSTOMER) && m.includes(invoice.number!));
  const token = mail?.match(/\/invoice\/([A-Za-z0-9_-]{43})/)?.[1];
  if (!token) throw new Error('no invoice link');
  return { invoice, token, quoteToken };
}


describe('the invoice page', () => {
  it('says what is owed and how to pay, in plain HTML with the quote page’s headers, and counts a person’s open as a view', async () => {
    const { invoice, token } = await sentInvoice();
    // A mail scanner's fetch is not a view.
    expect((await fetch(`${server.url}/invoice/${token}`)).status).toBe(200);
    expect((await invoiceOf(await owner.get(`/api/invoices/${invoice.id}`))).status).toBe('issued');

    expect((await navigate(`${server.url}/invoice/${token}`, BROWSER_NAVIGATION)).status).toBe(200);
    const res = await fetch(`${server.url}/invoice/${token}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toMatch(/^default-src 'none'; img-src 'self'; style-src 'nonce-[A-Za-z0-9+/=]+'; script-src 'nonce-/);
    expect(res.headers.get('x-robots-tag')).toBe('noindex');
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    const page = await res.text();
    expect(page).toContain(`Invoice ${invoice.number}`);
    expect(page).toContain('<strong>£480.00</strong> is due by 8 June 2026.');
    for (const detail of ['Birch Brothers Ltd', '40-11-62', '71234567', invoice.number!]) expect(page).toContain(`<span>${detail}</span>`);
    // Typed text is escaped; nothing says VAT for a business that charges none.
    expect(page).toContain('Fell the &lt;b&gt;ash&lt;/b&gt; &amp; grind');
    expect(page).toContain('Jo &lt;Page&gt;');
    expect(page).not.toMatch(/VAT/);
    // The copy buttons appear only when the script runs; with JavaScript off the details are text.
    expect(page).toMatch(/<button type="button" class="copy secondary" data-copy="71234567" aria-label="Copy the account number" hidden>/);
    expect(page).toContain(`href="/invoice/${token}/invoice.pdf"`);
    expect(gzipSync(page).length).toBeLessThan(40 * 1024);
    expect((await invoiceOf(await owner.get(`/api/invoices/${invoice.id}`))).status).toBe('viewed');

    const pdf = await fetch(`${server.url}/invoice/${token}/invoice.pdf`);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-disposition')).toBe(`attachment; filename="invoice-${invoice.number}.pdf"`);
  });

  it('once paid it says so and asks for nothing', async () => {
    const { invoice, token } = await sentInvoice();
    await invoiceOf(await owner.post(`/api/invoices/${invoice.id}/payments`, { amount: '480', paidOn: invoice.issuedOn, method: 'bank_transfer' }), 201);
    const page = await (await fetch(`${server.url}/invoice/${token}`)).text();
    expect(page).toContain('Paid in full. Thank you.');
    expect(page).not.toContain('How to pay');
    expect(page).toContain('Payment received</p><p class="price">£480.00</p>');
  });

  it('an unknown or overlong link is a plain 404 page, a withdrawn one a 410, with nothing of the invoice', async () => {
    const { invoice, token } = await sentInvoice();
    for (const path of [`/invoice/${'A'.repeat(43)}`, `/invoice/${'x'.repeat(3000)}`, '/invoice', `/invoice/${token}/other`]) {
      const res = await fetch(`${server.url}${path}`);
      expect(res.status, path).toBe(404);
      const page = await res.text();
      expect(page).toContain(path === `/invoice/${'A'.repeat(43)}` || path.length > 1000 ? INVOICE_LINK_MESSAGES.unknown : 'Invoice not found');
      expect(page).not.toContain('Birch');
    }
    await invoiceOf(await owner.post(`/api/invoices/${invoice.id}/revoke`));
    const gone = await fetch(`${server.url}/invoice/${token}`);
    expect(gone.status).toBe(410);
    expect(await gone.text()).toContain(INVOICE_LINK_MESSAGES.revoked);
  });

  it('the quote page lists the job’s issued invoices, each opening under the quote’s own link, and no other', async () => {
    const { invoice, quoteToken } = await sentInvoice();
    const other = await sentInvoice();
    const quote = await (await fetch(`${server.url}/quote/${quoteToken}`)).text();
    expect(quote).toContain(`<a href="/quote/${quoteToken}/invoices/${invoice.id}">Invoice ${invoice.number}</a>: Issued, £480.00 to pay`);
    expect(quote).not.toContain(`/invoices/${other.invoice.id}"`);
    const page = await fetch(`${server.url}/quote/${quoteToken}/invoices/${invoice.id}`);
    expect(page.status).toBe(200);
    const text = await page.text();
    expect(text).toContain('<strong>£480.00</strong> is due by');
    expect(text).toContain(`href="/quote/${quoteToken}/invoices/${invoice.id}/invoice.pdf"`);
    const pdf = await fetch(`${server.url}/quote/${quoteToken}/invoices/${invoice.id}/invoice.pdf`);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    // Another job's invoice under this quote's link is unknown.
    expect((await fetch(`${server.url}/quote/${quoteToken}/invoices/${other.invoice.id}`)).status).toBe(404);
    expect((await fetch(`${server.url}/quote/${quoteToken}/invoices/${other.invoice.id}/invoice.pdf`)).status).toBe(404);
  });
});
